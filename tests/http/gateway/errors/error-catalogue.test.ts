/**
 * The error catalogue is the one place a code's status and Retry-After are written: errors thrown
 * anywhere take them from it, the served document lists exactly its codes, and the prose docs may
 * not name a code or a status it does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ERROR_CATALOGUE, ERROR_CODES, statusesOf, type ErrorEntry } from '@utility-api/api-errors';
import { ApiError } from '../../../../services/gateway/src/http/api-error.ts';
import { startTestGateway, type TestGateway } from '../../../helpers/test-gateway.ts';

const entry = (code: (typeof ERROR_CODES)[number]): ErrorEntry => ERROR_CATALOGUE[code];

test('an ApiError takes its status and fixed Retry-After from the catalogue, and a computed one only when given', (t) => {
  for (const code of ERROR_CODES) {
    const { status, retryAfter } = entry(code);
    const plain = new ApiError(code, 'message');
    t.is(plain.status, status, code);
    const computed = new ApiError(code, 'message', { retryAfterSeconds: 41.2 });
    if (typeof retryAfter === 'number') {
      t.is(plain.headers['Retry-After'], String(retryAfter), code);
      t.is(computed.headers['Retry-After'], String(retryAfter), `${code}: a fixed Retry-After is not the thrower's to change`);
    } else if (retryAfter === 'computed') {
      t.is(plain.headers['Retry-After'], undefined, code);
      t.is(computed.headers['Retry-After'], '42', `${code}: whole seconds, rounded up`);
    } else {
      t.is(computed.headers['Retry-After'], undefined, `${code} never carries Retry-After`);
    }
  }
  t.is(new ApiError('rate_limited', 'soon', { retryAfterSeconds: 0.01 }).headers['Retry-After'], '1', 'never 0: a client would retry at once');
});

test('only a code with a second status in the catalogue may answer with it', (t) => {
  t.deepEqual(statusesOf('discord_unavailable'), [502, 503]);
  t.is(new ApiError('discord_unavailable', 'Discord could not be reached', { status: 503 }).status, 503);
  t.throws(() => new ApiError('discord_unavailable', 'x', { status: 500 }), { instanceOf: TypeError });
  t.throws(() => new ApiError('not_found', 'x', { status: 410 }), { instanceOf: TypeError });
});

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

test('the served document lists exactly the catalogue: the Error code enum and a table row per code', async (t) => {
  const document = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as {
    info: { description: string };
    components: { schemas: { Error: { properties: { error: { properties: { code: { enum: string[] } } } } } } };
  };
  t.deepEqual(document.components.schemas.Error.properties.error.properties.code.enum, ERROR_CODES);
  for (const code of ERROR_CODES) {
    const row = document.info.description.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    t.truthy(row, `${code} has a row`);
    t.true(row!.includes(`| ${statusesOf(code).join(' or ')} |`), `${code}: ${row}`);
  }
});

test('an unrouted path and a wrong method answer the catalogue codes with their statuses', async (t) => {
  const missing = await gateway.json('/v1/no-such-endpoint');
  t.is(missing.status, ERROR_CATALOGUE.not_found.status);
  t.is(missing.body.error.code, 'not_found');
  const wrongMethod = await gateway.json('/v1/openapi.json', { method: 'DELETE' });
  t.is(wrongMethod.status, ERROR_CATALOGUE.method_not_allowed.status);
  t.is(wrongMethod.body.error.code, 'method_not_allowed');
});

function markdownFiles(): string[] {
  const root = join(import.meta.dirname, '../../../..');
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md'));
  return [join(root, 'README.md'), ...docs.map((name) => join(root, 'docs', name))];
}

test('the README and docs name codes only with a status the catalogue gives them (`404 unknown_user`)', (t) => {
  let checked = 0;
  for (const file of markdownFiles()) {
    for (const [, status, code] of readFileSync(file, 'utf8').matchAll(/`([1-5]\d\d) ([a-z]+(?:_[a-z]+)+)`/g)) {
      checked += 1;
      t.true(Object.hasOwn(ERROR_CATALOGUE, code!), `${file}: \`${status} ${code}\` is not in the catalogue`);
      if (Object.hasOwn(ERROR_CATALOGUE, code!)) t.true(statusesOf(code as (typeof ERROR_CODES)[number]).includes(Number(status)), `${file}: ${code} is never a ${status}`);
    }
  }
  t.true(checked > 5, `only ${checked} codes found: the pattern no longer matches how the docs write them`);
});
