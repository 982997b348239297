import test from 'ava';
import { startLocalStack, type LocalStack } from '../../../scripts/local-stack/local-stack.ts';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { registerHostileImageTests, startHostileImageServer, type HostileTarget } from '../../support/hostile-images/hostile-image-suite.ts';

const API_KEY = 'hostile-images-key-0123456789';
const ENV = { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMITS: 'off', LOG_LEVEL: 'info', RENDER_WORKERS: '1' };
let stack: LocalStack;
let images: ImageServer;
let renderTimeoutMs: number;

test.before(async () => {
  images = await startHostileImageServer();
  // Redis, an S3 server, the gateway and two renderer processes, as `./run stack` starts them.
  stack = await startLocalStack({ renderers: 2, apiKeys: API_KEY, env: ENV });
  renderTimeoutMs = loadGatewayConfig({ ...stack.serviceEnv, API_KEYS: API_KEY }).renderTimeoutMs;
});

test.after.always(async () => {
  await stack?.stop();
  await images?.close();
});

const watched = (name: string, service: ServiceProcess) => ({
  name,
  pid: service.child.pid!,
  running: () => service.child.exitCode === null && service.child.signalCode === null,
});

const target = (): HostileTarget => ({
  url: stack.gatewayUrl,
  apiKey: API_KEY,
  images,
  renderTimeoutMs,
  processes: () => [watched('gateway', stack.gateway), ...stack.renderers.map((renderer) => watched(renderer.name, renderer))],
});

registerHostileImageTests(test, target, 'distributed');
