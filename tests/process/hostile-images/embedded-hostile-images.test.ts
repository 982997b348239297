import test from 'ava';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { registerHostileImageTests, startHostileImageServer, type HostileTarget } from '../../support/hostile-images/hostile-image-suite.ts';

const API_KEY = 'hostile-images-key-0123456789';
let gateway: GatewayProcess;
let images: ImageServer;
let renderTimeoutMs: number;

test.before(async () => {
  images = await startHostileImageServer();
  // Embedded mode (no REDIS_URL), as `pnpm start` runs it; the deadline is the gateway's default.
  const env = { API_KEYS: API_KEY, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMITS: 'off', RENDER_WORKERS: '2' };
  renderTimeoutMs = loadGatewayConfig(env).renderTimeoutMs;
  gateway = await startGatewayProcess({ env });
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

const target = (): HostileTarget => ({
  url: gateway.url,
  apiKey: API_KEY,
  images,
  renderTimeoutMs,
  processes: () => [{ name: 'embedded gateway', pid: gateway.process.child.pid!, running: () => gateway.process.child.exitCode === null && gateway.process.child.signalCode === null }],
});

registerHostileImageTests(test, target, 'embedded');
