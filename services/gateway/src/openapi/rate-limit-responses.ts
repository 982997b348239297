/** The rate-limit headers and the 429 response, as the OpenAPI document describes them. */
export const RATE_LIMIT_HEADER_COMPONENTS = {
  'RateLimit-Limit': {
    description: "The key's budget for this endpoint: requests allowed per window.",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends and the budget is full again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Policy': {
    description: 'The budget as `<limit>;w=<window in seconds>`, such as `600;w=60`.',
    schema: { type: 'string', pattern: '^\\d+;w=\\d+$' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
} as const;

const ref = (name: keyof typeof RATE_LIMIT_HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

/** On every response of an authenticated operation that got past the key check. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': ref('RateLimit-Limit'),
  'RateLimit-Remaining': ref('RateLimit-Remaining'),
  'RateLimit-Reset': ref('RateLimit-Reset'),
  'RateLimit-Policy': ref('RateLimit-Policy'),
};

export const RATE_LIMITED_DESCRIPTION =
  "Rate limited (code `rate_limited`): the key's budget for this endpoint is used up, or this client address sent too many " +
  'wrong keys. `Retry-After` says when to retry; the `RateLimit-*` headers are present when the key was the cause.';

export const RATE_LIMITED_HEADERS = { 'Retry-After': ref('Retry-After'), ...RATE_LIMIT_HEADERS };
