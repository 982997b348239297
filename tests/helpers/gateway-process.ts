import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../../scripts/local-stack/local-stack.ts';
import { PORT_ATTEMPTS, portWasTaken } from '../../scripts/local-stack/free-port.ts';
import { startServiceProcess, type ServiceProcess } from '../../scripts/local-stack/service-process.ts';
import { testEnvironment } from './test-gateway.ts';

export interface GatewayProcess {
  url: string;
  port: number;
  /** The gateway's own temp folder (MEDIA_DIR, DATABASE_PATH, KEYS_FILE unless `env` names others). */
  mediaDir: string;
  process: ServiceProcess;
  /** `POST /v1/profile-image?userId=` with the first of the gateway's API_KEYS and a JSON body. */
  postCard(userId: string, body?: unknown): Promise<Response>;
  /** Stops the gateway (SIGTERM unless told) and removes its temp folder. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface GatewayProcessOptions {
  /** Added to, or overriding, the test environment (`testEnvironment`, logging at info, one render worker). */
  env?: Record<string, string>;
  /** Wait for the "gateway listening" line (the default); false returns as soon as the process is spawned. */
  waitUntilListening?: boolean;
}

/** How long a gateway process may take to listen: its render worker loads fonts first, slowly on a busy machine. */
const LISTENING_TIMEOUT_MS = 60_000;

/**
 * A gateway started as production starts it (`node services/gateway/src/main.ts`, what `pnpm start`
 * runs) on a free loopback port, with the environment the in-process test gateway has: a temp
 * folder of its own for media, database and keys file, never the repository's `.data`. Embedded
 * mode unless `env` names a Redis. It logs at info, since tests wait for and read its lines.
 */
export async function startGatewayProcess(options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePort(options);
    } catch (error) {
      if (!portWasTaken(error) || options.env?.PORT !== undefined || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnFreePort(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'gateway-process-'));
  const port = options.env?.PORT ?? String(await freeLoopbackPort());
  const env = testEnvironment(mediaDir, { LOG_LEVEL: 'info', RENDER_WORKERS: '1', ...options.env, PORT: port });
  const gateway = startServiceProcess({ name: 'gateway', entry: GATEWAY_ENTRY, env });
  const stop = async (signal?: NodeJS.Signals) => {
    await gateway.stop(signal);
    rmSync(mediaDir, { recursive: true, force: true });
  };
  if (options.waitUntilListening !== false) {
    try {
      await gateway.waitFor(/gateway listening/, LISTENING_TIMEOUT_MS);
    } catch (error) {
      await stop('SIGKILL');
      throw error;
    }
  }
  const url = `http://127.0.0.1:${port}`;
  const [apiKey = ''] = (env.API_KEYS ?? '').split(',');
  return {
    url,
    port: Number(port),
    mediaDir,
    process: gateway,
    postCard: (userId, body = {}) =>
      fetch(`${url}/v1/profile-image?userId=${userId}`, {
        method: 'POST',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    stop,
  };
}
