import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../../scripts/local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../../scripts/local-stack/service-process.ts';

export interface EmbeddedGateway {
  url: string;
  process: ServiceProcess;
  /** `POST /v1/profile-image?userId=` with this gateway's key and a JSON body. */
  postCard(userId: string, body?: unknown): Promise<Response>;
  /** Stops the gateway and removes its media folder. */
  stop(): Promise<void>;
}

/**
 * An embedded-mode gateway process (no REDIS_URL: what `pnpm start` runs) on a free loopback
 * port, with its own temporary MEDIA_DIR and `env` on top, ready when this resolves.
 */
export async function startEmbeddedGateway(apiKey: string, env: Record<string, string> = {}): Promise<EmbeddedGateway> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'embedded-media-'));
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = startServiceProcess({
    name: 'gateway',
    entry: GATEWAY_ENTRY,
    env: { PORT: String(port), HOST: '127.0.0.1', API_KEYS: apiKey, MEDIA_DIR: mediaDir, LOG_LEVEL: 'info', RENDER_THREADS: '1', ...env },
  });
  const stop = async () => {
    await gateway.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  };
  await gateway.waitFor(/gateway listening/, 60_000).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return {
    url,
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
