import type { HeaderValue } from '../endpoint.ts';

/** Credentials are never echoed back: a status response may end up in a log or a screenshot. */
export const REDACTED_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'] as const;

export function redactHeaders(headers: Record<string, HeaderValue>): Record<string, string | string[]> {
  const echoed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    // Node lowercases header names, but a snapshot from elsewhere might not: compare case-insensitively.
    echoed[name] = (REDACTED_HEADERS as readonly string[]).includes(name.toLowerCase()) ? '[redacted]' : value;
  }
  return echoed;
}
