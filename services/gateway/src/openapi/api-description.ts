import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../http/body-parser.ts';

/** The document-level text: what holds for every endpoint. */
export const API_DESCRIPTION = [
  'Small, fast utility endpoints for chat bots. Every `/v1/` endpoint needs an API key; `/docs`, `/v1/openapi.json` and',
  'generated media are public.',
  '',
  '## Authentication',
  'Send your key as the whole `Authorization` header value: `Authorization: <key>`. `Authorization: Bearer <key>` is accepted too.',
  'Keys in the query string are ignored. A missing, malformed or unknown key is a `401` with a `WWW-Authenticate: Bearer` header.',
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
  '(400 deeper); a `__proto__` key anywhere in a body is refused (400); another content type is a 415. A query parameter an endpoint reads must appear once (a repeated one is a 400);',
  'parameters it does not read are ignored. Unknown paths are a 404 and a wrong method a 405 with an `Allow` header, both JSON.',
  'API responses are sent with `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. There is no CORS: keys belong on',
  'servers, not in browsers.',
].join('\n');
