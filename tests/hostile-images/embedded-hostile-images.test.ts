import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { freePort, startNodeProcess, type ManagedProcess } from '../helpers/processes.ts';
import type { ImageServer } from '../pipeline/image-server.ts';
import { registerHostileImageTests, startHostileImageServer, type HostileTarget } from './hostile-image-suite.ts';

const API_KEY = 'hostile-images-key-0123456789';
let gateway: ManagedProcess;
let images: ImageServer;
let mediaDir: string;
let url: string;
let renderTimeoutMs: number;

test.before(async () => {
  images = await startHostileImageServer();
  mediaDir = mkdtempSync(join(tmpdir(), 'hostile-media-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // Embedded mode (no REDIS_URL), as `pnpm start` runs it; the deadline is the gateway's default.
  const env = { PORT: String(port), HOST: '127.0.0.1', API_KEYS: API_KEY, MEDIA_DIR: mediaDir, DATABASE_PATH: join(mediaDir, 'accounts.sqlite'), FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMITS: 'off', LOG_LEVEL: 'info', RENDER_WORKERS: '2' };
  renderTimeoutMs = loadGatewayConfig(env).renderTimeoutMs;
  gateway = startNodeProcess('services/gateway/src/main.ts', env);
  await gateway.waitFor(/gateway listening/, 60_000);
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
});

const target = (): HostileTarget => ({
  url,
  apiKey: API_KEY,
  images,
  renderTimeoutMs,
  processes: () => [{ name: 'embedded gateway', pid: gateway.child.pid!, running: () => gateway.child.exitCode === null && gateway.child.signalCode === null }],
});

registerHostileImageTests(test, target, 'embedded');
