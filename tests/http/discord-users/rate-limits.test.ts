import { DiscordUnavailableError } from '@utility-api/discord-users';
import test from 'ava';
import { sendJson, startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addPlainUser, addUser, newUserId, profilesFor } from '../../support/discord-users/fixtures.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

function rateLimited(response: Parameters<Parameters<FakeDiscord['script']>[1]>[0], retryAfterSeconds: number, options: { global?: boolean } = {}) {
  sendJson(
    response,
    429,
    { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: options.global ?? false },
    { 'retry-after': String(Math.ceil(retryAfterSeconds)), 'x-ratelimit-scope': options.global ? 'global' : 'user' },
  );
}

/** Answers with a 429 on the first call and with the user afterwards. */
function limitedOnce(id: string, retryAfterSeconds: number, options: { global?: boolean } = {}) {
  fake.script(id, (response, call) => {
    if (call === 1) rateLimited(response, retryAfterSeconds, options);
    else sendJson(response, 200, { id, username: `after${call}` });
  });
}

test('a short 429 is waited out and retried once', async (t) => {
  const id = newUserId();
  limitedOnce(id, 0.15);
  const { profiles } = profilesFor(fake, { maxRetryWaitMs: 1000 });
  const profile = await profiles.resolveProfile(id);
  t.is(profile.username, 'after2');
  const requests = fake.apiRequestsFor(id);
  t.is(requests.length, 2);
  // retry_after is 150 ms; a little slack for timer and clock granularity.
  t.true((requests[1]?.at ?? 0) - (requests[0]?.at ?? 0) >= 140);
});

test('a 429 longer than maxRetryWaitMs fails at once with 503 and Retry-After', async (t) => {
  const id = newUserId();
  limitedOnce(id, 12.5);
  const maxRetryWaitMs = 1000;
  // Every wait goes through the injected sleep: counted here, none taken.
  const slept: number[] = [];
  const { profiles } = profilesFor(fake, { maxRetryWaitMs, sleep: async (ms) => void slept.push(ms) });
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 503);
  t.is(error?.retryAfterSeconds, 13);
  t.is(fake.apiRequestsFor(id).length, 1);
  // At once: no wait of the 12.5 s the 429 asked for, nor of maxRetryWaitMs as if it were cut there.
  t.deepEqual(slept, []);
});

test('a route pause after a long 429 makes the next call fail fast without asking Discord', async (t) => {
  const limited = newUserId();
  limitedOnce(limited, 30);
  const other = addPlainUser(fake);
  const { profiles } = profilesFor(fake, { maxRetryWaitMs: 1000 });
  await t.throwsAsync(profiles.resolveProfile(limited), { instanceOf: DiscordUnavailableError });
  const error = await t.throwsAsync(profiles.resolveProfile(other), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 503);
  t.true((error?.retryAfterSeconds ?? 0) >= 29);
  t.is(fake.apiRequestsFor(other).length, 0);
});

test('a second 429 after the retry gives up with 503', async (t) => {
  const id = newUserId();
  fake.script(id, (response) => rateLimited(response, 0.05));
  const { profiles } = profilesFor(fake, { maxRetryWaitMs: 1000 });
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 503);
  t.is(error?.retryAfterSeconds, 1);
  t.is(fake.apiRequestsFor(id).length, 2);
});

test('without a JSON body the Retry-After header says how long to wait', async (t) => {
  const id = newUserId();
  fake.script(id, (response, call) => {
    if (call === 1) {
      response.writeHead(429, { 'content-type': 'text/html', 'retry-after': '7' });
      response.end('<html>rate limited</html>');
    } else sendJson(response, 200, { id, username: 'late' });
  });
  const { profiles } = profilesFor(fake, { maxRetryWaitMs: 1000 });
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: DiscordUnavailableError });
  t.is(error?.retryAfterSeconds, 7);
  t.is(fake.apiRequestsFor(id).length, 1);
});

test('a global 429 pauses a concurrent call for another user until it passes', async (t) => {
  const first = newUserId();
  limitedOnce(first, 0.4, { global: true });
  const second = newUserId();
  addUser(fake, { id: second, username: 'second' });
  const { profiles, logs } = profilesFor(fake, { maxRetryWaitMs: 2000 });

  const firstResolve = profiles.resolveProfile(first);
  // Start the second resolve only once the client has read the global 429 (it logs it).
  while (!logs.lines.some((line) => line.msg === 'Discord rate limited us' && line.global === true)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const secondResolve = profiles.resolveProfile(second);
  const [firstProfile, secondProfile] = await Promise.all([firstResolve, secondResolve]);

  t.is(firstProfile.username, 'after2');
  t.is(secondProfile.username, 'second');
  const limitedAt = fake.apiRequestsFor(first)[0]?.at ?? 0;
  const secondAt = fake.apiRequestsFor(second)[0]?.at ?? 0;
  t.is(fake.apiRequestsFor(second).length, 1);
  // The global pause is 400 ms from the 429; without it the second call would go out at once.
  t.true(secondAt - limitedAt >= 350, `second call went out ${Math.round(secondAt - limitedAt)} ms after the 429`);
});

test('a success that empties the bucket delays the next call until the bucket resets', async (t) => {
  const first = newUserId();
  fake.script(first, (response) =>
    sendJson(response, 200, { id: first, username: 'emptied' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '0.3', 'x-ratelimit-limit': '5' }),
  );
  const second = addPlainUser(fake);
  const { profiles } = profilesFor(fake, { maxRetryWaitMs: 1000 });
  await profiles.resolveProfile(first);
  await profiles.resolveProfile(second);
  const gap = (fake.apiRequestsFor(second)[0]?.at ?? 0) - (fake.apiRequestsFor(first)[0]?.at ?? 0);
  t.true(gap >= 250, `next call after ${Math.round(gap)} ms`);
});

test('an emptied bucket that resets later than maxRetryWaitMs fails the next call fast with 503', async (t) => {
  const first = newUserId();
  fake.script(first, (response) => sendJson(response, 200, { id: first, username: 'emptied' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '20' }));
  const second = addPlainUser(fake);
  const { profiles } = profilesFor(fake, { maxRetryWaitMs: 1000 });
  await profiles.resolveProfile(first);
  const error = await t.throwsAsync(profiles.resolveProfile(second), { instanceOf: DiscordUnavailableError });
  t.is(error?.status, 503);
  t.is(error?.retryAfterSeconds, 20);
  t.is(fake.apiRequestsFor(second).length, 0);
});

test('waits go through the injected sleep', async (t) => {
  const id = newUserId();
  limitedOnce(id, 0.25);
  const slept: number[] = [];
  const { profiles } = profilesFor(fake, {
    maxRetryWaitMs: 1000,
    sleep: async (ms) => {
      slept.push(ms);
      // sleep-ok: the injected sleep under test, waiting as the default one does.
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
  });
  await profiles.resolveProfile(id);
  t.true(slept.length >= 1);
  t.true((slept[0] ?? 0) > 150 && (slept[0] ?? 0) <= 250);
});
