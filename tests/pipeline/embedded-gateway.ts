import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../../scripts/local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../../scripts/local-stack/service-process.ts';

export interface EmbeddedGateway {
  url: string;
  mediaDir: string;
  process: ServiceProcess;
  /** `POST /v1/profile-image?userId=` with this gateway's key and a JSON body. */
  postCard(userId: string, body?: unknown): Promise<Response>;
  /** Stops the gateway (SIGTERM) and removes its media directory. */
  stop(): Promise<void>;
}

/**
 * A gateway in embedded mode (no REDIS_URL), exactly what `pnpm start` runs, on a free loopback
 * port with a media directory of its own and one render worker; `env` adds to or overrides that.
 */
export async function startEmbeddedGateway(apiKey: string, env: Record<string, string> = {}): Promise<EmbeddedGateway> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'embedded-media-'));
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = startServiceProcess({
    name: 'gateway',
    entry: GATEWAY_ENTRY,
    env: { PORT: String(port), HOST: '127.0.0.1', API_KEYS: apiKey, MEDIA_DIR: mediaDir, DATABASE_PATH: join(mediaDir, 'accounts.sqlite'), LOG_LEVEL: 'info', RENDER_WORKERS: '1', ...env },
  });
  const stop = async () => {
    await gateway.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  };
  try {
    await gateway.waitFor(/gateway listening/, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
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
