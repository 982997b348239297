import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { Client, Guild, GuildMember, MessagePayload, type User } from 'discord.js';
import { createClient, decodeExtValue, UtilityApiError, type CardOptions } from '@utility-api/client';
import { cardAttachment, discordObjects } from '@utility-api/client/discord.js';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const TYPES = join(ROOT, 'tests/support/sdk/types');
const USER_ID = '302050872383242240';
/** A name outside ASCII, so the alt text travels percent-encoded in `X-Alt-Text`. */
const CARD: CardOptions = { customUsername: 'Zoë ✨', customTag: 'Welcome!', presenceStatus: 'online' };
/** The light endpoints' budget in the rate-limit tests: one request per window, a window the retries can wait out. */
const WINDOW_SECONDS = 2;

let gateway: TestGateway;
let limited: TestGateway;

test.before(async () => {
  // Cards are checked for what they carry, not for speed: type-checks run beside the renders.
  gateway = await startTestGateway({ render: true, env: { RENDER_TIMEOUT_MS: '120000' } });
  limited = await startTestGateway({ env: { RATE_LIMIT_DEFAULT: `1/${WINDOW_SECONDS}s` } });
});

test.after.always(async () => {
  await gateway?.close();
  await limited?.close();
  rmSync(join(TYPES, 'generated'), { recursive: true, force: true });
});

test.serial("the SDK's types are the served document's, and the discord.js welcome bot type-checks against them", async (t) => {
  const generated = join(TYPES, 'generated');
  rmSync(generated, { recursive: true, force: true });
  mkdirSync(generated, { recursive: true });
  // The SDK's own generated types, on a fresh clone where no build or typecheck has written them yet.
  await run(process.execPath, ['scripts/sdk-types.ts', '--if-missing'], { cwd: ROOT });
  const documentFile = join(generated, 'openapi.json');
  writeFileSync(documentFile, await (await gateway.request('/v1/openapi.json')).text());
  await run(join(ROOT, 'node_modules/.bin/openapi-typescript'), [documentFile, '--output', join(generated, 'schema.ts')], { cwd: ROOT });
  const typecheck = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(TYPES, 'tsconfig.json'), '--noEmit'], { cwd: ROOT }).then(
    () => '',
    (error: { stdout?: string; message?: string }) => error.stdout ?? error.message ?? 'tsc failed',
  );
  t.is(typecheck, '');
});

test('every light operation answers through the client', async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  t.is((await api.hexToRgb({ hex: '#FF5733' })).mainRgb, '255, 87, 51');
  t.deepEqual((await api.sortArray({ array: [5, 3, 9, 1] }, { sort: 'low' })).result, [1, 3, 5, 9]);
  t.is((await api.jsonValidator({ json: { name: 'Ada' } })).status, 'valid');
  // The validator's own 400 is its documented answer, not an error.
  const invalid = await api.jsonValidator({ json: '{"name":' });
  t.is(invalid.status, 'invalid');
  t.is(invalid.jsonType, 'N/A');
  t.is(Object.keys(await api.randomEmoji({ category: 'Food & Drink', count: 3 })).length, 3);
  t.is((await api.time({ unix: 1700000000, timezone: 'PST' })).unixTimestamp, 1700000000);
  t.is((await api.ageCalculator({ dob: '1990-05-17' })).dob.slice(0, 10), '1990-05-17');
  t.true(['Heads', 'Tails'].includes((await api.coinFlip({ heads: 70, tails: 30 })).result));
  t.is((await api.scramble({ word: 'javascript' })).original, 'javascript');
  t.true((await api.numberAnalyzer({ integer: 153 })).isArmstrong);
  const account = await api.getAccount();
  t.is(account.account.id, 'acct_owner', 'a bootstrap key belongs to the local owner');
  // The owner's plan has no monthly quotas: null limits, typed so.
  t.is(account.plan.name, 'owner');
  t.is(account.requests.limit, null);
  t.true(account.key.scopes.length > 0);
  t.is((await api.statusGet()).request_details.method, 'GET');
  t.truthy((await api.statusHead()).get('x-request-id'));
  t.deepEqual((await api.statusPost({ hello: 'world' })).request_details.body, { hello: 'world' });
  t.is((await api.statusPut({ replaced: true })).request_details.method, 'PUT');
  t.is((await api.statusPatch({ patched: 1 })).request_details.method, 'PATCH');
  t.is((await api.statusDelete()).request_details.method, 'DELETE');
  t.is((await api.statusOptions()).request_details.method, 'OPTIONS');
});

test('a card as JSON has its URL and alt text; as bytes, the image and the same alt text decoded from X-Alt-Text', async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const json = await api.createProfileImage(USER_ID, CARD);
  t.true(json.altText.includes('Zoë ✨'), json.altText);
  t.is((await fetch(json.url)).headers.get('content-type'), 'image/png');
  const webp = await api.createProfileImageForUser(USER_ID, { ...CARD, format: 'webp' });
  t.is((await fetch(webp.url)).headers.get('content-type'), 'image/webp');

  const image = await api.profileImageBytes(USER_ID, CARD);
  t.is(image.contentType, 'image/png');
  t.deepEqual([...image.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  t.is(image.altText, json.altText);
  t.regex(image.url, /\/media\//);
  t.is(image.frames, undefined);
});

test('RFC 8187 ext-values decode, whatever the case of the charset and with a language', (t) => {
  t.is(decodeExtValue("UTF-8''Zo%C3%AB%20%E2%9C%A8"), 'Zoë ✨');
  t.is(decodeExtValue("utf-8'en'a%20b"), 'a b');
});

test('a refused request is a UtilityApiError carrying the API error', async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const error = await t.throwsAsync(api.hexToRgb({ hex: 'not a colour' }), { instanceOf: UtilityApiError });
  t.is(error.status, 400);
  t.is(error.code, 'invalid_request');
  t.true(error.details.some((detail) => detail.in === 'query' && detail.field === 'hex'), JSON.stringify(error.details));
  t.truthy(error.requestId);
  t.is(error.attempts, 1, 'a 400 is not retried');
  const unauthorized = await t.throwsAsync(createClient({ baseUrl: gateway.url, apiKey: 'wrong-key-0123456789' }).statusGet(), { instanceOf: UtilityApiError });
  t.is(unauthorized.code, 'unauthorized');
});

/** fetch that records each answer's status, its Retry-After and when it came, and when each request left. */
function recordingFetch(before?: () => Promise<void>) {
  const log: { sentAt: number; status: number; retryAfter: string | null; answeredAt: number }[] = [];
  const recording: typeof fetch = async (input, init) => {
    await before?.();
    const sentAt = performance.now();
    const response = await fetch(input, init);
    log.push({ sentAt, status: response.status, retryAfter: response.headers.get('retry-after'), answeredAt: performance.now() });
    return response;
  };
  return { log, fetch: recording };
}

test.serial('a 429 is retried after its Retry-After and then succeeds', async (t) => {
  const { log, fetch: recording } = recordingFetch();
  const api = createClient({ baseUrl: limited.url, apiKey: TEST_API_KEY, fetch: recording });
  await api.coinFlip();
  const answer = await api.coinFlip();
  t.true(['Heads', 'Tails'].includes(answer.result));
  t.deepEqual(log.map((entry) => entry.status), [200, 429, 200]);
  const refused = log[1]!;
  const seconds = Number(refused.retryAfter);
  t.true(seconds >= 1 && seconds <= WINDOW_SECONDS, `Retry-After ${refused.retryAfter}`);
  // The retry left no sooner than Retry-After said (a timer may fire within its millisecond early).
  t.true(log[2]!.sentAt - refused.answeredAt >= seconds * 1000 - 1, `waited ${log[2]!.sentAt - refused.answeredAt} ms`);
});

test.serial('retrying gives up after its tries, and at once when Retry-After is beyond the total wait', async (t) => {
  // Another client with our key takes the slot the window frees before each of our tries, so every
  // try is refused (the memory limiter's window starts at the first request after the last one ended).
  const spendSlot = () => limited.request('/v1/coin-flip').then((response) => void response.body?.cancel());
  const competing = recordingFetch(spendSlot);
  const api = createClient({ baseUrl: limited.url, apiKey: TEST_API_KEY, fetch: competing.fetch, retry: { attempts: 2, maxTotalWaitMs: 60_000 } });
  const error = await t.throwsAsync(api.coinFlip(), { instanceOf: UtilityApiError });
  t.is(error.status, 429);
  t.is(error.code, 'rate_limited');
  t.is(error.attempts, 2);
  t.deepEqual(competing.log.map((entry) => entry.status), [429, 429]);
  t.true(error.retryAfter! >= 1 && error.retryAfter! <= WINDOW_SECONDS);

  // A wait longer than the client allows in all is not slept: the 429 comes back at once.
  const { log, fetch: recording } = recordingFetch(spendSlot);
  const impatient = createClient({ baseUrl: limited.url, apiKey: TEST_API_KEY, fetch: recording, retry: { attempts: 5, maxTotalWaitMs: 500 } });
  const given = await t.throwsAsync(impatient.coinFlip(), { instanceOf: UtilityApiError });
  t.is(given.code, 'rate_limited');
  t.is(given.attempts, 1);
  t.deepEqual(log.map((entry) => entry.status), [429]);
});

test('the discord.js helper: an attachment with the card and its alt text as description, the nickname drawn', async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const client = new Client({ intents: [] });
  t.teardown(() => client.destroy());
  // discord.js builds these from gateway events; a bot never constructs them, so their constructors are private.
  const guild = Reflect.construct(Guild, [client, { id: '613425648685547541', name: 'Guild', roles: [], emojis: [], members: [], channels: [] }]) as Guild;
  const user = { id: USER_ID, username: 'ada', discriminator: '0', global_name: 'Ada' };
  const member = Reflect.construct(GuildMember, [client, { user, nick: 'Zoë ✨', roles: [], joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0 }, guild]) as GuildMember;

  const attachment = await cardAttachment(api, member, { layout: 'welcome', headline: 'Welcome!' });
  // The member's own objects, as the helper sends them (this guild has no roles cached, not even @everyone: no role colours).
  const expected = await api.createProfileImage(USER_ID, { layout: 'welcome', headline: 'Welcome!', ...discordObjects(member) });
  t.is(discordObjects(member).discordRoleColors, undefined);
  const payload = await MessagePayload.create(member, { files: [attachment] }).resolveBody().resolveFiles();
  const body = payload.body as { attachments: { id: string; description?: string }[] };
  t.is(body.attachments[0]!.description, expected.altText);
  t.true(expected.altText.includes('Zoë ✨'), 'the member was drawn with the server nickname');
  const file = payload.files![0]!;
  t.is(file.name, 'card.png');
  t.deepEqual([...(file.data as Buffer).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

  const plainUser = member.user satisfies User;
  const forUser = await cardAttachment(api, plainUser, { format: 'webp' });
  t.is(forUser.name, 'card.webp');
  t.truthy(forUser.description);
});

test("the SDK README's welcome bot is examples/discord-js-welcome.ts as tested, at most 15 lines", (t) => {
  const bot = readFileSync(join(ROOT, 'examples/discord-js-welcome.ts'), 'utf8');
  const readme = readFileSync(join(ROOT, 'packages/sdk/README.md'), 'utf8');
  t.true(readme.includes(`## A discord.js welcome bot`) && readme.includes(`\`\`\`ts\n${bot}\`\`\``));
  t.true(bot.trimEnd().split('\n').length <= 15);
});

test("the SDK README's usage snippet runs as written against a gateway", async (t) => {
  const readme = readFileSync(join(ROOT, 'packages/sdk/README.md'), 'utf8');
  const snippet = /```ts\n(import \{ createClient, UtilityApiError \}[\s\S]*?)```/.exec(readme)?.[1];
  t.truthy(snippet, 'the README has the snippet');
  // Evaluated from the repository root, so `@utility-api/client` resolves as it does for a workspace member.
  const { stdout } = await run(process.execPath, ['--input-type=module-typescript', '--eval', snippet!], {
    cwd: ROOT,
    env: { ...process.env, UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY },
  });
  const [json, image, error] = stdout.trimEnd().split('\n');
  t.regex(json!, /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png Welcome card for /);
  t.regex(image!, /^image\/webp \d+ Profile card for /);
  t.regex(error!, /^400 invalid_request \[/);
});

test("the SDK README's templates, leaderboard and batch snippet runs as written against a gateway", async (t) => {
  const readme = readFileSync(join(ROOT, 'packages/sdk/README.md'), 'utf8');
  const snippet = /## Templates, leaderboards and batches[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  t.truthy(snippet, 'the README has the snippet');
  const { stdout } = await run(process.execPath, ['--input-type=module-typescript', '--eval', snippet!], {
    cwd: ROOT,
    env: { ...process.env, UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY },
  });
  const [card, board, batch] = stdout.trimEnd().split('\n');
  t.regex(card!, /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png$/);
  t.regex(board!, /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png$/);
  t.is(batch, 'ok invalid_request');
  // The snippet deleted what it saved: the account's template list is as it was.
  const listed = await fetch(`${gateway.url}/v1/templates`, { headers: { authorization: TEST_API_KEY } });
  const { templates } = (await listed.json()) as { templates: { name: string }[] };
  t.false(templates.some((template) => template.name === 'Welcome, blurple' || template.name === 'Top chatters'));
});

test('the core client loads without discord.js: only @utility-api/client/discord.js needs it', async (t) => {
  // A resolve hook that fails any import of discord.js, then the core entry point imported and used.
  const script = `
    import { registerHooks } from 'node:module';
    registerHooks({ resolve(specifier, context, next) {
      if (specifier === 'discord.js') throw new Error('discord.js was imported');
      return next(specifier, context);
    } });
    const { createClient } = await import('@utility-api/client');
    console.log(typeof createClient({ baseUrl: 'http://api.invalid', apiKey: 'key' }).statusGet);
    await import('@utility-api/client/discord.js').catch((error) => console.log(error.message));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], { cwd: ROOT });
  t.is(stdout, 'function\ndiscord.js was imported\n');
});
