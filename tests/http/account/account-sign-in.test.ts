import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { MAX_SESSIONS_PER_ACCOUNT } from '../../../services/gateway/src/account-area/sessions.ts';
import { freePort } from '../../helpers/processes.ts';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { AccountClient, openTestStore, ownerLinkToken } from '../../support/account/account-client.ts';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, FakeDiscordOAuth } from '../../support/account/fake-discord-oauth.ts';

/** Sign-in over raw HTTP, embedded mode: one-time links, Discord through a fake, sessions, CSRF. */
let fake: FakeDiscordOAuth;
let gateway: TestGateway;
let store: AccountStore;
let dataDir: string;

test.before(async () => {
  fake = await FakeDiscordOAuth.start();
  dataDir = mkdtempSync(join(tmpdir(), 'account-sign-in-'));
  const port = await freePort();
  gateway = await startTestGateway({
    // Room for every failed sign-in and Discord start the tests below make from one address.
    env: { PORT: String(port), DATABASE_PATH: join(dataDir, 'accounts.sqlite'), RATE_LIMIT_AUTH_FAILURES: '200/60s', ...fake.env(`http://127.0.0.1:${port}`) },
  });
  store = openTestStore(join(dataDir, 'accounts.sqlite'));
});

test.after.always(async () => {
  await store?.close();
  await gateway?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const client = () => new AccountClient(gateway.url);

test.serial('a one-time link signs in once; its second use is refused with a clear message', async (t) => {
  const token = await ownerLinkToken(store, gateway.url);
  const first = client();
  const signedIn = await first.signInWithToken(token);
  t.is(signedIn.status, 200);
  t.is(signedIn.body.location, '/account');
  const me = await first.json('/account/api/me');
  t.is(me.body.account.id, OWNER_ACCOUNT_ID);
  t.is(me.body.session.method, 'link');
  t.regex(me.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);

  const again = await client().signInWithToken(token);
  t.is(again.status, 400);
  t.is(again.body.error.code, 'sign_in_link_invalid');
  t.regex(again.body.error.message, /already used or has expired/);
  t.is((await first.json('/account/api/me')).status, 200, 'the first browser stays signed in');
});

test.serial('the session cookie over http: a plain `session`, HttpOnly, SameSite=Lax, Path=/, not Secure', async (t) => {
  const browser = client();
  await browser.signInWithToken(await ownerLinkToken(store, gateway.url));
  const cookie = browser.setCookies.find((line) => line.startsWith('session='))!;
  t.truthy(cookie);
  t.regex(cookie, /^session=[A-Za-z0-9_-]{43}; /);
  for (const flag of ['HttpOnly', 'SameSite=Lax', 'Path=/']) t.true(cookie.split('; ').includes(flag), flag);
  t.false(/Secure/i.test(cookie));
  t.false(/Domain=/i.test(cookie));
  // The store keeps only the SHA-256 of the id: the id itself opens nothing when looked up directly.
  t.is(await store.session(browser.cookies.get('session')!), undefined);
});

test.serial('a page of the area without a session goes to sign-in; with one it is served under its CSP', async (t) => {
  const anonymous = client();
  const redirected = await anonymous.request('/account');
  t.is(redirected.status, 303);
  t.is(redirected.headers.get('location'), '/account/sign-in');
  t.is((await anonymous.json('/account/api/keys')).status, 401);

  const browser = client();
  await browser.signInWithToken(await ownerLinkToken(store, gateway.url));
  const page = await browser.request('/account');
  t.is(page.status, 200);
  const csp = page.headers.get('content-security-policy')!;
  t.true(csp.includes("script-src 'self'") && csp.includes("default-src 'none'") && csp.includes("frame-ancestors 'none'"));
  t.false(csp.includes('unsafe-inline'));
  t.is(page.headers.get('x-frame-options'), 'DENY');
  t.is(page.headers.get('referrer-policy'), 'no-referrer');
  t.is(page.headers.get('x-content-type-options'), 'nosniff');
  const html = await page.text();
  t.false(/<script>|<script [^>]*>[^<]/.test(html), 'no inline script');
  const asset = /src="(\/account\/assets\/[^"]+\/account\.js)"/.exec(html)![1]!;
  const script = await browser.request(asset);
  t.is(script.status, 200);
  t.regex(script.headers.get('cache-control')!, /immutable/);
  const etag = script.headers.get('etag')!;
  // node:http, not fetch: fetch sends `Cache-Control: no-cache` with a conditional request, which forbids a 304.
  const revalidated = await new Promise<number>((resolve, reject) => {
    httpGet(`${gateway.url}${asset}`, { headers: { 'if-none-match': etag } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    }).on('error', reject);
  });
  t.is(revalidated, 304);
  t.is((await browser.request('/account/assets/stale/account.js')).status, 404);
});

test.serial('Sign in with Discord: PKCE S256, identify only, the exact redirect URI; one account per Discord user', async (t) => {
  fake.user = { id: '222222222222222222', username: 'pkce_user', global_name: 'PKCE User' };
  const browser = client();
  const start = await browser.request('/account/sign-in/discord');
  t.is(start.status, 303);
  const authorize = new URL(start.headers.get('location')!);
  t.is(authorize.origin + authorize.pathname, `${fake.url}/oauth2/authorize`);
  t.is(authorize.searchParams.get('scope'), 'identify');
  t.is(authorize.searchParams.get('code_challenge_method'), 'S256');
  t.is(authorize.searchParams.get('redirect_uri'), `${gateway.url}/account/sign-in/discord/callback`);
  t.is(authorize.searchParams.get('client_id'), FAKE_CLIENT_ID);
  const nonceCookie = browser.setCookies.at(-1)!;
  t.regex(nonceCookie, /^oauth=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax$/);
  const atDiscord = await browser.request(authorize.toString());
  const callback = await browser.request(atDiscord.headers.get('location')!);
  t.is(callback.status, 303);
  t.is(callback.headers.get('location'), '/account');
  t.false(browser.cookies.has('oauth'), 'the nonce cookie is cleared after its callback');
  const exchange = fake.tokenRequests.at(-1)!;
  t.is(exchange.client_secret, FAKE_CLIENT_SECRET);
  t.regex(exchange.code_verifier!, /^[A-Za-z0-9_-]{43}$/);
  await browser.refreshCsrf();
  const me = await browser.json('/account/api/me');
  t.is(me.body.account.name, 'PKCE User');
  t.true(me.body.account.discord);
  t.is(me.body.session.method, 'discord');

  const second = client();
  t.is((await second.signInWithDiscord()).headers.get('location'), '/account');
  t.is((await second.json('/account/api/me')).body.account.id, me.body.account.id, 'the same Discord user is the same account');
  const accounts = (await store.listAccounts()).filter((account) => account.discordUserId === '222222222222222222');
  t.is(accounts.length, 1);
  const audit = await store.auditLog(me.body.account.id, 10);
  t.is(audit.filter((event) => event.type === 'account_created').length, 1);
  t.is(audit.filter((event) => event.type === 'signed_in' && event.actor === 'session:discord').length, 2);
});

test.serial('a callback opened in another browser than the one that started is refused (state bound to the browser)', async (t) => {
  const victim = client();
  const start = await victim.request('/account/sign-in/discord');
  const atDiscord = await victim.request(start.headers.get('location')!);
  const callbackUrl = atDiscord.headers.get('location')!;
  // The attacker's browser (no nonce cookie) opens the callback: login CSRF / code injection.
  const attacker = client();
  const refused = await attacker.request(callbackUrl);
  t.is(refused.status, 303);
  t.is(refused.headers.get('location'), '/account/sign-in?error=state');
  t.false(attacker.cookies.has('session'));
  // The state was spent by that attempt: it cannot be used a second time, not even by its browser.
  const replay = await victim.request(callbackUrl);
  t.is(replay.headers.get('location'), '/account/sign-in?error=state');
});

test.serial('a code used once is refused by Discord when replayed under a fresh state, and the page says so kindly', async (t) => {
  const browser = client();
  const start = await browser.request('/account/sign-in/discord');
  const atDiscord = await browser.request(start.headers.get('location')!);
  const callbackUrl = new URL(atDiscord.headers.get('location')!);
  t.is((await browser.request(callbackUrl.toString())).headers.get('location'), '/account');
  const usedCode = callbackUrl.searchParams.get('code')!;
  const fresh = await browser.request('/account/sign-in/discord');
  const freshState = new URL(fresh.headers.get('location')!).searchParams.get('state')!;
  const refusalsBefore = fake.refusals.length;
  const replay = await browser.request(`/account/sign-in/discord/callback?code=${usedCode}&state=${freshState}`);
  t.is(replay.headers.get('location'), '/account/sign-in?error=code');
  t.deepEqual(fake.refusals.slice(refusalsBefore), ['token: unknown or used code']);
  t.is((await browser.request('/account/sign-in?error=code')).status, 200);
});

test.serial('the fake Discord refuses a wrong code_verifier and a wrong redirect_uri, as Discord does', async (t) => {
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const authorize = async () => {
    const url = new URL(`${fake.url}/oauth2/authorize`);
    url.search = new URLSearchParams({ response_type: 'code', client_id: FAKE_CLIENT_ID, redirect_uri: fake.redirectUri, scope: 'identify', state: 's', code_challenge: challenge, code_challenge_method: 'S256' }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    return new URL(response.headers.get('location')!).searchParams.get('code')!;
  };
  const exchange = (fields: Record<string, string>) =>
    fetch(`${fake.url}/api/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: FAKE_CLIENT_ID, client_secret: FAKE_CLIENT_SECRET, redirect_uri: fake.redirectUri, ...fields }),
    });
  // RFC 7636's example pair: this verifier hashes to that challenge.
  const rightVerifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  t.is((await exchange({ code: await authorize(), code_verifier: 'x'.repeat(43) })).status, 400);
  t.is((await exchange({ code: await authorize(), code_verifier: rightVerifier, redirect_uri: `${fake.redirectUri}/other` })).status, 400);
  const code = await authorize();
  t.is((await exchange({ code, code_verifier: rightVerifier })).status, 200);
  t.is((await exchange({ code, code_verifier: rightVerifier })).status, 400, 'a code works once');
  t.true(fake.refusals.includes('token: code_verifier does not match the challenge'));
  t.true(fake.refusals.includes('token: redirect_uri differs from the authorize request'));
});

test.serial('denied at Discord, and Discord down, end on the sign-in page with a message, never a 5xx', async (t) => {
  try {
    fake.deny = true;
    const denied = await client().signInWithDiscord();
    t.is(denied.headers.get('location'), '/account/sign-in?error=denied');
    fake.deny = false;
    fake.down = true;
    const down = await client().signInWithDiscord();
    t.is(down.headers.get('location'), '/account/sign-in?error=discord_unavailable');
  } finally {
    fake.deny = false;
    fake.down = false;
  }
});

test.serial('hostile callback input is answered with the sign-in page, never a 5xx', async (t) => {
  const browser = client();
  const queries = ['', '?state=short', `?state=${'a'.repeat(43)}&code=x`, '?state=a&state=b&code=c&code=d', `?code=${'c'.repeat(5000)}&state=${'s'.repeat(43)}`, '?error=access_denied', '?state=%00%ff'];
  for (const query of queries) {
    const answer = await browser.request(`/account/sign-in/discord/callback${query}`, { headers: { cookie: 'oauth=' + 'n'.repeat(43) } });
    t.is(answer.status, 303, query);
    t.regex(answer.headers.get('location')!, /^\/account\/sign-in\?error=(state|denied)$/, query);
  }
});

test.serial('session fixation: a session id planted before sign-in is ended, and a new one issued', async (t) => {
  // The attacker signs in and plants their own session id in the victim's browser.
  const attacker = client();
  await attacker.signInWithToken(await ownerLinkToken(store, gateway.url));
  const planted = attacker.cookies.get('session')!;
  const victim = client();
  victim.cookies.set('session', planted);
  fake.user = { id: '333333333333333333', username: 'victim', global_name: null };
  t.is((await victim.signInWithDiscord()).headers.get('location'), '/account');
  const issued = victim.cookies.get('session')!;
  t.not(issued, planted);
  t.is((await victim.json('/account/api/me')).body.account.name, 'victim');
  t.is((await attacker.json('/account/api/me')).status, 401, 'the planted id signs nobody in any more');
  // A made-up id planted in the browser is not adopted either.
  const madeUp = 'A'.repeat(43);
  const other = client();
  other.cookies.set('session', madeUp);
  await other.signInWithToken(await ownerLinkToken(store, gateway.url));
  t.not(other.cookies.get('session'), madeUp);
  t.is((await client().json('/account/api/me', { headers: { cookie: `session=${madeUp}` } })).status, 401);
});

test.serial('forged cross-site POSTs are refused: no or foreign Origin, cross-site fetch, missing or wrong CSRF token', async (t) => {
  const browser = client();
  await browser.signInWithToken(await ownerLinkToken(store, gateway.url));
  const other = client();
  await other.signInWithToken(await ownerLinkToken(store, gateway.url));
  const body = JSON.stringify({ name: 'forged' });
  const attempts: [string, Record<string, string>, string][] = [
    ['no Origin, no Sec-Fetch-Site', { 'x-csrf-token': browser.csrfToken! }, 'cross_origin_refused'],
    ['a foreign Origin', { origin: 'https://evil.example', 'x-csrf-token': browser.csrfToken! }, 'cross_origin_refused'],
    ['Origin null', { origin: 'null', 'x-csrf-token': browser.csrfToken! }, 'cross_origin_refused'],
    ['Sec-Fetch-Site cross-site', { origin: browser.origin, 'sec-fetch-site': 'cross-site', 'x-csrf-token': browser.csrfToken! }, 'cross_origin_refused'],
    ['no CSRF token', { origin: browser.origin }, 'csrf_token_invalid'],
    ['a wrong CSRF token', { origin: browser.origin, 'x-csrf-token': 'B'.repeat(43) }, 'csrf_token_invalid'],
    ['another session\'s CSRF token', { origin: browser.origin, 'x-csrf-token': other.csrfToken! }, 'csrf_token_invalid'],
    ['a huge CSRF header', { origin: browser.origin, 'x-csrf-token': 'C'.repeat(8000) }, 'csrf_token_invalid'],
    ['a loopback alias on another port', { origin: `http://localhost:${Number(new URL(gateway.url).port) + 1}`, 'x-csrf-token': browser.csrfToken! }, 'cross_origin_refused'],
  ];
  for (const [what, headers, code] of attempts) {
    const answer = await browser.json('/account/api/keys', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    t.is(answer.status, 403, what);
    t.is(answer.body.error.code, code, what);
  }
  for (const path of ['/account/api/sign-out', '/account/api/sign-out-everywhere']) {
    t.is((await browser.post(path, undefined, { origin: 'https://evil.example' })).status, 403, path);
  }
  // Login CSRF: a foreign page cannot sign a browser in with the attacker's link.
  t.is((await browser.post('/account/api/sign-in/link', { token: 'x'.repeat(43) }, { origin: 'https://evil.example' })).status, 403);
  const { records } = await store.snapshot();
  t.false(records.some((record) => record.name === 'forged'), 'no forged request made a key');
  t.is((await browser.json('/account/api/me')).status, 200, 'still signed in');
  t.is((await browser.post('/account/api/keys', { name: 'real one' })).status, 201, 'the page itself succeeds');
  // The request's own Host is the client's to write (fetch would not send a forged one): an Origin
  // matching a forged Host is still foreign, whatever the CSRF token says.
  const forged = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(gateway.url);
    const outgoing = httpRequest({ host: hostname, port, path: '/account/api/keys', method: 'POST', headers: {
      host: 'evil.example', origin: 'http://evil.example', cookie: browser.cookieHeader(), 'x-csrf-token': browser.csrfToken!, 'content-type': 'application/json',
    } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  t.is(forged.status, 403, 'a forged Host with a matching Origin');
  t.is(JSON.parse(forged.body).error.code, 'cross_origin_refused');
  // PUBLIC_BASE_URL is a loopback address here: the same port under another loopback name is the same place.
  t.is((await browser.post('/account/api/keys', { name: 'from localhost' }, { origin: `http://localhost:${new URL(gateway.url).port}` })).status, 201);
});

test.serial('a Discord display name is stored without controls, escape sequences, bidi overrides or lone surrogates', async (t) => {
  // Clear screen, a window title, NUL, a C1 CSI, a right-to-left override and a lone surrogate.
  const hostile = '\u001b[2J\u001b]0;pwned\u0007Eve\u0000\u009b31m\u202etxt.exe\ud800 \u200fok';
  fake.user = { id: '444444444444444444', username: 'eve', global_name: hostile };
  const browser = client();
  t.is((await browser.signInWithDiscord()).headers.get('location'), '/account');
  const [account] = (await store.listAccounts()).filter((stored) => stored.discordUserId === '444444444444444444');
  // The printable rest stays, the direction mark (RLM) too: it only nudges neutral characters.
  t.is(account!.name, '[2J]0;pwnedEve31mtxt.exe \u200fok');
  t.true(account!.name.isWellFormed());
  // A name of controls only falls back to the Discord id.
  fake.user = { id: '555555555555555555', username: 'x', global_name: '\u001b\u202e\udc00' };
  t.is((await client().signInWithDiscord()).headers.get('location'), '/account');
  t.is((await store.listAccounts()).find((stored) => stored.discordUserId === '555555555555555555')!.name, 'Discord user 555555555555555555');
});

test.serial('hostile bodies, cookies and headers get a clear 4xx', async (t) => {
  const browser = client();
  const post = (body: string, type = 'application/json') => browser.json('/account/api/sign-in/link', { method: 'POST', headers: { origin: browser.origin, 'content-type': type }, body });
  t.is((await post('{"token":')).status, 400);
  t.is((await post('[]')).status, 400);
  t.is((await post('{"token": 5}')).status, 400);
  t.is((await post('{"token":"x","extra":1}')).status, 400);
  t.is((await post('{"__proto__":{"a":1}}')).status, 400);
  t.is((await post('token=x', 'application/x-www-form-urlencoded')).status, 415);
  t.is((await post(JSON.stringify({ token: 'x'.repeat(10_000) }))).status, 413);
  for (const cookie of ['session=', 'session=%%%', `session=${'a'.repeat(4000)}`, 'session="quoted"; session=x', '__Host-session=' + 'A'.repeat(43)]) {
    t.is((await browser.json('/account/api/me', { headers: { cookie } })).status, 401, cookie);
    t.is((await browser.request('/account', { headers: { cookie } })).status, 303, cookie);
  }
  for (const path of ['/account/api/keys/..%2f..%2fetc/revoke', '/account/api/keys/ABCDEFGH/roll', `/account/api/keys/${'a'.repeat(300)}/revoke`]) {
    const answer = await browser.json(path, { method: 'POST', headers: { origin: browser.origin } });
    t.true(answer.status >= 400 && answer.status < 500, `${path}: ${answer.status}`);
  }
});

test.serial('sign out ends this browser only; sign out everywhere ends every session of the account', async (t) => {
  const browsers = [client(), client(), client()];
  for (const browser of browsers) await browser.signInWithToken(await ownerLinkToken(store, gateway.url));
  const [one, two, three] = browsers as [AccountClient, AccountClient, AccountClient];
  const oneId = one.cookies.get('session')!;
  const out = await one.post('/account/api/sign-out');
  t.is(out.status, 200);
  t.false(one.cookies.has('session'), 'the cookie is cleared');
  t.is((await client().json('/account/api/me', { headers: { cookie: `session=${oneId}` } })).status, 401, 'the old id is dead server-side');
  t.is((await two.json('/account/api/me')).status, 200);
  const everywhere = await two.post('/account/api/sign-out-everywhere');
  t.is(everywhere.status, 200);
  t.true(everywhere.body.sessions >= 2);
  t.is((await two.json('/account/api/me')).status, 401);
  t.is((await three.json('/account/api/me')).status, 401);
  const audit = await store.auditLog(OWNER_ACCOUNT_ID, 50);
  t.true(audit.some((event) => event.type === 'signed_out'));
  t.true(audit.some((event) => event.type === 'signed_out_everywhere' && event.actor === 'session:link'));
});

/** A second gateway on the same database, with other settings (its own address and counters). */
async function withGateway(env: Record<string, string>, use: (other: TestGateway) => Promise<void>): Promise<void> {
  const other = await startTestGateway({ env: { DATABASE_PATH: join(dataDir, 'accounts.sqlite'), ...env } });
  try {
    await use(other);
  } finally {
    await other.close();
  }
}

test.serial('over https (PUBLIC_BASE_URL https): `__Host-session`, Secure, and the OAuth nonce cookie too', async (t) => {
  const publicOrigin = 'https://accounts.example.test';
  const port = await freePort();
  await withGateway({ PORT: String(port), PUBLIC_BASE_URL: publicOrigin, ...fake.env(publicOrigin) }, async (other) => {
    const browser = new AccountClient(other.url, publicOrigin);
    t.is((await browser.signInWithToken(await ownerLinkToken(store, publicOrigin))).status, 200);
    const cookie = browser.setCookies.find((line) => line.startsWith('__Host-session='))!;
    t.truthy(cookie);
    for (const flag of ['HttpOnly', 'SameSite=Lax', 'Path=/', 'Secure']) t.true(cookie.split('; ').includes(flag), flag);
    t.false(/Domain=/i.test(cookie), '__Host- cookies carry no Domain');
    t.is((await browser.json('/account/api/me')).status, 200);
    // A plain `session` cookie is not read over https (a cookie set by a plain-http page could shadow it).
    const id = browser.cookies.get('__Host-session')!;
    t.is((await browser.json('/account/api/me', { headers: { cookie: `session=${id}` } })).status, 401);
    const start = await browser.request('/account/sign-in/discord');
    t.regex(browser.setCookies.at(-1)!, /^__Host-oauth=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    t.is(new URL(start.headers.get('location')!).searchParams.get('redirect_uri'), `${publicOrigin}/account/sign-in/discord/callback`);
    // The origin check takes the public origin; a foreign one is refused as over http.
    t.is((await browser.post('/account/api/keys', { name: 'https key' })).status, 201);
    t.is((await browser.post('/account/api/keys', { name: 'forged' }, { origin: 'http://accounts.example.test' })).status, 403);
  });
});

test.serial('failed sign-in attempts are limited per address; once over, even a good link waits', async (t) => {
  await withGateway({ RATE_LIMIT_AUTH_FAILURES: '3/60s' }, async (other) => {
    const browser = new AccountClient(other.url);
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await browser.signInWithToken('Z'.repeat(43))).status);
    t.deepEqual(statuses, [400, 400, 400, 429]);
    const good = await ownerLinkToken(store, other.url);
    const blocked = await browser.signInWithToken(good);
    t.is(blocked.status, 429);
    t.regex(blocked.response.headers.get('retry-after')!, /^\d+$/);
    t.false(browser.cookies.has('session'));
    // The refused attempt did not spend the link: it still works (here, from the first gateway).
    t.is((await client().signInWithToken(good)).status, 200);
  });
  // Starting a Discord sign-in stores a pending state: starts count too.
  const port = await freePort();
  await withGateway({ PORT: String(port), RATE_LIMIT_AUTH_FAILURES: '3/60s', ...fake.env(`http://127.0.0.1:${port}`) }, async (other) => {
    const browser = new AccountClient(other.url);
    const locations = [];
    for (let attempt = 0; attempt < 5; attempt += 1) locations.push((await browser.request('/account/sign-in/discord')).headers.get('location')!);
    t.deepEqual(locations.map((location) => location.startsWith(fake.url)), [true, true, true, false, false]);
    t.is(locations[4], '/account/sign-in?error=too_many');
  });
});

test('configuration: Discord OAuth settings come all together, with the callback path exactly', (t) => {
  const base = { MEDIA_DIR: dataDir, API_KEYS: 'k'.repeat(20) };
  t.throws(() => loadGatewayConfig({ ...base, DISCORD_OAUTH_CLIENT_ID: FAKE_CLIENT_ID }), { message: /DISCORD_OAUTH_CLIENT_SECRET[\s\S]*DISCORD_OAUTH_REDIRECT_URL|DISCORD_OAUTH_REDIRECT_URL[\s\S]*DISCORD_OAUTH_CLIENT_SECRET/ });
  t.throws(() => loadGatewayConfig({ ...base, DISCORD_OAUTH_CLIENT_ID: FAKE_CLIENT_ID, DISCORD_OAUTH_CLIENT_SECRET: FAKE_CLIENT_SECRET, DISCORD_OAUTH_REDIRECT_URL: 'https://x.example/callback' }), { message: /\/account\/sign-in\/discord\/callback/ });
  t.throws(() => loadGatewayConfig({ ...base, KEY_ROLL_GRACE_HOURS: '-1' }), { message: /KEY_ROLL_GRACE_HOURS/ });
  const config = loadGatewayConfig({ ...base, DISCORD_OAUTH_CLIENT_ID: FAKE_CLIENT_ID, DISCORD_OAUTH_CLIENT_SECRET: FAKE_CLIENT_SECRET, DISCORD_OAUTH_REDIRECT_URL: 'https://x.example/account/sign-in/discord/callback' });
  t.is(config.accountArea.discord?.authorizeUrl, 'https://discord.com/oauth2/authorize');
  t.is(config.accountArea.keyRollGraceMs, 24 * 3_600_000);
  t.is(loadGatewayConfig(base).accountArea.discord, undefined);
});

test.serial('a session ends after 12 idle hours, and at its absolute end whatever the activity', async (t) => {
  const browser = client();
  await browser.signInWithToken(await ownerLinkToken(store, gateway.url));
  const idHash = createHash('sha256').update(browser.cookies.get('session')!).digest('hex');
  await store.touchSession(idHash, new Date(Date.now() - 12 * 3_600_000 - 1000));
  t.is((await browser.json('/account/api/me')).status, 401, 'idle too long');
  t.is(await store.session(idHash), undefined, 'and deleted');

  const id = 'D'.repeat(43);
  const now = Date.now();
  const session = { accountId: OWNER_ACCOUNT_ID, csrfToken: 'E'.repeat(43), method: 'link' as const, createdAt: new Date(now - 7 * 86_400_000).toISOString(), lastSeenAt: new Date(now - 60_000).toISOString() };
  const hash = createHash('sha256').update(id).digest('hex');
  await store.createSession({ ...session, idHash: hash, expiresAt: new Date(now + 60_000).toISOString() }, MAX_SESSIONS_PER_ACCOUNT);
  t.is((await client().json('/account/api/me', { headers: { cookie: `session=${id}` } })).status, 200, 'active and before its end');
  await store.deleteSession(hash);
  await store.createSession({ ...session, idHash: hash, expiresAt: new Date(now - 1000).toISOString() }, MAX_SESSIONS_PER_ACCOUNT);
  t.is((await client().json('/account/api/me', { headers: { cookie: `session=${id}` } })).status, 401, 'past its absolute end, however recently used');
});
