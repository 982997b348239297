import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, Lifecycle } from '@utility-api/infra';
import { loadGatewayConfig } from '../../services/gateway/src/config.ts';
import { fixedClock } from '../../services/gateway/src/runtime/clock.ts';
import { cryptoRandomSource } from '../../services/gateway/src/runtime/random-source.ts';
import { startGateway } from '../../services/gateway/src/server.ts';
import { FIXED_NOW_MS, testClient, testEnvironment, type TestGateway, type TestGatewayOptions } from './test-app.ts';

export {  OTHER_API_KEY, postJson, readJson, TEST_API_KEY, type TestGateway, type TestGatewayOptions } from './test-app.ts';

/**
 * A whole embedded gateway (render pool, fonts, media store and its sweeper) on a free loopback
 * port, with a silent logger, for tests that need cards rendered. Tests of the light endpoints,
 * auth and limits use `startTestApp`, which builds the same app without the render path.
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'gateway-media-'));
  const config = loadGatewayConfig(testEnvironment(mediaDir, options.env));
  const lifecycle = new Lifecycle();
  const logger = createLogger({ service: 'gateway-test', level: config.logLevel });
  const { url } = await startGateway(
    config,
    { clock: options.clock ?? fixedClock(FIXED_NOW_MS), random: options.random ?? cryptoRandomSource() },
    logger,
    lifecycle,
  );
  return testClient(url, mediaDir, () => lifecycle.shutdown(5000).then(() => undefined));
}
