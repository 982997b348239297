import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTarget } from './redis-environment.ts';

/**
 * A connection to the service's Redis, one server or a Redis Cluster: both speak the same
 * commands, BullMQ and rate-limiter-flexible take either, so callers use this type and never ask
 * which. Commands that touch several keys (MULTI, Lua) keep them in one cluster slot with a hash
 * tag (`{...}`) in the key names; see docs/redis-cluster.md.
 */
export type RedisClient = Redis | Cluster;

/**
 * The two kinds of Redis connection BullMQ needs. Blocking readers (Worker, QueueEvents) must
 * retry forever (`maxRetriesPerRequest: null`, BullMQ refuses anything else); a producer answering
 * HTTP requests must fail fast instead, so a Redis outage is a prompt 503 and not a hung request.
 */
export type RedisRole = 'blocking' | 'producer';

const RECONNECT_DELAY_MS = { initial: 100, max: 2000 };
/** Reconnect forever, backing off; readiness probes report the outage meanwhile. */
const reconnectDelay = (attempt: number) => Math.min(RECONNECT_DELAY_MS.initial * 2 ** Math.min(attempt, 10), RECONNECT_DELAY_MS.max);
const CONNECT_TIMEOUT_MS = 2000;
export const PRODUCER_COMMAND_TIMEOUT_MS = 2000;
/**
 * Cluster: a command whose node went away is retried this often (each retry re-reads the slot map)
 * up to `maxRedirections` times, so a producer rides out about 16 × 250 ms = 4 s of a failover
 * before its request becomes a 503; blocking readers retry past that anyway (BullMQ's own loop).
 */
const CLUSTER_RETRY_DELAY_MS = 250;
const CLUSTER_MAX_REDIRECTIONS = 16;

function roleOptions(role: RedisRole): Pick<RedisOptions, 'maxRetriesPerRequest' | 'commandTimeout'> {
  return role === 'blocking' ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS };
}

/** The one way services open Redis: a `Redis` for REDIS_URL, a `Cluster` for REDIS_CLUSTER_NODES. */
export function createRedisConnection(target: RedisTarget, role: RedisRole, name: string): RedisClient {
  if (target.kind === 'single') {
    return new Redis(target.url, {
      connectionName: name,
      retryStrategy: reconnectDelay,
      connectTimeout: CONNECT_TIMEOUT_MS,
      ...roleOptions(role),
      ...(role === 'producer' ? { enableOfflineQueue: false } : {}),
    });
  }
  const options: ClusterOptions = {
    redisOptions: {
      connectionName: name,
      connectTimeout: CONNECT_TIMEOUT_MS,
      ...(target.username === undefined ? {} : { username: target.username }),
      ...(target.password === undefined ? {} : { password: target.password }),
      ...roleOptions(role),
    },
    // 'ready' only once CLUSTER INFO says cluster_state:ok, so boot waits for a usable cluster.
    enableReadyCheck: true,
    clusterRetryStrategy: reconnectDelay,
    enableOfflineQueue: role === 'blocking',
    retryDelayOnFailover: CLUSTER_RETRY_DELAY_MS,
    retryDelayOnClusterDown: CLUSTER_RETRY_DELAY_MS,
    retryDelayOnTryAgain: CLUSTER_RETRY_DELAY_MS,
    maxRedirections: CLUSTER_MAX_REDIRECTIONS,
    slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
  };
  return new Cluster(
    target.nodes.map((node) => ({ host: node.host, port: node.port })),
    options,
  );
}
