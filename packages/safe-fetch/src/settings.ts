import { type LookupFunction } from 'node:net';
import { FETCH_DEFAULTS } from './config.ts';

export interface SafeFetchSettings {
  /** Largest body accepted, in bytes, whatever Content-Length says. Default 8 MiB. */
  maxBytes: number;
  /** Total time for one fetch, DNS, redirects and body included, in milliseconds. Default 5000. */
  deadlineMs: number;
  /** Redirects followed before giving up. Default 3. */
  maxRedirects: number;
  /** Ports a public host may be fetched on. Default 80 and 443. */
  allowedPorts: readonly number[];
  /**
   * Hostnames, IP addresses or CIDR ranges that may be fetched from although they are not public
   * (self-hosted setups, tests), on any port. Empty by default.
   */
  allowPrivateHosts: readonly string[];
  userAgent: string;
  /** DNS injection point for tests; `dns.lookup` otherwise. It is always called with `all: true`. */
  lookup?: LookupFunction;
  /**
   * PEM certificates trusted for https in addition to Node's bundled roots: a private CA for a
   * self-hosted image server, or a test certificate. Empty by default.
   */
  trustedCertificates?: readonly string[];
}

const DEFAULT_SAFE_FETCH_SETTINGS: Readonly<SafeFetchSettings> = Object.freeze({
  ...FETCH_DEFAULTS,
  maxRedirects: 3,
  allowedPorts: Object.freeze([80, 443]),
  allowPrivateHosts: Object.freeze([]),
  userAgent: 'utility-api-image-fetcher/1.0',
});

/**
 * Defaults filled in and every value checked: a bad setting is the operator's mistake and is
 * reported when the fetcher is created (RangeError), not on the first user request.
 */
export function resolveSettings(overrides: Partial<SafeFetchSettings>): SafeFetchSettings {
  const settings: SafeFetchSettings = { ...DEFAULT_SAFE_FETCH_SETTINGS, ...withoutUndefined(overrides) };
  requirePositiveInteger('maxBytes', settings.maxBytes);
  requirePositiveInteger('deadlineMs', settings.deadlineMs);
  if (!Number.isSafeInteger(settings.maxRedirects) || settings.maxRedirects < 0) throw new RangeError(`maxRedirects must be a non-negative integer, got ${settings.maxRedirects}`);
  for (const port of settings.allowedPorts) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`allowedPorts: ${port} is not a TCP port`);
  }
  if (settings.userAgent.trim() === '') throw new RangeError('userAgent must not be empty');
  return settings;
}

export function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
