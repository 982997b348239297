import { describeRetryAfter, ERROR_CATALOGUE, ERROR_CODES, statusesOf } from '@utility-api/api-errors';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../http/endpoint-route.ts';
import type { RateLimitSettings } from '../auth/rate-limits.ts';
import type { RateSpec } from '../auth/rate-spec.ts';

/** What holds for every endpoint, whatever the configuration. */
const API_DESCRIPTION_HEAD = [
  'Small, fast utility endpoints for chat bots. Every `/v1/` endpoint needs an API key; `/docs`, `/v1/openapi.json` and',
  'generated media are public. Design a card and copy its code in the [card playground](/playground).',
  '',
  '## Authentication',
  'Send your key as the whole `Authorization` header value: `Authorization: <key>`. `Authorization: Bearer <key>` is accepted too.',
  'Keys in the query string are ignored. A missing, malformed, unknown or revoked key is a `401` with a `WWW-Authenticate: Bearer` header.',
  'Keys look like `uk_live_<id>_<secret>`; `uk_live_<id>` names a key in lists and logs. A revoked key stops working within a second.',
  "Get a key in the [account area](/account): sign in, make a key (shown once), roll or revoke it, and watch its usage. `GET /v1/account` answers your plan's quota.",
  '',
  '## Errors',
  'Every error is JSON with the shared body `{"error": {"status", "code", "message", "details"?}, "requestId"}`; validation',
  'errors (`400 invalid_request`) list every bad field in `details`. The only exception is `POST /v1/json-validator`, whose',
  '400s are its own `{"status": "invalid", "message", "jsonType": "N/A"}` answers, as its contract defines. Bad input is always',
  'a 4xx; a 5xx means a fault on our side and its body carries only the request id. Every response has an `X-Request-Id`',
  'header (your own `X-Request-Id`, if it is 1-64 characters of letters, digits and `._:-`, is kept).',
  '',
  '## Requests',
  `Bodies are JSON (\`application/json\`), at most ${MAX_BODY_BYTES / 1024 / 1024} MB (413 above) and nested at most ${MAX_JSON_DEPTH} levels`,
  '(400 deeper); a `__proto__` key anywhere in a body is refused (400); another content type, or a charset other than UTF-8, is a 415. A query parameter an endpoint reads must appear once (a repeated one is a 400);',
  'parameters it does not read are ignored. Unknown paths are a 404 and a wrong method a 405 with an `Allow` header, both JSON.',
  '`OPTIONS` needs the key like any other method on a keyed path and answers 204 with an `Allow` header (`/v1/status` answers it like every method).',
  'Bodies may be sent gzip, deflate or br encoded; the size limit counts the decompressed bytes.',
  "API responses and errors carry `Cache-Control: no-store`, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`,",
  '`Cross-Origin-Resource-Policy: same-origin`, `Referrer-Policy: no-referrer` and `X-Frame-Options: DENY`; `Strict-Transport-Security` only over https.',
  'Card images under `/media` are cacheable forever (`immutable`) and embeddable (`Cross-Origin-Resource-Policy: cross-origin`). There is no CORS: keys belong on',
  'servers, not in browsers.',
];

const perWindow = (spec: RateSpec) =>
  spec.durationSeconds === 60 ? `${spec.points} per minute` : `${spec.points} per ${spec.durationSeconds} seconds`;

function rateLimitSection(settings: RateLimitSettings): string[] {
  if (!settings.enabled) return ['## Rate limits', 'This deployment runs without rate limits.'];
  return [
    '## Rate limits',
    `Each key has two budgets: ${perWindow(settings.budgets.profileImage)} for \`POST /v1/profile-image\` and \`POST /v1/leaderboard-image\` together (card renders) and`,
    `${perWindow(settings.budgets.default)} for every other endpoint; a key may have its own budgets instead. Windows are fixed. Every`,
    'response of an authenticated endpoint carries `RateLimit-Limit` (the budget), `RateLimit-Remaining`, `RateLimit-Reset` (seconds until',
    'the window resets) and `RateLimit-Policy` (`<limit>;w=<window seconds>`). An exhausted budget is a `429` with code `rate_limited`',
    'and a `Retry-After` header (seconds). Failed authentications are limited per client address: after',
    `${perWindow(settings.authFailures)} wrong or malformed keys, that address gets \`429 rate_limited\` with \`Retry-After\` on every`,
    'authenticated endpoint, before its key is checked, until the window ends.',
    `A key may also have at most ${settings.cardsInFlightPerKey} card requests (profile and leaderboard images) in progress at once, counted across every gateway;`,
    'one more is `429 too_many_cards_in_flight` with `Retry-After: 1`.',
  ];
}

/** Every code from the error catalogue, so the docs never list a code the server does not send or miss one it does. */
function errorCodeTable(): string[] {
  return [
    '### Error codes',
    '| Code | Status | Retry-After | When |',
    '| --- | --- | --- | --- |',
    ...ERROR_CODES.map((code) => `| \`${code}\` | ${statusesOf(code).join(' or ')} | ${describeRetryAfter(code)} | ${ERROR_CATALOGUE[code].summary} |`),
  ];
}

/** The document-level text: what holds for every endpoint. */
export function apiDescription(rateLimits: RateLimitSettings): string {
  return [...API_DESCRIPTION_HEAD, '', ...rateLimitSection(rateLimits), '', ...errorCodeTable()].join('\n');
}
