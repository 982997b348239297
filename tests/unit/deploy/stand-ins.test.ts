/**
 * The stand-ins `pnpm test:docker` uses where registry images cannot be pulled stay visibly
 * stand-ins and stay out of production: they are tagged utility-api-standin/..., come in only
 * through the test's own override files, and override only services docker-compose.yml has.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { STAND_IN_TAGS } from '../../../scripts/docker-test/stand-in-images.ts';
import { readComposeFile, type ComposeService } from '../../support/deploy/compose-file.ts';

const TEST_FOLDER = 'scripts/docker-test';
const STAND_IN_IMAGE = /^utility-api-standin\/[a-z0-9-]+:[\w.-]+$/;

const overrideFiles = readdirSync(join(REPO_ROOT, TEST_FOLDER)).filter((name) => /^docker-compose\.stand-in-.+\.yml$/.test(name));

test('the test has its stand-in override files', (t) => {
  t.deepEqual(overrideFiles.sort(), ['docker-compose.stand-in-redis.yml', 'docker-compose.stand-in-s3.yml']);
});

for (const file of overrideFiles) {
  test(`${file}: every image is a utility-api-standin/ image, for a service docker-compose.yml has`, (t) => {
    const production = readComposeFile();
    const override = parse(readFileSync(join(REPO_ROOT, TEST_FOLDER, file), 'utf8')) as { services: Record<string, ComposeService> };
    const services = Object.entries(override.services);
    t.true(services.length > 0);
    for (const [name, service] of services) {
      t.truthy(production.services[name], `${name} is not a service of docker-compose.yml`);
      t.regex(service.image ?? '', STAND_IN_IMAGE, `${name} runs ${service.image}`);
    }
  });
}

test('docker-compose.yml and the Dockerfiles name no stand-in', (t) => {
  for (const file of ['docker-compose.yml', 'docker/gateway.Dockerfile', 'docker/renderer.Dockerfile']) {
    t.notRegex(readFileSync(join(REPO_ROOT, file), 'utf8'), /utility-api-standin/, file);
  }
});

test('the stand-in images the test builds carry the stand-in prefix', (t) => {
  const tags = Object.values(STAND_IN_TAGS);
  t.is(tags.length, 4);
  for (const tag of tags) t.regex(tag, STAND_IN_IMAGE);
});
