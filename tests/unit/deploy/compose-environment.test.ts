import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { loadRendererConfig } from '../../../services/renderer/src/config.ts';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { readComposeFile, readEnvFile, serviceEnvironment } from '../../support/deploy/compose-file.ts';
import { finalStage, envOf, readDockerfile } from '../../support/deploy/dockerfile.ts';
import { IMAGES } from '../../support/deploy/images.ts';
import { workspaceClosure } from '../../support/deploy/workspace.ts';

const compose = readComposeFile();
const envExample = readEnvFile('.env.example');

/** What a container sees: the image's ENV, then the compose environment on top. */
function containerEnvironment(service: 'gateway' | 'renderer', variables: ReadonlyMap<string, string>): Record<string, string> {
  const image = IMAGES.find((candidate) => candidate.service === service)!;
  return {
    ...Object.fromEntries(envOf(finalStage(readDockerfile(image.dockerfile)))),
    ...serviceEnvironment(compose.services[service]!, variables),
  };
}

/** The TypeScript sources a service runs: its own and those of the workspace packages it uses. */
function serviceSources(workspacePackage: string): string {
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return files(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  return workspaceClosure(workspacePackage)
    .flatMap((found) => files(join(REPO_ROOT, found.folder, 'src')))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

test('the gateway boots in distributed mode from .env.example as compose passes it', (t) => {
  const config = loadGatewayConfig(containerEnvironment('gateway', envExample));
  t.is(config.host, '0.0.0.0');
  t.is(config.port, 3000);
  t.deepEqual(config.redis, { kind: 'single', url: 'redis://redis:6379' });
  t.deepEqual(config.apiKeys, [envExample.get('API_KEYS')]);
  t.is(config.rendering.media.s3?.endpoint, 'http://minio:9000');
  t.is(config.rendering.media.s3?.accessKey, envExample.get('S3_ACCESS_KEY'));
  t.is(config.rendering.media.s3?.bucket, 'cards');
  t.is(config.rendering.media.ttlDays, 30);
  t.is(config.publicBaseUrl, 'http://localhost:3000');
});

test('a renderer boots from .env.example as compose passes it', (t) => {
  const config = loadRendererConfig(containerEnvironment('renderer', envExample));
  t.deepEqual(config.redis, { kind: 'single', url: 'redis://redis:6379' });
  t.deepEqual(config.health, { host: '0.0.0.0', port: 3001 });
  t.is(config.rendering.renderPool.workers, 2);
  t.is(config.concurrency, 4);
  t.is(config.rendering.discord, undefined, 'an empty DISCORD_BOT_TOKEN means no token');
  t.is(config.rendering.media.s3?.secretKey, envExample.get('S3_SECRET_KEY'));
  t.is(config.rendering.media.ttlDays, 30);
});

test('every empty optional setting falls back to the service default', (t) => {
  const onlySecrets = new Map([...envExample].filter(([name]) => ['API_KEYS', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'].includes(name)));
  const gateway = loadGatewayConfig(containerEnvironment('gateway', onlySecrets));
  t.is(gateway.renderTimeoutMs, 20_000);
  t.is(gateway.metricsToken, undefined);
  const renderer = loadRendererConfig(containerEnvironment('renderer', onlySecrets));
  t.is(renderer.rendering.fetch.deadlineMs, 5000);
  t.is(renderer.rendering.profileCacheTtlMs, 300_000);
});

for (const image of IMAGES) {
  test(`${image.service}: every variable compose sets is one the service's code names (no typos)`, (t) => {
    const sources = serviceSources(image.workspacePackage);
    const unknown = Object.keys(containerEnvironment(image.service, envExample)).filter(
      (name) => name !== 'NODE_ENV' && !new RegExp(`\\b${name}\\b`).test(sources),
    );
    t.deepEqual(unknown, []);
  });
}
