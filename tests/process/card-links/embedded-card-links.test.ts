import { join } from 'node:path';
import test from 'ava';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { cardRenderedLines } from '../../helpers/processes.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { startPipelineImageServer, SUITE_ENV } from '../../support/pipeline/profile-image-suite.ts';
import { registerBatchTests, registerCardLinkTests, registerTemplateTests, TEMPLATE_PLANS, type CardLinkTarget } from '../../support/card-links/card-link-suite.ts';

const API_KEY = 'card-link-key-0123456789abcdef';
let gateway: GatewayProcess;
let images: ImageServer;

test.before(async () => {
  images = await startPipelineImageServer();
  gateway = await startGatewayProcess({ env: { API_KEYS: API_KEY, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RENDER_WORKERS: '2', ...SUITE_ENV, PLANS: TEMPLATE_PLANS } });
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

const target = (): CardLinkTarget => ({
  url: gateway.url,
  apiKey: API_KEY,
  images,
  // The gateway's own database; a keys file that does not exist, so the repository's is never imported.
  keysEnv: { DATABASE_PATH: join(gateway.mediaDir, 'accounts.sqlite'), KEYS_FILE: join(gateway.mediaDir, 'no-keys-file.json') },
  rendersOf: async (mediaKey) => (await cardRenderedLines(() => [gateway.process.output()], mediaKey)).length,
});

registerCardLinkTests(test, target, 'embedded');
registerTemplateTests(test, target, 'embedded');
registerBatchTests(test, target, 'embedded');
