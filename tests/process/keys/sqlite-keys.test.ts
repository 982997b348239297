import test from 'ava';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { redeemSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { generateKeyId, generateManagedKey, hashApiKey, managedKeyPrefix } from '../../../services/gateway/src/auth/api-keys.ts';
import { REDIS_CONNECT_TIMEOUT_MS } from '../../../services/gateway/src/accounts/keys-cli.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { createKey, runKeysCli, statusWith, timeUntil } from '../../support/keys/key-processes.ts';

/** Embedded mode: the CLI writes the SQLite database, an in-process gateway (real HTTP) on the same database reads it. */
let folder: string;
let env: Record<string, string>;
let gateway: TestGateway;

test.before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'keys-sqlite-'));
  // No keys file to import here (the import has tests of its own below).
  env = { DATABASE_PATH: join(folder, 'nested', 'utility-api.sqlite'), KEYS_FILE: join(folder, 'no-keys-file.json') };
  gateway = await startTestGateway({ render: true, env });
});

test.after.always(async () => {
  await gateway?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Every stored key record, read straight from the database file. */
function storedKeys(path: string): { text: string; records: Record<string, unknown>[] } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare('SELECT record FROM api_keys').all() as { record: string }[];
    return { text: rows.map((row) => row.record).join('\n'), records: rows.map((row) => JSON.parse(row.record) as Record<string, unknown>) };
  } finally {
    db.close();
  }
}

async function auditTypes(path: string, accountId: string): Promise<{ type: string; actor: string; detail: Record<string, string> }[]> {
  const store = openSqliteAccountStore({ path });
  try {
    return await store.auditLog(accountId, 100);
  } finally {
    await store.close();
  }
}

test.serial('a created key works at once on the running gateway; the database holds only its hash, mode 0600', async (t) => {
  const created = await createKey(env, ['--rate', '1000/1m']);
  t.regex(created.key, /^uk_live_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
  t.is(created.prefix, `uk_live_${created.id}`);
  // No waiting: a well-formed key missing from the map makes the gateway look at the database again.
  t.is(await statusWith(gateway.url, created.key), 200);
  t.is(await statusWith(gateway.url, `Bearer ${created.key}`), 200);

  const { text, records } = storedKeys(env.DATABASE_PATH!);
  t.false(text.includes(created.key), 'the key itself is never stored');
  t.true(text.includes(createHash('sha256').update(created.key).digest('hex')));
  t.is(statSync(env.DATABASE_PATH!).mode & 0o777, 0o600);
  const stored = records.find((record) => record.id === created.id)!;
  t.deepEqual(Object.keys(stored).sort(), ['accountId', 'createdAt', 'hash', 'id', 'limits', 'name', 'prefix', 'revokedAt']);
  t.is(stored.accountId, OWNER_ACCOUNT_ID, 'the local owner’s unless --account says otherwise');
  t.deepEqual(stored.limits, { default: { points: 1000, durationSeconds: 60 } });
  const audit = await auditTypes(env.DATABASE_PATH!, OWNER_ACCOUNT_ID);
  t.like(audit.find((event) => event.detail.key === created.prefix), { type: 'key_created', actor: 'cli', detail: { name: 'test-bot', scopes: 'cards,utility' } });
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
  // Designed for ~250 ms (the database's version is polled four times a second); 2 s leaves room for a loaded machine.
  const took = await timeUntil(async () => (await statusWith(gateway.url, doomed.key)) === 401, 2000);
  t.log(`refused ${took.toFixed(0)} ms after the CLI exited`);
  t.is(await statusWith(gateway.url, kept.key), 200);
  t.is(await statusWith(gateway.url, TEST_API_KEY), 200, 'bootstrap keys are untouched');

  const again = await runKeysCli(['revoke', doomed.id], env);
  t.is(again.code, 0);
  t.regex(again.stdout, /already revoked/);
  const revokedEvents = (await auditTypes(env.DATABASE_PATH!, OWNER_ACCOUNT_ID)).filter((event) => event.type === 'key_revoked' && event.detail.key === doomed.prefix);
  t.is(revokedEvents.length, 1, 'one event for one revocation');
  t.is(revokedEvents[0]!.actor, 'cli');
});

test.serial('list shows id, name, prefix, account, scopes, dates and limits, never keys or hashes', async (t) => {
  const created = await createKey(env, ['--image-rate', '5/10s', '--scopes', 'utility']);
  const table = await runKeysCli(['list'], env);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^ID\s+PREFIX\s+NAME\s+ACCOUNT\s+SCOPES\s+CREATED\s+REVOKED\s+LIMITS/);
  t.regex(table.stdout, new RegExp(`${created.id}\\s+${created.prefix}\\s+test-bot\\s+acct_owner\\s+utility\\s+\\S+Z\\s+-\\s+image-rate 5/10s`));
  const json = await runKeysCli(['list', '--json'], env);
  const listed = JSON.parse(json.stdout);
  t.true(listed.length >= 2);
  for (const record of storedKeys(env.DATABASE_PATH!).records) {
    t.false(json.stdout.includes(record.hash as string));
    t.false(table.stdout.includes(record.hash as string));
  }
  t.false(json.stdout.includes(created.key));
  t.deepEqual(Object.keys(listed[0]).sort(), ['accountId', 'createdAt', 'id', 'limits', 'name', 'prefix', 'revokedAt', 'scopes']);
  t.like(listed.find((record: any) => record.id === created.id), { accountId: OWNER_ACCOUNT_ID, scopes: ['utility'] });
  t.deepEqual(listed[0].scopes, ['cards', 'utility'], 'no scopes given: every scope');
});

test.serial('a key from one database is unknown to a gateway reading another', async (t) => {
  const otherEnv = { DATABASE_PATH: join(folder, 'other.sqlite'), KEYS_FILE: env.KEYS_FILE! };
  const created = await createKey(otherEnv);
  t.is(await statusWith(gateway.url, created.key), 401);
});

test.serial('accounts: create on a plan, list, move to another plan; keys for them with scopes; each step audited', async (t) => {
  const plansEnv = { ...env, PLANS: 'starter:cards=10,requests=100;pro:cards=1000,requests=100000', DEFAULT_PLAN: 'starter' };
  const made = await runKeysCli(['accounts', 'create', '--name', 'Acme bots', '--json'], plansEnv);
  t.is(made.code, 0, made.stderr);
  const account = JSON.parse(made.stdout);
  t.regex(account.id, /^acct_[a-z0-9]{16}$/);
  t.like(account, { name: 'Acme bots', plan: 'starter', discordUserId: null });
  const pro = await runKeysCli(['accounts', 'create', '--name', 'Big bots', '--plan', 'pro'], plansEnv);
  t.is(pro.code, 0, pro.stderr);
  t.regex(pro.stdout, /^Created account acct_[a-z0-9]{16} "Big bots" on plan pro in /);

  const table = await runKeysCli(['accounts', 'list'], plansEnv);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^ID\s+NAME\s+PLAN\s+DISCORD\s+CREATED/);
  t.regex(table.stdout, new RegExp(`${account.id}\\s+Acme bots\\s+starter\\s+-\\s+\\S+Z`));
  t.regex(table.stdout, /acct_owner\s+Local owner/, 'the gateway made the owner at start');
  const listed = JSON.parse((await runKeysCli(['accounts', 'list', '--json'], plansEnv)).stdout);
  t.deepEqual(listed.find((entry: any) => entry.id === account.id), account);

  const moved = await runKeysCli(['accounts', 'plan', account.id, 'pro'], plansEnv);
  t.is(moved.code, 0, moved.stderr);
  t.regex(moved.stdout, /moved from plan starter to pro/);
  t.like(JSON.parse((await runKeysCli(['accounts', 'list', '--json'], plansEnv)).stdout).find((entry: any) => entry.id === account.id), { plan: 'pro' });

  const key = await createKey(plansEnv, ['--account', account.id, '--scopes', 'utility,cards']);
  const keys = JSON.parse((await runKeysCli(['list', '--json'], plansEnv)).stdout);
  t.like(keys.find((record: any) => record.id === key.id), { accountId: account.id, scopes: ['cards', 'utility'] });
  t.is(await statusWith(gateway.url, key.key), 200, "another account's key works on the running gateway at once");
  await runKeysCli(['revoke', key.id], plansEnv);

  const audit = await auditTypes(env.DATABASE_PATH!, account.id);
  t.deepEqual(audit.map((event) => [event.type, event.actor]), [['key_revoked', 'cli'], ['key_created', 'cli'], ['plan_changed', 'cli'], ['account_created', 'cli']]);
  t.deepEqual(audit[2]!.detail, { from: 'starter', to: 'pro' });
  t.deepEqual(audit[3]!.detail, { name: 'Acme bots', plan: 'starter' });
});

test.serial('sign-in-link: a one-time link at PUBLIC_BASE_URL (or 127.0.0.1:PORT) that redeems once, audited', async (t) => {
  const run = await runKeysCli(['sign-in-link'], { ...env, PUBLIC_BASE_URL: 'https://cards.example.com/' });
  t.is(run.code, 0, run.stderr);
  const url = /https:\/\/cards\.example\.com\/account\/sign-in#token=([A-Za-z0-9_-]{43})\n/.exec(run.stdout);
  t.truthy(url, run.stdout);
  t.regex(run.stdout, /account acct_owner \("Local owner"\), valid once until \S+Z/);
  const local = await runKeysCli(['sign-in-link', '--account', OWNER_ACCOUNT_ID], { ...env, PORT: '4321' });
  t.regex(local.stdout, / {2}http:\/\/127\.0\.0\.1:4321\/account\/sign-in#token=[A-Za-z0-9_-]{43}\n/);
  const fallback = await runKeysCli(['sign-in-link'], env);
  t.regex(fallback.stdout, / {2}http:\/\/127\.0\.0\.1:3000\/account\/sign-in#token=/);

  const store = openSqliteAccountStore({ path: env.DATABASE_PATH! });
  try {
    t.is(await redeemSignInLink(store, url![1]!, new Date()), OWNER_ACCOUNT_ID);
    t.is(await redeemSignInLink(store, url![1]!, new Date()), undefined, 'a second use');
    const events = (await store.auditLog(OWNER_ACCOUNT_ID, 100)).filter((event) => event.type === 'sign_in_link_created');
    t.is(events.length, 3);
    t.is(events[0]!.actor, 'cli');
    t.false(JSON.stringify(events).includes(url![1]!), 'the token is not in the audit');
  } finally {
    await store.close();
  }
  const zeroPort = await runKeysCli(['sign-in-link'], { ...env, PORT: '0' });
  t.is(zeroPort.code, 78);
  t.regex(zeroPort.stderr, /PORT: .*set PUBLIC_BASE_URL/);
});

test('usage errors exit 64 with a hint; help exits 0', async (t) => {
  const help = await runKeysCli(['--help'], env);
  t.is(help.code, 0);
  t.regex(help.stdout, /create --name <name> \[--account <id>\] \[--scopes cards,utility\]/);
  t.regex(help.stdout, /accounts plan <id> <plan>/);
  t.regex(help.stdout, /sign-in-link \[--account <id>\]/);
  t.regex(help.stdout, /API_KEYS are bootstrap keys/);
  for (const args of [
    [],
    ['create'],
    ['create', '--name', 'bot', '--rate', '5'],
    ['create', '--name', 'bad\nname'],
    ['frobnicate'],
    ['revoke'],
    ['revoke', 'not-a-key'],
    ['create', '--name', 'x', '--bogus'],
    ['create', '--name', 'x', '--scopes', 'cards,admin'],
    ['create', '--name', 'x', '--scopes', ''],
    ['create', '--name', 'x', '--account', 'Robert"); DROP TABLE accounts;--'],
    ['accounts'],
    ['accounts', 'frobnicate'],
    ['accounts', 'create'],
    ['accounts', 'create', '--name', 'x\u0007y'],
    ['accounts', 'create', '--name', 'x', '--plan', 'gold'],
    ['accounts', 'plan', OWNER_ACCOUNT_ID],
    ['accounts', 'plan', OWNER_ACCOUNT_ID, 'gold'],
    ['accounts', 'plan', 'owner', 'free'],
    ['sign-in-link', 'now'],
    ['sign-in-link', '--account', '../etc'],
  ]) {
    const run = await runKeysCli(args, env);
    t.is(run.code, 64, `${args.join(' ')}: ${run.stderr}`);
    t.regex(run.stderr, args.length === 0 ? /Manage API keys/ : /keys: /);
  }
  const plan = await runKeysCli(['accounts', 'plan', OWNER_ACCOUNT_ID, 'gold'], env);
  t.regex(plan.stderr, /no plan "gold" in PLANS \(plans: free, owner\)/);
});

test('no such key or account exits 66', async (t) => {
  const run = await runKeysCli(['revoke', 'zzzzzzzz'], env);
  t.is(run.code, 66);
  t.regex(run.stderr, /no managed key zzzzzzzz/);
  for (const args of [['create', '--name', 'x', '--account', 'acct_missing'], ['accounts', 'plan', 'acct_missing', 'free'], ['sign-in-link', '--account', 'acct_missing']]) {
    const missing = await runKeysCli(args, env);
    t.is(missing.code, 66, args.join(' '));
    t.regex(missing.stderr, /no account acct_missing/);
  }
  t.false(JSON.parse((await runKeysCli(['accounts', 'list', '--json'], env)).stdout).some((account: any) => account.id === 'acct_missing'));
});

test('an unreadable keys file to import is reported, exit 65, and left alone', async (t) => {
  const broken = join(folder, 'broken.json');
  const text = '{"format":"utility-api/api-keys@1","keys":[{"id":1}]}';
  writeFileSync(broken, text);
  for (const args of [['list'], ['create', '--name', 'bot'], ['revoke', 'abcd1234'], ['accounts', 'list']]) {
    const run = await runKeysCli(args, { DATABASE_PATH: join(folder, 'broken.sqlite'), KEYS_FILE: broken });
    t.is(run.code, 65, args.join(' '));
    t.regex(run.stderr, /unreadable key data in .*broken\.json/);
  }
  t.is(readFileSync(broken, 'utf8'), text);
});

test('an unreachable Redis exits 69 quickly; a bad REDIS_URL or PLANS exits 78', async (t) => {
  const started = performance.now();
  const down = await runKeysCli(['list'], { REDIS_URL: 'redis://127.0.0.1:1' });
  t.is(down.code, 69);
  t.regex(down.stderr, /cannot reach Redis/);
  // The CLI's own connect timeout, with room for the process start on a loaded machine: no retry loop.
  t.true(performance.now() - started < 3 * REDIS_CONNECT_TIMEOUT_MS);
  const bad = await runKeysCli(['list'], { REDIS_URL: 'http://127.0.0.1:6379' });
  t.is(bad.code, 78);
  t.regex(bad.stderr, /REDIS_URL/);
  const plans = await runKeysCli(['accounts', 'create', '--name', 'x'], { ...env, PLANS: 'free:cards=lots' });
  t.is(plans.code, 78);
  t.regex(plans.stderr, /PLANS: plan "free" must give cards and requests/);
});

test('concurrent creates in one database all survive (writers take the lock in turn)', async (t) => {
  const shared = { DATABASE_PATH: join(folder, 'concurrent.sqlite'), KEYS_FILE: env.KEYS_FILE! };
  const created = await Promise.all(Array.from({ length: 4 }, () => createKey(shared)));
  const listed = JSON.parse((await runKeysCli(['list', '--json'], shared)).stdout);
  t.deepEqual(listed.map((record: any) => record.id).sort(), created.map((key) => key.id).sort());
});

/** A keys file as earlier versions wrote it, holding one key; returns the key and the file's environment. */
function oldKeysFile(name: string) {
  const base = join(folder, name);
  mkdirSync(base);
  const id = generateKeyId();
  const key = generateManagedKey(id);
  const record = { id, name: 'old-bot', prefix: managedKeyPrefix(id), hash: hashApiKey(key).toString('hex'), createdAt: '2025-06-01T00:00:00.000Z', revokedAt: null };
  const keysFile = join(base, 'api-keys.json');
  const text = `${JSON.stringify({ format: 'utility-api/api-keys@1', keys: [record] }, null, 2)}\n`;
  writeFileSync(keysFile, text, { mode: 0o600 });
  return { id, key, text, keysFile, env: { DATABASE_PATH: join(base, 'utility-api.sqlite'), KEYS_FILE: keysFile } };
}

test.serial('an old keys file is imported once by the gateway: its key works; revoked afterwards, it stays revoked across restarts', async (t) => {
  const old = oldKeysFile('import-by-gateway');
  const first = await startTestGateway({ render: true, env: old.env });
  try {
    t.is(await statusWith(first.url, old.key), 200);
    t.is((await runKeysCli(['revoke', old.id], old.env)).code, 0);
    await timeUntil(async () => (await statusWith(first.url, old.key)) === 401, 2000);
  } finally {
    await first.close();
  }
  const second = await startTestGateway({ render: true, env: old.env });
  try {
    t.is(await statusWith(second.url, old.key), 401, 'the file, still there, is not imported again');
  } finally {
    await second.close();
  }
  const listed = JSON.parse((await runKeysCli(['list', '--json'], old.env)).stdout);
  t.is(listed.length, 1);
  t.like(listed[0], { id: old.id, name: 'old-bot', accountId: OWNER_ACCOUNT_ID });
  t.not(listed[0].revokedAt, null);
  t.is(readFileSync(old.keysFile, 'utf8'), old.text, 'the old file is left as it was');
});

test.serial('an old keys file is imported once by the CLI when it opens the database first; the gateway then sees the same keys', async (t) => {
  const old = oldKeysFile('import-by-cli');
  const listed = JSON.parse((await runKeysCli(['list', '--json'], old.env)).stdout);
  t.deepEqual(listed.map((record: any) => record.id), [old.id]);
  t.is((await runKeysCli(['revoke', old.id], old.env)).code, 0);
  t.is(JSON.parse((await runKeysCli(['list', '--json'], old.env)).stdout).length, 1, 'listing again imports nothing again');
  const started = await startTestGateway({ render: true, env: old.env });
  try {
    t.is(await statusWith(started.url, old.key), 401);
  } finally {
    await started.close();
  }
  t.true(existsSync(old.keysFile));
});

test.serial('names other people chose reach the terminal escaped: no clear screen, window title, C1 or bidi control runs', async (t) => {
  // Written straight into the store, as an older gateway (or another writer) could have left it.
  const store = openSqliteAccountStore({ path: env.DATABASE_PATH! });
  const hostile = '\u001b[2J\u001b]0;pwned\u0007Eve\u009b31m\u202etxt.exe\n\ud800';
  try {
    await store.createAccount({ id: 'acct_hostile', name: hostile, discordUserId: '666666666666666666', plan: 'free', createdAt: new Date().toISOString() });
  } finally {
    await store.close();
  }
  const table = await runKeysCli(['accounts', 'list'], env);
  t.is(table.code, 0, table.stderr);
  const row = table.stdout.split('\n').find((line) => line.startsWith('acct_hostile'));
  t.truthy(row, 'one line: the line break in the name is escaped too');
  t.true(row!.includes(String.raw`\u001B[2J\u001B]0;pwned\u0007Eve\u009B31m\u202Etxt.exe\u000A\uD800`), row);
  // Nothing a terminal acts on is left anywhere in the output.
  t.false(/[\p{Cc}--[\n]]|\p{Bidi_Control}|\p{Surrogate}/v.test(table.stdout));
  // --json stays JSON, and reads back as the stored name.
  const json = await runKeysCli(['accounts', 'list', '--json'], env);
  t.false(/[\p{Cc}--[\n]]|\p{Bidi_Control}/v.test(json.stdout));
  t.is(JSON.parse(json.stdout).find((account: { id: string }) => account.id === 'acct_hostile').name, hostile);
  const link = await runKeysCli(['sign-in-link', '--account', 'acct_hostile'], { ...env, PUBLIC_BASE_URL: 'http://127.0.0.1:47001' });
  t.is(link.code, 0, link.stderr);
  t.true(link.stdout.includes(String.raw`("\u001B[2J`), link.stdout);
  t.false(/[\p{Cc}--[\n]]|\p{Bidi_Control}|\p{Surrogate}/v.test(link.stdout + link.stderr), link.stdout);
});
