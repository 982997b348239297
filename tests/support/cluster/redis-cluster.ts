import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';

/**
 * How long a node may be unreachable before the cluster counts it as failed and a replica takes
 * over. Short, so a failover test is quick; waits on the cluster are bounded by multiples of it.
 */
export const CLUSTER_NODE_TIMEOUT_MS = 2000;
/**
 * Failure detection (node timeout), the FAIL vote spreading, the replica's election delay (500 ms
 * plus up to 500 ms random plus 1 s per rank) and the new epoch spreading: about three node
 * timeouts. Waits for a failover allow five times that for a loaded machine.
 */
export const FAILOVER_BOUND_MS = 5 * 3 * CLUSTER_NODE_TIMEOUT_MS;
/** Creating the cluster, the gossip settling and replicas syncing: a few node timeouts, widely. */
const FORMATION_BOUND_MS = 30_000;

export interface ClusterNode {
  port: number;
  server: RunningRedis;
}

export interface RunningCluster {
  nodes: ClusterNode[];
  /** `REDIS_CLUSTER_NODES` for the services: every node, as an operator would list them. */
  nodesEnv: string;
  /** The node serving `slot` as master now, by asking a live node. */
  masterOf(slot: number): Promise<ClusterNode>;
  /** The slot a key (or a hash tag such as `{card-render}`) lives in. */
  keySlot(key: string): Promise<number>;
  /** Resolves once every live node says `cluster_state:ok` and sees `masters` masters serving all slots. */
  waitUntilHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const ALL_SLOTS = 16_384;

async function redisCli(args: readonly string[]): Promise<string> {
  const child = spawn('redis-cli', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`redis-cli ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}

/** One short-lived connection to one node, for CLUSTER questions (not a cluster client). */
async function askNode<T>(port: number, question: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await question(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Every cluster node still running in this process's clusters. A test file whose after hook never
 * ran (a crash, a timeout) must not leave six redis-servers behind: they are killed when it exits.
 */
const runningNodes = new Set<ClusterNode>();
process.once('exit', () => {
  for (const node of runningNodes) node.server.child.kill('SIGKILL');
});

const isAlive = (node: ClusterNode) => node.server.child.exitCode === null && node.server.child.signalCode === null;

/**
 * A Redis Cluster of `masters` masters with `replicasPerMaster` replicas each, all Debian
 * `redis-server` processes on loopback in temporary directories (gone on stop), created with
 * `redis-cli --cluster create`. Each node gets its own free client port and cluster bus port
 * (chosen again when another process takes one first). Waits until the cluster serves every
 * slot and every replica is in sync, so a failover right away finds a replica to promote. The
 * caller stops it (an `after.always` hook); whatever is still running when the process exits is killed.
 */
export async function startRedisCluster(options: { masters?: number; replicasPerMaster?: number } = {}): Promise<RunningCluster> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 1;
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.server.kill()));
    for (const node of nodes) runningNodes.delete(node);
  };
  try {
    for (let index = 0; index < masters * (1 + replicasPerMaster); index += 1) {
      const server = await startRedisServer({
        clusterNode: true,
        extraArgs: [
          ...['--cluster-node-timeout', String(CLUSTER_NODE_TIMEOUT_MS)],
          // A replica always stands in for its dead master, however long their link was down.
          ...['--cluster-replica-validity-factor', '0'],
        ],
      });
      const node = { port: server.port, server };
      nodes.push(node);
      runningNodes.add(node);
    }
    if (nodes.length === 1) {
      // `redis-cli --cluster create` wants three masters at least; one node (the distributed
      // bench's one-shard cluster) takes every slot itself.
      // Alone, it never learns its address from a peer: announced, or CLUSTER SLOTS names no host.
      await askNode(nodes[0]!.port, async (redis) => {
        await redis.config('SET', 'cluster-announce-ip', '127.0.0.1');
        await redis.call('CLUSTER', 'ADDSLOTSRANGE', '0', String(ALL_SLOTS - 1));
      });
    } else {
      await redisCli([
        '--cluster', 'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas', String(replicasPerMaster),
        '--cluster-yes',
      ]);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const liveNode = () => {
    const node = nodes.find(isAlive);
    if (!node) throw new Error('no cluster node is running');
    return node;
  };
  const waitUntilHealthy = async (timeoutMs = FORMATION_BOUND_MS) => {
    const deadline = Date.now() + timeoutMs;
    let last: string;
    for (;;) {
      try {
        const live = nodes.filter(isAlive);
        const reports = await Promise.all(live.map((node) => askNode(node.port, async (redis) => ({
          info: String(await redis.cluster('INFO')),
          replication: await redis.info('replication'),
        }))));
        const healthy = reports.every(({ info, replication }) =>
          info.includes('cluster_state:ok') &&
          info.includes(`cluster_slots_ok:${ALL_SLOTS}`) &&
          (!replication.includes('role:slave') || replication.includes('master_link_status:up')),
        );
        if (healthy) return;
        last = reports.map(({ info }) => /cluster_state:\w+/.exec(info)?.[0]).join(', ');
      } catch (error) {
        last = (error as Error).message;
      }
      if (Date.now() > deadline) throw new Error(`the Redis Cluster was not healthy within ${timeoutMs} ms (${last})`);
      // sleep-ok: the poll interval of the loop above, bounded by its deadline.
      await sleep(100);
    }
  };
  try {
    await waitUntilHealthy();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    nodes,
    nodesEnv: nodes.map((node) => `127.0.0.1:${node.port}`).join(','),
    async masterOf(slot) {
      const ranges = await askNode(liveNode().port, (redis) => redis.cluster('SLOTS'));
      const [, , master] = ranges.find(([from, to]) => slot >= from && slot <= to) ?? [];
      const node = nodes.find((candidate) => candidate.port === master?.[1]);
      if (!node) throw new Error(`no master serves slot ${slot}`);
      return node;
    },
    keySlot: (key) => askNode(liveNode().port, (redis) => redis.cluster('KEYSLOT', key)),
    waitUntilHealthy,
    stop,
  };
}
