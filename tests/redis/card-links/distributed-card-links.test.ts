import test from 'ava';
import { cardRenderedLines } from '../../helpers/processes.ts';
import { startStackOn, type TopologyStack } from '../../helpers/redis-topology.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { startPipelineImageServer, SUITE_ENV } from '../../support/pipeline/profile-image-suite.ts';
import { registerBatchTests, registerCardLinkTests, registerTemplateTests, TEMPLATE_PLANS, type CardLinkTarget } from '../../support/card-links/card-link-suite.ts';

const API_KEY = 'card-link-key-0123456789abcdef';
let stack: TopologyStack;
let images: ImageServer;

test.before(async () => {
  images = await startPipelineImageServer();
  stack = await startStackOn('single', {
    renderers: 2,
    apiKeys: API_KEY,
    env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info', RENDER_WORKERS: '1', ...SUITE_ENV, PLANS: TEMPLATE_PLANS },
  });
});

test.after.always(async () => {
  await stack?.stop();
  await images?.close();
});

const target = (): CardLinkTarget => ({
  url: stack.gatewayUrl,
  apiKey: API_KEY,
  images,
  keysEnv: { REDIS_URL: stack.serviceEnv.REDIS_URL! },
  rendersOf: async (mediaKey) => (await cardRenderedLines(() => stack.renderers.map((renderer) => renderer.output()), mediaKey)).length,
});

registerCardLinkTests(test, target, 'distributed');
registerTemplateTests(test, target, 'distributed');
registerBatchTests(test, target, 'distributed');
