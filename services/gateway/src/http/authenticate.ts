import type { Middleware } from 'koa';
import type { ApiKeyStore } from '../auth/api-key-store.ts';
import { ApiError } from '../errors/api-error.ts';
import type { GatewayState } from './gateway-state.ts';

const CHALLENGE = 'Bearer realm="utility-api"';
/** Longer values are refused before hashing: no key is that long and hashing megabytes costs. */
const MAX_KEY_LENGTH = 256;

function unauthorized(message: string, error?: 'invalid_token'): ApiError {
  return new ApiError(401, 'unauthorized', message, {
    headers: { 'WWW-Authenticate': error ? `${CHALLENGE}, error="${error}"` : CHALLENGE },
  });
}

/** The key is the whole header value, or follows a `Bearer` scheme; nothing else is read. */
export function presentedApiKey(header: string): string | undefined {
  const value = header.trim();
  if (value === '') return undefined;
  const bearer = /^bearer\s+(\S+)$/i.exec(value);
  if (bearer) return bearer[1];
  return /\s/.test(value) ? undefined : value;
}

/**
 * Requires `Authorization: <key>` or `Authorization: Bearer <key>`. A key in the query string is
 * never read, so it cannot leak through URLs into logs, proxies or browser history.
 */
export function authenticate(keys: ApiKeyStore): Middleware<GatewayState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header === '') {
      throw unauthorized('Missing API key: send it in the Authorization header (Authorization: <key>).');
    }
    const key = presentedApiKey(header);
    if (key === undefined || key.length > MAX_KEY_LENGTH) {
      throw unauthorized('Malformed Authorization header: send "Authorization: <key>" or "Authorization: Bearer <key>".', 'invalid_token');
    }
    const identity = await keys.verify(key);
    if (!identity) throw unauthorized('Invalid API key.', 'invalid_token');
    ctx.state.apiKey = identity;
    ctx.state.log = ctx.state.log.child({ keyId: identity.id });
    await next();
  };
}
