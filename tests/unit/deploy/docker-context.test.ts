import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { instructionsOf, readDockerfile } from '../../support/deploy/dockerfile.ts';
import { isExcludedFromContext, readDockerIgnore } from '../../support/deploy/docker-ignore.ts';
import { IMAGES } from '../../support/deploy/images.ts';

const rules = readDockerIgnore();

function filesUnder(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

test('the matcher follows Docker: last matching rule wins, parent folders count', (t) => {
  const sample = [
    { pattern: /^[^/]*$/, exception: false },
    { pattern: /^keep$/, exception: true },
    { pattern: /^(?:.*\/)?junk$/, exception: false },
  ];
  t.true(isExcludedFromContext('other/file', sample));
  t.false(isExcludedFromContext('keep/a/file', sample));
  t.true(isExcludedFromContext('keep/a/junk/file', sample));
});

test('secrets, host builds, local data and tests stay out of the build context', (t) => {
  for (const path of [
    '.env',
    '.git/HEAD',
    'node_modules/.pnpm/lock.yaml',
    'packages/card/node_modules/canvas/index.js',
    'services/gateway/node_modules/koa/package.json',
    'services/gateway/.data/media/a.png',
    'tests/unit/deploy/dockerfiles.test.ts',
    'bench-results/x.json',
    'packages/card/samples/sample-cards.ts',
  ]) {
    t.true(isExcludedFromContext(path, rules), path);
  }
});

test('every workspace source file and manifest is in the build context', (t) => {
  const files = [...filesUnder('packages'), ...filesUnder('services')].filter((path) => /\/(src\/|package\.json$)/.test(path));
  t.true(files.length > 50, `${files.length} files`);
  t.deepEqual(
    files.filter((path) => isExcludedFromContext(path, rules)),
    [],
  );
});

for (const image of IMAGES) {
  test(`${image.service}: everything the Dockerfile copies from the context exists and is not ignored`, (t) => {
    const dockerfile = readDockerfile(image.dockerfile);
    const sources = dockerfile.stages.flatMap((stage) =>
      instructionsOf(stage, 'COPY')
        .filter((copy) => !copy.text.includes('--from='))
        .flatMap((copy) => copy.text.split(/\s+/).filter((word) => !word.startsWith('--')).slice(0, -1)),
    );
    t.true(sources.length > 3);
    for (const source of sources) {
      t.true(existsSync(join(REPO_ROOT, source)), `${source} does not exist`);
      t.false(isExcludedFromContext(source, rules), `${source} is excluded by .dockerignore`);
    }
  });
}
