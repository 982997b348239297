import { join } from 'node:path';
import { freeLoopbackPort, PORT_ATTEMPTS, portWasTaken } from './free-port.ts';
import { startRedisServer, type RunningRedis } from './redis-server.ts';
import { startS3Server, type RunningS3 } from './s3-server.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

export const GATEWAY_ENTRY = 'services/gateway/src/main.ts';
export const RENDERER_ENTRY = 'services/renderer/src/main.ts';

export { freeLoopbackPort };

export interface LocalStackOptions {
  /** The gateway's port. Without one, a free port, chosen again when another process binds it first. */
  gatewayPort?: number;
  renderers: number;
  apiKeys: string;
  /** Extra environment for gateway and renderers (LOG_LEVEL, FETCH_ALLOW_PRIVATE_HOSTS, ...). */
  env?: Record<string, string>;
  echo?: (service: string, line: string) => void;
  /**
   * Where Redis (`redis/`) and the S3 server (`s3/`) keep their data, kept on stop and reused by
   * the next stack (`./run stack`). Without it both are throwaways in temporary directories (tests).
   */
  dataDirectory?: string;
  /**
   * `REDIS_CLUSTER_NODES` of a Redis Cluster that is already running: the services use it and no
   * redis-server is started (its credentials, if any, come in `env` as REDIS_USERNAME/REDIS_PASSWORD).
   */
  redisClusterNodes?: string | undefined;
  /** A command prefix per renderer name that execs the renderer (e.g. joining a CPU cgroup first). */
  rendererCommandPrefix?: (name: string) => readonly string[];
}

/** A service started again: the new process, and whether it became ready (a restart can fail too). */
export interface Restarted {
  service: ServiceProcess;
  /** Rejects when it exited first or did not get ready in time (it is killed then). */
  ready: Promise<void>;
}

/** `redis` is the stack's own redis-server, or undefined when it runs on a given cluster. */
export interface LocalStack<OwnRedis extends RunningRedis | undefined = RunningRedis> {
  gatewayUrl: string;
  redis: OwnRedis;
  s3: RunningS3;
  /** The current gateway process (a restart replaces it). */
  readonly gateway: ServiceProcess;
  /** The current renderer processes (a restart replaces one in place). */
  renderers: ServiceProcess[];
  /** The environment every service got, for starting more renderers. */
  serviceEnv: Record<string, string>;
  startRenderer(): Promise<ServiceProcess>;
  /** Starts an exited gateway or renderer again under the same name (the gateway on the same port). */
  restart(service: ServiceProcess): Promise<Restarted>;
  stop(): Promise<void>;
}

const READY = { gateway: /gateway listening/, renderer: /renderer ready/ } as const;
const READY_TIMEOUT_MS = 60_000;

/**
 * The distributed topology on one machine, all on loopback: redis-server (or a given Redis
 * Cluster), an S3 server, the gateway and N renderer processes, each started as production starts it.
 */
export async function startLocalStack(options: LocalStackOptions & { redisClusterNodes?: undefined }): Promise<LocalStack>;
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack<RunningRedis | undefined>>;
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack<RunningRedis | undefined>> {
  const data = options.dataDirectory;
  const cluster = options.redisClusterNodes;
  const redis =
    cluster === undefined ? await startRedisServer(data === undefined ? {} : { directory: join(data, 'redis') }) : undefined;
  const s3 = await startS3Server(data === undefined ? {} : { directory: join(data, 's3') }).catch(async (error: unknown) => {
    await redis?.stop();
    throw error;
  });
  const serviceEnv: Record<string, string> = {
    ...(redis ? { REDIS_URL: redis.url } : { REDIS_CLUSTER_NODES: cluster! }),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: 'cards',
    ...options.env,
  };
  const renderers: ServiceProcess[] = [];
  let gateway: ServiceProcess | undefined;
  let gatewayPort = options.gatewayPort ?? (await freeLoopbackPort());
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await Promise.all([gateway, ...renderers].map(async (service) => service?.stop('SIGTERM')));
    await s3.stop();
    await redis?.stop();
  };
  const echo = (name: string) => options.echo && ((line: string) => options.echo!(name, line));
  const spawnRenderer = async (name: string) =>
    // HEALTH_PORT=0: the renderer binds a free port itself and logs it; picking one here races other processes.
    startServiceProcess({ name, entry: RENDERER_ENTRY, env: { ...serviceEnv, HEALTH_PORT: '0' }, echo: echo(name), commandPrefix: options.rendererCommandPrefix?.(name) });
  const spawnGateway = () =>
    startServiceProcess({
      name: 'gateway',
      entry: GATEWAY_ENTRY,
      env: { ...serviceEnv, PORT: String(gatewayPort), HOST: '127.0.0.1', API_KEYS: options.apiKeys },
      echo: echo('gateway'),
    });
  // Renderers start side by side: the count of those already pushed would name two alike.
  let started = 0;
  const startRenderer = async () => {
    started += 1;
    const renderer = await spawnRenderer(`renderer-${started}`);
    renderers.push(renderer);
    await renderer.waitFor(READY.renderer, READY_TIMEOUT_MS);
    return renderer;
  };
  const restart = async (service: ServiceProcess): Promise<Restarted> => {
    if (stopping) throw new Error('the stack is stopping');
    const isGateway = service === gateway;
    const index = renderers.indexOf(service);
    if (!isGateway && index === -1) throw new Error(`${service.name} is not a current service of this stack`);
    const next = isGateway ? spawnGateway() : await spawnRenderer(service.name);
    if (isGateway) gateway = next;
    else renderers[index] = next;
    const ready = next.waitFor(isGateway ? READY.gateway : READY.renderer, READY_TIMEOUT_MS).then(
      () => undefined,
      async (error: unknown) => {
        await next.stop('SIGKILL');
        throw error;
      },
    );
    return { service: next, ready };
  };
  try {
    await Promise.all(Array.from({ length: options.renderers }, () => startRenderer()));
    for (let attempt = 1; ; attempt += 1) {
      gateway = spawnGateway();
      try {
        await gateway.waitFor(READY.gateway, READY_TIMEOUT_MS);
        break;
      } catch (error) {
        if (options.gatewayPort !== undefined || attempt === PORT_ATTEMPTS || !portWasTaken(error)) throw error;
        gatewayPort = await freeLoopbackPort();
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    redis,
    s3,
    get gateway() {
      return gateway!;
    },
    renderers,
    serviceEnv,
    startRenderer,
    restart,
    stop,
  };
}
