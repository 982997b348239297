import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import test from 'ava';
import { startRedisServer } from '../../../scripts/local-stack/redis-server.ts';
import { STORE_WATCH_INTERVAL_MS } from '../../../services/gateway/src/accounts/store-file-watch.ts';
import { AccountClient, linkToken, openTestStore, ownerLinkToken } from '../../support/account/account-client.ts';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { eventually } from '../../helpers/processes.ts';
import { postJson, startTestGateway, TEST_API_KEY } from '../../helpers/test-gateway.ts';

/**
 * The account store going away under a running gateway. Embedded: the SQLite file (and its -wal
 * and -shm) deleted, as an operator cleaning `.data` would, must fail readiness and refuse writes
 * with `503 store_unavailable` (SQLite would otherwise write on into the deleted file and lose it
 * all at the next start). Distributed: Redis down must make the account area answer the API's
 * 503 with Retry-After, never a 500.
 */

/** The watch logs within one interval; five leave room for a loaded machine. */
const WATCH_BOUND_MS = 5 * STORE_WATCH_INTERVAL_MS;

test('embedded: the database file, -wal and -shm deleted: /readyz fails, writes answer 503 store_unavailable, the log says why', async (t) => {
  const lines: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  const gateway = await startTestGateway({ env: { LOG_LEVEL: 'info' }, logDestination });
  t.teardown(() => gateway.close());
  const databasePath = join(gateway.mediaDir, 'accounts.sqlite');
  const ready = await gateway.json('/readyz');
  t.is(ready.status, 200);
  t.is(ready.body.checks.database, 'ok');

  const store = openTestStore(databasePath);
  const owner = new AccountClient(gateway.url);
  try {
    t.is((await owner.signInWithToken(await ownerLinkToken(store, gateway.url))).status, 200);
  } finally {
    await store.close();
  }
  t.is((await owner.post('/account/api/keys', { name: 'before' })).status, 201);
  t.is((await gateway.json('/v1/templates', postJson({ name: 'before', fields: { customTag: 'x' } }))).status, 201);

  for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`);
  const deletedAt = performance.now();

  const failed = await eventually(async () => {
    const answer = await gateway.json('/readyz');
    return answer.status === 503 ? answer : undefined;
  }, WATCH_BOUND_MS, 50);
  t.log(`/readyz 503 ${Math.round(performance.now() - deletedAt)} ms after the delete`);
  t.is(failed.body.checks.database, 'unavailable');
  t.is(failed.response.headers.get('retry-after'), '1');

  const key = await owner.post('/account/api/keys', { name: 'after' });
  t.is(key.status, 503, JSON.stringify(key.body));
  t.is(key.body.error.code, 'store_unavailable');
  t.is(key.response.headers.get('retry-after'), '2');
  t.false(JSON.stringify(key.body).includes(databasePath), 'the answer names no path');
  const template = await gateway.json('/v1/templates', postJson({ name: 'after', fields: { customTag: 'y' } }));
  t.is(template.status, 503, JSON.stringify(template.body));
  t.is(template.body.error.code, 'store_unavailable');
  t.is(template.response.headers.get('retry-after'), '2');
  // Requests that write nothing still answer: keys are held in memory.
  t.is((await gateway.request('/v1/coin-flip', { headers: { authorization: TEST_API_KEY } })).status, 200);

  const logged = await eventually(async () => lines.find((line) => line.includes('account store unavailable')), WATCH_BOUND_MS, 50);
  t.true(logged.includes('"level":50'), 'logged as an error');
  t.true(logged.includes('was deleted'), logged);
});

test('embedded: a database replaced by a copy (another inode) fails readiness and refuses writes', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.close());
  const databasePath = join(gateway.mediaDir, 'accounts.sqlite');
  t.is((await gateway.json('/v1/templates', postJson({ name: 'before', fields: {} }))).status, 201);
  // A restore from a backup, as `cp` leaves it: the same content under a new inode.
  copyFileSync(databasePath, `${databasePath}.copy`);
  rmSync(databasePath);
  copyFileSync(`${databasePath}.copy`, databasePath);
  const failed = await eventually(async () => {
    const answer = await gateway.json('/readyz');
    return answer.status === 503 ? answer : undefined;
  }, WATCH_BOUND_MS, 50);
  t.is(failed.body.checks.database, 'unavailable');
  const template = await gateway.json('/v1/templates', postJson({ name: 'after', fields: {} }));
  t.is(template.status, 503, JSON.stringify(template.body));
  t.is(template.body.error.code, 'store_unavailable');
});

test('distributed: Redis down: the account area answers 503 store_unavailable with Retry-After, never a 500', async (t) => {
  const redis = await startRedisServer({});
  t.teardown(() => redis.stop());
  const gateway = await startGatewayProcess({ env: { REDIS_URL: redis.url } });
  t.teardown(() => gateway.stop());
  const link = /sign in to the account area[^"]*: (http:\/\/[^"\s]+)/.exec(gateway.process.output())?.[1];
  if (link === undefined) throw new Error('the gateway printed no sign-in link');
  const owner = new AccountClient(gateway.url);
  t.is((await owner.signInWithToken(linkToken(link))).status, 200);
  t.is((await owner.post('/account/api/keys', { name: 'before' })).status, 201);

  await redis.kill();
  for (const [what, call] of [
    ['GET /account/api/keys', () => owner.json('/account/api/keys')],
    ['GET /account/api/me', () => owner.json('/account/api/me')],
    ['POST /account/api/keys', () => owner.post('/account/api/keys', { name: 'during' })],
    ['POST /account/api/templates', () => owner.post('/account/api/templates', { name: 'during', fields: {} })],
  ] as const) {
    const started = performance.now();
    const answer = await call();
    t.log(`${what}: ${answer.status} in ${Math.round(performance.now() - started)} ms`);
    t.is(answer.status, 503, `${what}: ${JSON.stringify(answer.body)}`);
    t.is(answer.body?.error?.code, 'store_unavailable', what);
    t.truthy(answer.response.headers.get('retry-after'), what);
  }
});
