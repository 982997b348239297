import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../helpers/test-gateway.ts';
import { createKey, runKeysCli, statusWith, timeUntil } from './key-processes.ts';

/** Embedded mode: the CLI writes a keys file, an in-process gateway (real HTTP) reads it. */
let folder: string;
let env: Record<string, string>;
let gateway: TestGateway;

test.before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'keys-file-'));
  env = { KEYS_FILE: join(folder, 'nested', 'api-keys.json') };
  gateway = await startTestGateway({ env });
});

test.after.always(async () => {
  await gateway?.close();
  rmSync(folder, { recursive: true, force: true });
});

test.serial('a created key works at once, and the file holds only its hash, mode 0600', async (t) => {
  const created = await createKey(env, ['--rate', '1000/1m']);
  t.regex(created.key, /^uk_live_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
  t.is(created.prefix, `uk_live_${created.id}`);
  // No waiting: a well-formed key missing from the map makes the gateway look at the file again.
  t.is(await statusWith(gateway.url, created.key), 200);
  t.is(await statusWith(gateway.url, `Bearer ${created.key}`), 200);

  const text = readFileSync(env.KEYS_FILE!, 'utf8');
  t.false(text.includes(created.key), 'the key itself is never stored');
  t.true(text.includes(createHash('sha256').update(created.key).digest('hex')));
  t.is(statSync(env.KEYS_FILE!).mode & 0o777, 0o600);
  const stored = JSON.parse(text).keys;
  t.deepEqual(Object.keys(stored[0]).sort(), ['createdAt', 'hash', 'id', 'limits', 'name', 'prefix', 'revokedAt']);
  t.deepEqual(stored[0].limits, { default: { points: 1000, durationSeconds: 60 } });
});

test.serial('a per-key budget from --rate is the one the gateway applies', async (t) => {
  const created = await createKey(env, ['--rate', '777/1m', '--image-rate', '7/30s']);
  const response = await fetch(`${gateway.url}/v1/coin-flip`, { headers: { authorization: created.key } });
  t.is(response.status, 200);
  t.is(response.headers.get('ratelimit-limit'), '777');
  t.is(response.headers.get('ratelimit-policy'), '777;w=60');
  const image = await fetch(`${gateway.url}/v1/profile-image?userId=1`, { method: 'POST', headers: { authorization: created.key } });
  t.is(image.status, 400);
  t.is(image.headers.get('ratelimit-limit'), '7');
  t.is(image.headers.get('ratelimit-policy'), '7;w=30');
});

test.serial('revoking by prefix: the gateway refuses the key within a second; others keep working', async (t) => {
  const doomed = await createKey(env);
  const kept = await createKey(env);
  t.is(await statusWith(gateway.url, doomed.key), 200);
  const revoke = await runKeysCli(['revoke', doomed.prefix], env);
  t.is(revoke.code, 0, revoke.stderr);
  t.regex(revoke.stdout, new RegExp(`Revoked key ${doomed.id} \\(${doomed.prefix}\\)`));
  // Designed for ~250 ms (the file is polled four times a second); 2 s leaves room for a loaded machine.
  const took = await timeUntil(async () => (await statusWith(gateway.url, doomed.key)) === 401, 2000);
  t.log(`refused ${took.toFixed(0)} ms after the CLI exited`);
  t.is(await statusWith(gateway.url, kept.key), 200);
  t.is(await statusWith(gateway.url, TEST_API_KEY), 200, 'bootstrap keys are untouched');

  const again = await runKeysCli(['revoke', doomed.id], env);
  t.is(again.code, 0);
  t.regex(again.stdout, /already revoked/);
});

test.serial('list shows id, name, prefix, dates and limits, never keys or hashes', async (t) => {
  const created = await createKey(env, ['--image-rate', '5/10s']);
  const table = await runKeysCli(['list'], env);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^ID\s+PREFIX\s+NAME\s+CREATED\s+REVOKED\s+LIMITS/);
  t.regex(table.stdout, new RegExp(`${created.id}\\s+${created.prefix}\\s+test-bot\\s+\\S+Z\\s+-\\s+image-rate 5/10s`));
  const json = await runKeysCli(['list', '--json'], env);
  const listed = JSON.parse(json.stdout);
  t.true(listed.length >= 2);
  const text = readFileSync(env.KEYS_FILE!, 'utf8');
  for (const record of JSON.parse(text).keys) {
    t.false(json.stdout.includes(record.hash));
    t.false(table.stdout.includes(record.hash));
  }
  t.false(json.stdout.includes(created.key));
  t.deepEqual(Object.keys(listed[0]).sort(), ['createdAt', 'id', 'limits', 'name', 'prefix', 'revokedAt']);
});

test.serial('a key from one file is unknown to a gateway reading another', async (t) => {
  const otherEnv = { KEYS_FILE: join(folder, 'other.json') };
  const created = await createKey(otherEnv);
  t.is(await statusWith(gateway.url, created.key), 401);
});

test('usage errors exit 64 with a hint; help exits 0', async (t) => {
  const help = await runKeysCli(['--help'], env);
  t.is(help.code, 0);
  t.regex(help.stdout, /create --name <name>/);
  t.regex(help.stdout, /API_KEYS are bootstrap keys/);
  for (const args of [[], ['create'], ['create', '--name', 'bot', '--rate', '5'], ['create', '--name', 'bad\nname'], ['frobnicate'], ['revoke'], ['revoke', 'not-a-key'], ['create', '--name', 'x', '--bogus']]) {
    const run = await runKeysCli(args, env);
    t.is(run.code, 64, `${args.join(' ')}: ${run.stderr}`);
    t.regex(run.stderr, args.length === 0 ? /Manage API keys/ : /pnpm keys: /);
  }
});

test('revoking an id that does not exist exits 66', async (t) => {
  const run = await runKeysCli(['revoke', 'zzzzzzzz'], env);
  t.is(run.code, 66);
  t.regex(run.stderr, /no managed key zzzzzzzz/);
});

test('an unreadable keys file is reported, exit 65, and left alone', async (t) => {
  const broken = join(folder, 'broken.json');
  writeFileSync(broken, '{"format":"utility-api/api-keys@1","keys":[{"id":1}]}');
  for (const args of [['list'], ['create', '--name', 'bot'], ['revoke', 'abcd1234']]) {
    const run = await runKeysCli(args, { KEYS_FILE: broken });
    t.is(run.code, 65, args.join(' '));
    t.regex(run.stderr, /unreadable key data/);
  }
  t.is(readFileSync(broken, 'utf8'), '{"format":"utility-api/api-keys@1","keys":[{"id":1}]}');
});

test('an unreachable Redis exits 69 quickly; a bad REDIS_URL exits 78', async (t) => {
  const started = performance.now();
  const down = await runKeysCli(['list'], { REDIS_URL: 'redis://127.0.0.1:1' });
  t.is(down.code, 69);
  t.regex(down.stderr, /cannot reach Redis/);
  t.true(performance.now() - started < 15_000);
  const bad = await runKeysCli(['list'], { REDIS_URL: 'http://127.0.0.1:6379' });
  t.is(bad.code, 78);
  t.regex(bad.stderr, /REDIS_URL/);
});

test('concurrent creates in one file all survive (writers take a lock)', async (t) => {
  const shared = { KEYS_FILE: join(folder, 'concurrent.json') };
  const created = await Promise.all(Array.from({ length: 4 }, () => createKey(shared)));
  const listed = JSON.parse((await runKeysCli(['list', '--json'], shared)).stdout);
  t.deepEqual(listed.map((record: any) => record.id).sort(), created.map((key) => key.id).sort());
});
