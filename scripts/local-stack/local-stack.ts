import { createServer } from 'node:net';
import { once } from 'node:events';
import { startRedisServer, type RunningRedis } from './redis-server.ts';
import { startS3Server, type RunningS3 } from './s3-server.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

export const GATEWAY_ENTRY = 'services/gateway/src/main.ts';
export const RENDERER_ENTRY = 'services/renderer/src/main.ts';

/** A TCP port that was free a moment ago on loopback. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

export interface LocalStackOptions {
  gatewayPort: number;
  renderers: number;
  apiKeys: string;
  /** Extra environment for gateway and renderers (LOG_LEVEL, FETCH_ALLOW_PRIVATE_HOSTS, ...). */
  env?: Record<string, string>;
  echo?: (service: string, line: string) => void;
}

export interface LocalStack {
  gatewayUrl: string;
  redis: RunningRedis;
  s3: RunningS3;
  gateway: ServiceProcess;
  renderers: ServiceProcess[];
  /** The environment every service got, for starting more renderers. */
  serviceEnv: Record<string, string>;
  startRenderer(): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/**
 * The distributed topology on one machine, all on loopback: redis-server, an S3 server, the
 * gateway and N renderer processes, each started as production starts it.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const redis = await startRedisServer({ port: await freeLoopbackPort() });
  const s3 = await startS3Server({ port: await freeLoopbackPort() }).catch(async (error: unknown) => {
    await redis.stop();
    throw error;
  });
  const serviceEnv: Record<string, string> = {
    REDIS_URL: redis.url,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: 'cards',
    ...options.env,
  };
  const renderers: ServiceProcess[] = [];
  let gateway: ServiceProcess | undefined;
  const stop = async () => {
    await Promise.all([gateway, ...renderers].map(async (service) => service?.stop('SIGTERM')));
    await s3.stop();
    await redis.stop();
  };
  // Renderers start side by side: the count of those already pushed would name two alike.
  let started = 0;
  const startRenderer = async () => {
    started += 1;
    const name = `renderer-${started}`;
    const renderer = startServiceProcess({
      name,
      entry: RENDERER_ENTRY,
      env: { ...serviceEnv, HEALTH_PORT: String(await freeLoopbackPort()) },
      echo: options.echo && ((line) => options.echo!(name, line)),
    });
    renderers.push(renderer);
    await renderer.waitFor(/renderer ready/, 60_000);
    return renderer;
  };
  try {
    await Promise.all(Array.from({ length: options.renderers }, () => startRenderer()));
    gateway = startServiceProcess({
      name: 'gateway',
      entry: GATEWAY_ENTRY,
      env: { ...serviceEnv, PORT: String(options.gatewayPort), HOST: '127.0.0.1', API_KEYS: options.apiKeys },
      echo: options.echo && ((line) => options.echo!('gateway', line)),
    });
    await gateway.waitFor(/gateway listening/, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl: `http://127.0.0.1:${options.gatewayPort}`, redis, s3, gateway, renderers, serviceEnv, startRenderer, stop };
}
