import { once } from 'node:events';
import { createServer } from 'node:net';
import { DiscordUnavailableError, UnknownUserError } from '@utility-api/discord-users';
import test from 'ava';
import { sendJson, startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { newUserId, PINO_ERROR, profilesFor, TOKEN } from '../../support/discord-users/fixtures.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

/** Status, headers and body the fake answers one user with, and the error status we expect. */
const statusTable: { answer: number; headers?: Record<string, string>; expected: 502 | 503; retryAfterSeconds?: number }[] = [
  { answer: 500, expected: 502 },
  { answer: 502, expected: 502 },
  { answer: 504, expected: 502 },
  { answer: 503, headers: { 'retry-after': '30' }, expected: 503, retryAfterSeconds: 30 },
];

for (const row of statusTable) {
  test(`Discord ${row.answer} is DiscordUnavailableError ${row.expected}`, async (t) => {
    const id = newUserId();
    fake.script(id, (response) => sendJson(response, row.answer, { message: 'oops', code: 0 }, row.headers));
    const { profiles } = profilesFor(fake);
    const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
    t.is(error?.status, row.expected);
    t.is(error?.retryAfterSeconds, row.retryAfterSeconds);
    t.is(fake.apiRequestsFor(id).length, 1);
  });
}

test('a hanging API fails with 503 within the deadline', async (t) => {
  const id = newUserId();
  fake.script(id, () => {});
  const requestTimeoutMs = 300;
  const { profiles } = profilesFor(fake, { requestTimeoutMs });
  const started = performance.now();
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  const elapsed = performance.now() - started;
  t.is(error?.status, 503);
  t.is(error?.message, 'Discord did not answer in time');
  // Not before the deadline (less a clock tick's worth), and not long after it.
  t.true(elapsed >= 0.8 * requestTimeoutMs && elapsed < 10 * requestTimeoutMs, `failed after ${Math.round(elapsed)} ms`);
});

test('headers that arrive without the body still hit the deadline', async (t) => {
  const id = newUserId();
  fake.script(id, (response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    response.write('{"id":');
  });
  const requestTimeoutMs = 300;
  const { profiles } = profilesFor(fake, { requestTimeoutMs });
  const started = performance.now();
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 503);
  t.true(performance.now() - started < 10 * requestTimeoutMs);
});

test('an unreachable API is 503', async (t) => {
  const closed = createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const address = closed.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  closed.close();
  await once(closed, 'close');
  const { profiles } = profilesFor(fake, { apiBaseUrl: `http://127.0.0.1:${port}/api/v10` });
  const error = await t.throwsAsync(profiles.resolveProfile(newUserId()), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 503);
  t.is(error?.message, 'Discord could not be reached');
});

for (const status of [401, 403]) {
  test(`Discord ${status} is 502 with a loud log and no token anywhere`, async (t) => {
    const id = newUserId();
    fake.script(id, (response) => sendJson(response, status, { message: '401: Unauthorized', code: 0 }));
    const { profiles, logs } = profilesFor(fake);
    const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
    t.is(error?.status, 502);
    t.is(error?.message, 'the Discord integration is misconfigured');
    t.true(logs.lines.some((line) => line.level === PINO_ERROR && line.status === status));
    t.false(logs.text().includes(TOKEN));
    t.false(String(error?.stack).includes(TOKEN));
  });
}

test('a 404 for a route Discord does not have (code 0) is our misconfiguration, not an unknown user', async (t) => {
  const { profiles, logs } = profilesFor(fake, { apiBaseUrl: `${fake.apiBaseUrl}/wrong-prefix` });
  const error = await t.throwsAsync(profiles.resolveProfile(newUserId()), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 502);
  t.true(logs.lines.some((line) => line.level === PINO_ERROR));
});

test('a 404 without a JSON body is an unknown user', async (t) => {
  const id = newUserId();
  fake.script(id, (response) => {
    response.writeHead(404);
    response.end();
  });
  const { profiles } = profilesFor(fake);
  await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: UnknownUserError });
});

const unusableBodies: [string, (id: string) => string][] = [
  ['not JSON', () => '<html>hello</html>'],
  ['JSON without a username', (id) => JSON.stringify({ id })],
  ['a different user', () => JSON.stringify({ id: '1', username: 'someone-else' })],
  ['a username that is not a string', (id) => JSON.stringify({ id, username: 42 })],
];

for (const [label, body] of unusableBodies) {
  test(`a 200 with ${label} is 502`, async (t) => {
    const id = newUserId();
    fake.script(id, (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body(id));
    });
    const { profiles } = profilesFor(fake);
    const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
    t.is(error?.status, 502);
  });
}

test('malformed decorative fields are dropped, not a reason to refuse the user', async (t) => {
  const id = newUserId();
  fake.script(id, (response) =>
    sendJson(response, 200, { id, username: 'quirky', global_name: 7, avatar: '../../evil', banner: 'a_zz', accent_color: 0x1000000, public_flags: -1, bot: 'yes' }),
  );
  const { profiles } = profilesFor(fake);
  t.deepEqual(await profiles.resolveProfile(id), { userId: id, username: 'quirky' });
  t.false(fake.cdnRequests().some((request) => request.path.includes('evil')));
});

test('an oversized answer is refused with 502 without buffering it all', async (t) => {
  const id = newUserId();
  fake.script(id, (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(`{"id":"${id}","username":"big","padding":"${'x'.repeat(1024 * 1024)}"}`);
  });
  const { profiles } = profilesFor(fake);
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 502);
});

test('a failure is not cached: the next resolve asks Discord again', async (t) => {
  const id = newUserId();
  fake.script(id, (response, call) => {
    if (call === 1) sendJson(response, 500, { message: 'oops' });
    else sendJson(response, 200, { id, username: 'recovered' });
  });
  const { profiles } = profilesFor(fake);
  await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  t.is((await profiles.resolveProfile(id)).username, 'recovered');
  t.is(fake.apiRequestsFor(id).length, 2);
});

test('options that cannot work are refused at creation, without echoing the token', (t) => {
  const error = t.throws(() => profilesFor(fake, { token: 'secret\nvalue' }), { instanceOf: RangeError });
  t.false(error?.message.includes('secret'));
  t.throws(() => profilesFor(fake, { requestTimeoutMs: 0 }), { instanceOf: RangeError });
  t.throws(() => profilesFor(fake, { profileTtlMs: -1 }), { instanceOf: RangeError });
});
