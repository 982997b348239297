import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../../helpers/processes.ts';

/**
 * What `/docs` serves comes from the gateway's production dependencies, so the gateway image
 * (`pnpm install --prod --filter @utility-api/gateway...`) has it; and only the package itself is
 * installed, not the ~260 MB of sources its bundle was built from.
 */

const RENDERER = '@scalar/api-reference';

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const gatewayManifest = readJson(join(REPO_ROOT, 'services/gateway/package.json'));
const gatewayRequire = createRequire(join(REPO_ROOT, 'services/gateway/package.json'));
const rendererEntry = gatewayRequire.resolve(RENDERER);

test('the renderer is a production dependency of the gateway, so the image installs it', (t) => {
  t.truthy(gatewayManifest.dependencies?.[RENDERER]);
  t.falsy(gatewayManifest.devDependencies?.[RENDERER]);
});

test('the installed package ships the browser bundle the gateway reads', (t) => {
  t.true(existsSync(join(dirname(rendererEntry), 'browser', 'standalone.js')));
});

test('every npm dependency of the renderer is dropped by an override: the bundle carries its code', (t) => {
  // The package.json beside the resolved entry (dist/index.js) one folder up.
  const manifest = readJson(join(dirname(rendererEntry), '..', 'package.json'));
  t.is(manifest.name, RENDERER);
  const overrides = (parse(readFileSync(join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8')) as { overrides?: Record<string, string> }).overrides ?? {};
  const dependencies = Object.keys(manifest.dependencies ?? {});
  t.true(dependencies.length > 0);
  t.deepEqual(dependencies.filter((name) => overrides[`${RENDERER}>${name}`] !== '-'), []);
  // And nothing of them was installed beside it.
  const installedBeside = join(dirname(rendererEntry), '..', '..', '..');
  t.deepEqual(dependencies.filter((name) => existsSync(join(installedBeside, name))), []);
});
