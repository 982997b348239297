import { z } from 'zod';
import { envCommaList } from './env-fields.ts';

/**
 * Where a service finds Redis: one server (`REDIS_URL`, credentials inside the URL as usual) or a
 * Redis Cluster (`REDIS_CLUSTER_NODES`, a few of its nodes to discover the rest from, with
 * `REDIS_USERNAME`/`REDIS_PASSWORD` since a host:port list has no place for them). Kept free of
 * ioredis so config code can name it without loading the client.
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: readonly ClusterNodeAddress[]; username?: string | undefined; password?: string | undefined };

export interface ClusterNodeAddress {
  host: string;
  port: number;
}

/** `host:port`, `[v6]:port`; the host is a name or an address, the port 1 to 65535. */
function parseNodeAddress(text: string): ClusterNodeAddress | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1] ?? match[2]!, port };
}

/** `REDIS_URL`: required by renderers, optional for the gateway (neither it nor a cluster: embedded mode). */
const redisUrlField = z.string().regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' });

const clusterNodesField = envCommaList().pipe(
  z.array(z.string()).transform((items, context) => {
    const nodes: ClusterNodeAddress[] = [];
    for (const item of items) {
      const node = parseNodeAddress(item);
      if (node) nodes.push(node);
      else context.addIssue({ code: 'custom', message: `"${item}" is not a host:port node address` });
    }
    return nodes;
  }),
);

/** The variables that say where Redis is; spread into each service's schema, checked by `refineRedisEnvironment`. */
export const redisEnvironmentShape = {
  REDIS_URL: redisUrlField.optional(),
  /** Comma-separated `host:port` of some cluster nodes (masters or replicas); the rest are discovered. */
  REDIS_CLUSTER_NODES: clusterNodesField,
  /** Cluster only (with REDIS_URL the credentials go in the URL): ACL user and password of every node. */
  REDIS_USERNAME: z.string().min(1).optional(),
  REDIS_PASSWORD: z.string().min(1).optional(),
};

type RedisEnvironment = z.output<z.ZodObject<typeof redisEnvironmentShape>>;

/**
 * The combinations that make sense: at most one of REDIS_URL and REDIS_CLUSTER_NODES (one of them
 * when `required`), and the cluster credentials only with the cluster. Every mistake is reported
 * with the other configuration problems.
 */
export function refineRedisEnvironment(env: RedisEnvironment, context: z.RefinementCtx, options: { required: boolean }): void {
  const cluster = env.REDIS_CLUSTER_NODES.length > 0;
  if (env.REDIS_URL !== undefined && cluster) {
    context.addIssue({ code: 'custom', path: ['REDIS_CLUSTER_NODES'], message: 'set either REDIS_URL (one server) or REDIS_CLUSTER_NODES (a cluster), not both' });
  }
  if (options.required && env.REDIS_URL === undefined && !cluster) {
    context.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'is required (or REDIS_CLUSTER_NODES for a Redis Cluster)' });
  }
  if (!cluster) {
    for (const name of ['REDIS_USERNAME', 'REDIS_PASSWORD'] as const) {
      if (env[name] !== undefined) {
        context.addIssue({ code: 'custom', path: [name], message: 'is only read with REDIS_CLUSTER_NODES; for one server put the credentials in REDIS_URL' });
      }
    }
  }
}

/** The Redis the variables name, or undefined when they name none (the gateway's embedded mode). */
export function toRedisTarget(env: RedisEnvironment): RedisTarget | undefined {
  if (env.REDIS_CLUSTER_NODES.length > 0) {
    return { kind: 'cluster', nodes: env.REDIS_CLUSTER_NODES, username: env.REDIS_USERNAME, password: env.REDIS_PASSWORD };
  }
  return env.REDIS_URL === undefined ? undefined : { kind: 'single', url: env.REDIS_URL };
}

/** For logs and messages: where Redis is, without credentials. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'cluster') return `redis cluster ${target.nodes.map((node) => (node.host.includes(':') ? `[${node.host}]` : node.host) + `:${node.port}`).join(',')}`;
  try {
    const parsed = new URL(target.url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis';
  }
}
