import test from 'ava';
import { createRedisProfileCache } from '@utility-api/discord-users';
import { createRedisConnection } from '@utility-api/infra/redis';
import { Cluster } from 'ioredis';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { createKey, runKeysCli, statusWith, timeUntil } from '../../support/keys/key-processes.ts';
import { startRedisCluster, type RunningCluster } from '../../support/cluster/redis-cluster.ts';

/** Managed keys, rate limits and the profile cache of two gateway processes sharing a Redis Cluster (3 masters, 3 replicas). */
let cluster: RunningCluster;
let gateways: GatewayProcess[] = [];
let env: Record<string, string>;

test.before(async () => {
  cluster = await startRedisCluster();
  env = { REDIS_CLUSTER_NODES: cluster.nodesEnv };
  gateways = await Promise.all([startGatewayProcess({ env }), startGatewayProcess({ env })]);
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await cluster?.stop();
});

test.serial('the gateways run on the cluster: keys and limits in Redis', (t) => {
  for (const gateway of gateways) {
    const output = gateway.process.output();
    t.regex(output, /"redis":"cluster"/);
    t.regex(output, /"keyStore":"redis"/);
    t.regex(output, /"rateLimits":"redis"/);
  }
});

test.serial('a key created with the CLI on the cluster works on both gateways; revoked, both refuse it within a second', async (t) => {
  const doomed = await createKey(env);
  const kept = await createKey(env);
  for (const gateway of gateways) {
    t.is(await statusWith(gateway.url, doomed.key), 200);
    t.is(await statusWith(gateway.url, kept.key), 200);
  }
  const list = await runKeysCli(['list'], env);
  t.is(list.code, 0, list.stderr);
  t.true(list.stdout.includes(doomed.prefix) && list.stdout.includes(kept.prefix));
  const revoke = await runKeysCli(['revoke', doomed.prefix], env);
  t.is(revoke.code, 0, revoke.stderr);
  // Gateways poll the version counter four times a second; 2 s is the bound for a loaded machine.
  await Promise.all(gateways.map((gateway) => timeUntil(async () => (await statusWith(gateway.url, doomed.key)) === 401, 2000)));
  for (const gateway of gateways) t.is(await statusWith(gateway.url, kept.key), 200);
});

test.serial("a managed key's own budget holds across both gateways", async (t) => {
  const created = await createKey(env, ['--rate', '3/1m']);
  const statuses = [];
  for (let index = 0; index < 6; index += 1) statuses.push(await statusWith(gateways[index % 2]!.url, created.key, '/v1/coin-flip'));
  t.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
});

test.serial('keys read or changed together share a slot: the key records with their version, every queue key with the others', async (t) => {
  t.is(await cluster.keySlot('{utility-api:api-keys}:version'), await cluster.keySlot('utility-api:api-keys'));
  const queueSlot = await cluster.keySlot('{card-render}');
  // The gateways' queues wrote their keys at boot; every one of them must be in the queue's slot.
  const client = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
  try {
    await new Promise<void>((resolve) => client.once('ready', resolve));
    const queueKeys = (await Promise.all(client.nodes('master').map((node) => node.keys('*card-render*')))).flat();
    t.true(queueKeys.length > 0, 'the queue has keys');
    for (const key of queueKeys) t.is(await cluster.keySlot(key), queueSlot, key);
    t.true(await client.exists('{utility-api:api-keys}:version') === 1, 'the CLI bumped the tagged version counter');
  } finally {
    client.disconnect();
  }
});

test.serial('the Discord profile cache, as renderers open it, shares users through the cluster and expires them', async (t) => {
  const target = { kind: 'cluster', nodes: [{ host: '127.0.0.1', port: cluster.nodes[1]!.port }] } as const;
  const [writer, reader] = [createRedisConnection(target, 'blocking', 'cache-writer'), createRedisConnection(target, 'blocking', 'cache-reader')];
  try {
    const user = { id: '402050872383242240', username: 'clustered', global_name: 'On A Cluster', accent_color: 0x123456 };
    await createRedisProfileCache(writer).set(user.id, user, 60_000);
    t.deepEqual(await createRedisProfileCache(reader).get(user.id), user);
    await createRedisProfileCache(writer).set('402050872383242241', { ...user, id: '402050872383242241' }, 1);
    // sleep-ok: a 1 ms expiry has to pass; a sleep is only ever longer than asked.
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.is(await createRedisProfileCache(reader).get('402050872383242241'), undefined, 'expired by Redis itself');
  } finally {
    writer.disconnect();
    reader.disconnect();
  }
});
