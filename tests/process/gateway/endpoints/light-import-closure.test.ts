import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { REPO_ROOT } from '../../../helpers/processes.ts';

/**
 * A light endpoint is a schema and a pure function: loading one must not load the card, the render
 * pool, the media store or their native libraries. Checked on what Node really loads (type-only
 * imports are erased and never count), in a fresh process with a resolve hook recording every module.
 */
const ENDPOINTS_DIRECTORY = join(REPO_ROOT, 'services/gateway/src/utilities');

/** The endpoint modules `utilityEndpoints()` is built from, read from its imports. */
const LIGHT_ENDPOINT_FILES = [...readFileSync(join(ENDPOINTS_DIRECTORY, 'utility-endpoints.ts'), 'utf8').matchAll(/from '\.\/([a-z-]+)\/endpoint\.ts'/g)].map((match) => join(ENDPOINTS_DIRECTORY, match[1]!, 'endpoint.ts'));

/** Repository folders and packages no light endpoint may reach. */
const FORBIDDEN = [/\/packages\/media-store\//, /\/packages\/card\//, /\/packages\/render-engine\//, /\/services\/renderer\//, /node_modules\/(canvas|sharp|bullmq|ioredis|@aws-sdk\/[^/]+|koa)\//];

const RECORD_LOADED_MODULES = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ resolve(specifier, context, next) { const resolved = next(specifier, context); loaded.add(resolved.url); return resolved; } });
const closures = {};
for (const url of process.argv.slice(1)) {
  loaded.clear();
  await import(url);
  closures[url] = [...loaded];
}
console.log(JSON.stringify(closures));
`;

function loadedModules(endpointUrls: string[]): Record<string, string[]> {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', RECORD_LOADED_MODULES, ...endpointUrls], { cwd: REPO_ROOT, encoding: 'utf8' });
  return JSON.parse(output) as Record<string, string[]>;
}

test('no light endpoint loads storage, card, render or queue code', (t) => {
  t.is(LIGHT_ENDPOINT_FILES.length, 10, 'the ten light endpoints');
  const urls = LIGHT_ENDPOINT_FILES.map((file) => pathToFileURL(file).href);
  // The first endpoint loads the shared modules; each later one records only what it adds. The
  // union is what the ten need together, and every module in it came from one of them.
  const closures = loadedModules(urls);
  const union = new Set(Object.values(closures).flat());
  t.true(union.size > LIGHT_ENDPOINT_FILES.length, 'the hook saw the modules load');
  for (const [endpoint, modules] of Object.entries(closures)) {
    const forbidden = modules.filter((url) => FORBIDDEN.some((pattern) => pattern.test(url)));
    t.deepEqual(forbidden, [], `${endpoint.slice(endpoint.indexOf('/utilities/'))} loads ${forbidden.join(', ')}`);
  }
  const own = [...union].filter((url) => url.startsWith('file:') && !url.includes('/node_modules/'));
  t.log(`the ten light endpoints load ${own.length} of the repository's modules and ${union.size - own.length} others`);
});
