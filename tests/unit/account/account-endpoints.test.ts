import test from 'ava';
import type { AccountApiParts } from '../../../services/gateway/src/account-area/api/account-api-parts.ts';
import { meEndpoint } from '../../../services/gateway/src/account-area/api/me.ts';
import { revokeKeyEndpoint } from '../../../services/gateway/src/account-area/api/revoke-key.ts';
import { signInLinkEndpoint } from '../../../services/gateway/src/account-area/api/sign-in-link.ts';
import { signInOptionsEndpoint } from '../../../services/gateway/src/account-area/api/sign-in-options.ts';
import type { Session } from '../../../services/gateway/src/accounts/account-model.ts';
import type { RequestSnapshot, SignedInSession } from '../../../services/gateway/src/http/endpoint.ts';
import { ApiError } from '../../../services/gateway/src/http/api-error.ts';

/**
 * The account area's endpoints are data plus a handler, like `/v1`'s: called here with no HTTP
 * server, no cookie and no Koa, only the session the credential step would have found.
 */
const SESSION: Session = {
  idHash: 'a'.repeat(64),
  accountId: 'acct_owner',
  csrfToken: 'c'.repeat(43),
  createdAt: '2024-06-15T12:00:00.000Z',
  lastSeenAt: '2024-06-15T12:00:00.000Z',
  expiresAt: '2024-06-22T12:00:00.000Z',
  method: 'link',
};
const SIGNED_IN: SignedInSession = { session: SESSION, idHash: SESSION.idHash };

function request(signedIn?: SignedInSession): RequestSnapshot {
  return { method: 'GET', url: '/account/api/me', path: '/account/api/me', query: {}, headers: {}, receivedAt: 0, requestId: 'r1', clientAddress: '192.0.2.7', signedIn };
}

const settings = (discord: boolean): AccountApiParts['settings'] => ({
  discord: discord ? { clientId: '1'.repeat(18), clientSecret: 's'.repeat(16), redirectUrl: 'http://127.0.0.1/cb', authorizeUrl: 'http://a', tokenUrl: 'http://t', apiBaseUrl: 'http://api' } : undefined,
  keyRollGraceMs: 12 * 3_600_000,
});

test('sign-in options say whether Discord is offered and whether this browser is signed in', async (t) => {
  t.deepEqual(await signInOptionsEndpoint({ settings: settings(true) }).handle({ query: {}, body: undefined, params: {}, request: request() }), { discord: true, signedIn: false });
  t.deepEqual(await signInOptionsEndpoint({ settings: settings(false) }).handle({ query: {}, body: undefined, params: {}, request: request(SIGNED_IN) }), { discord: false, signedIn: true });
});

test("me answers the session's account and its CSRF token; an account gone since is not_signed_in", async (t) => {
  const account = { id: 'acct_owner', name: 'Local owner', plan: 'owner', discordUserId: null, createdAt: SESSION.createdAt };
  const store = { getAccount: async (id: string) => (id === account.id ? account : undefined) } as unknown as AccountApiParts['store'];
  const me = meEndpoint({ store, settings: settings(false) });
  t.like(await me.handle({ query: {}, body: undefined, params: {}, request: request(SIGNED_IN) }), { account: { id: 'acct_owner', owner: true, discord: false }, csrfToken: SESSION.csrfToken, keyRollGraceHours: 12 });
  const gone = { ...SIGNED_IN, session: { ...SESSION, accountId: 'acct_other' } };
  const error = await t.throwsAsync(async () => me.handle({ query: {}, body: undefined, params: {}, request: request(gone) }), { instanceOf: ApiError });
  t.is(error?.code, 'not_signed_in');
});

test('an address over its failed-sign-in budget is refused before the link is looked at, with Retry-After', async (t) => {
  let looked = false;
  const store = { takeOnce: async () => { looked = true; return undefined; } } as unknown as AccountApiParts['store'];
  const rateLimits = { authBlockedFor: (address: string) => (address === '192.0.2.7' ? 30_000 : 0), recordAuthFailure: async () => 0 } as unknown as AccountApiParts['rateLimits'];
  const endpoint = signInLinkEndpoint({ store, sessions: {} as AccountApiParts['sessions'], rateLimits });
  const error = await t.throwsAsync(async () => endpoint.handle({ query: {}, body: { token: 'x' }, params: {}, request: request() }), { instanceOf: ApiError });
  t.is(error?.status, 429);
  t.is(error?.headers['Retry-After'], '30');
  t.false(looked);
});

test("a malformed key id is the same 404 as another account's key: ids are not told apart by shape", async (t) => {
  const keys = { revoke: async () => t.fail('no store lookup for a malformed id') } as unknown as AccountApiParts['keys'];
  const endpoint = revokeKeyEndpoint({ keys, gatewayKeys: undefined });
  const error = await t.throwsAsync(async () => endpoint.handle({ query: {}, body: undefined, params: { id: '../../etc' }, request: request(SIGNED_IN) }), { instanceOf: ApiError });
  t.is(error?.code, 'key_not_found');
});
