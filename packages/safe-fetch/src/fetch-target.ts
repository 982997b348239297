import { isIP } from 'node:net';
import { ImageFetchError } from './image-fetch-error.ts';
import { withoutTrailingDot } from './private-allow-list.ts';

/** A URL that passed the checks that need no DNS, ready to be resolved. */
export interface FetchTarget {
  url: URL;
  /** As the URL parser normalised it, lower case; IPv6 without brackets. */
  hostname: string;
  port: number;
  /** The host is an IP address, not a name: nothing to resolve, and messages may quote it. */
  literalAddress: boolean;
}

export interface TargetRules {
  field: string;
  /** The only hostname allowed, on the first hop and after every redirect. */
  onlyHost?: string;
  /** The URL that redirected here, for the downgrade rule; absent on the first hop. */
  redirectedFrom?: URL;
}

/** Longer URLs are not image links; refusing them keeps logs and error messages bounded. */
const MAX_URL_LENGTH = 2048;
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * The checks every hop passes before any DNS query or connection: a parseable URL, http or https,
 * no credentials, no https to http downgrade, and the pinned host when there is one. The WHATWG
 * parser normalises hosts, so `127.1`, `0x7f000001`, `2130706433` and `0177.0.0.1` all arrive
 * here as `127.0.0.1`, and `[::ffff:127.0.0.1]` as `::ffff:7f00:1`; the address rule does the rest.
 */
export function checkFetchTarget(url: string | URL, rules: TargetRules): FetchTarget {
  const { field } = rules;
  const parsed = typeof url === 'string' ? parseUrl(url, field) : url;
  const defaultPort = DEFAULT_PORTS[parsed.protocol];
  if (defaultPort === undefined) throw new ImageFetchError('forbidden_scheme', field, 'only http and https URLs can be fetched');
  if (parsed.username !== '' || parsed.password !== '') throw new ImageFetchError('userinfo', field, 'URLs with a user name or password are not accepted');
  if (rules.redirectedFrom?.protocol === 'https:' && parsed.protocol === 'http:') {
    throw new ImageFetchError('insecure_redirect', field, 'the image server redirected from https to plain http');
  }
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname === '') throw new ImageFetchError('invalid_url', field, 'the URL has no host');
  if (rules.onlyHost !== undefined && withoutTrailingDot(hostname) !== withoutTrailingDot(rules.onlyHost.toLowerCase())) {
    const via = rules.redirectedFrom === undefined ? '' : ' (after a redirect)';
    throw new ImageFetchError('forbidden_host', field, `only images from ${rules.onlyHost} are accepted here${via}`);
  }
  const port = parsed.port === '' ? defaultPort : Number(parsed.port);
  return { url: parsed, hostname, port, literalAddress: isIP(hostname) !== 0 };
}

/** The next hop's URL: a Location header, possibly relative, resolved against the current URL. */
export function resolveRedirect(location: string, current: URL, field: string): URL {
  if (location.length > MAX_URL_LENGTH || !URL.canParse(location, current.href)) {
    throw new ImageFetchError('invalid_url', field, 'the image server redirected to an invalid URL');
  }
  return new URL(location, current);
}

function parseUrl(url: string, field: string): URL {
  if (url.length > MAX_URL_LENGTH) throw new ImageFetchError('invalid_url', field, `the URL is longer than ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(url)) throw new ImageFetchError('invalid_url', field, 'the URL is not valid');
  return new URL(url);
}
