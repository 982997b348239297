import type { Middleware } from 'koa';
import type { ApiKeyStore } from '../auth/api-key-store.ts';
import { ApiError } from '../errors/api-error.ts';
import type { AuthFailureGuard } from '../rate-limits/auth-failure-guard.ts';
import { clientAddressKey } from '../rate-limits/client-address.ts';
import type { GatewayState } from './gateway-state.ts';

const CHALLENGE = 'Bearer realm="utility-api"';
/** Longer values are refused before hashing: no key is that long and hashing megabytes costs. */
const MAX_KEY_LENGTH = 256;

function unauthorized(message: string, error?: 'invalid_token'): ApiError {
  return new ApiError(401, 'unauthorized', message, {
    headers: { 'WWW-Authenticate': error ? `${CHALLENGE}, error="${error}"` : CHALLENGE },
  });
}

function tooManyFailures(retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError(429, 'rate_limited', `Too many failed authentication attempts from your address; retry in ${seconds} s.`, {
    headers: { 'Retry-After': String(seconds) },
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
 *
 * With a failure guard, an address that sent too many wrong or malformed keys gets a 429 before
 * its key is even looked at, and the failure that crosses the limit is a 429 too.
 */
export function authenticate(keys: ApiKeyStore, failures?: AuthFailureGuard): Middleware<GatewayState> {
  return async (ctx, next) => {
    const address = failures ? clientAddressKey(ctx.ip) : '';
    if (failures) {
      const blockedMs = failures.blockedFor(address);
      if (blockedMs > 0) throw tooManyFailures(blockedMs);
    }
    const refuse = async (error: ApiError): Promise<never> => {
      if (failures) {
        const decision = await failures.recordFailure(address);
        if (!decision.allowed) throw tooManyFailures(decision.resetMs);
      }
      throw error;
    };

    const header = ctx.get('authorization');
    if (header === '') {
      throw unauthorized('Missing API key: send it in the Authorization header (Authorization: <key>).');
    }
    const key = presentedApiKey(header);
    if (key === undefined || key.length > MAX_KEY_LENGTH) {
      return refuse(unauthorized('Malformed Authorization header: send "Authorization: <key>" or "Authorization: Bearer <key>".', 'invalid_token'));
    }
    const identity = await keys.verify(key);
    if (!identity) return refuse(unauthorized('Invalid API key.', 'invalid_token'));
    ctx.state.apiKey = identity;
    ctx.state.log = ctx.state.log.child({ keyId: identity.id });
    await next();
  };
}
