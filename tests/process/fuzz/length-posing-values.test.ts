/**
 * Every field of every JSON body, given an object that poses as a string or an array: a `length`
 * (and a `size`) whose own conversion cannot run. Length checks compared such a `length` with their
 * limit even after the type check failed, and the comparison threw (a 500; found by the body fuzz).
 * Each must be a documented 4xx naming the problem, never a 5xx.
 */
import test from 'ava';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { startFuzzTarget, type FuzzTarget } from '../../support/fuzz/support/fuzz-target.ts';
import { documentedOperations } from '../../support/fuzz/support/operations.ts';

/** A value whose `length` and `size` throw when converted to a number or a string. */
const POSING = { length: { toString: true, valueOf: true }, size: { toString: true, valueOf: true } };

/** How deep into nested objects and arrays the fields are visited. */
const MAX_DEPTH = 4;

type Schema = Record<string, any>;

let target: FuzzTarget;
test.before(async () => {
  target = await startFuzzTarget({}, { render: true });
});
test.after.always(async () => {
  await target?.close();
});

/** Follows `$ref`s into the document's components. */
function resolve(schema: Schema | undefined, document: Schema): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref !== undefined && hops < 10; hops += 1) {
    const pointer = String(current.$ref).replace(/^#\//, '').split('/');
    current = pointer.reduce<Schema | undefined>((node, part) => node?.[part], document);
  }
  return current;
}

/** Each place in a body a value can go: property names, and `0` for an array's first item. */
function fieldPaths(schema: Schema | undefined, document: Schema, depth = 0): (string | number)[][] {
  const resolved = resolve(schema, document);
  if (!resolved || depth >= MAX_DEPTH) return [];
  const paths: (string | number)[][] = [];
  for (const variant of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])]) paths.push(...fieldPaths(variant, document, depth));
  for (const [name, property] of Object.entries<Schema>(resolved.properties ?? {})) {
    paths.push([name]);
    for (const inner of fieldPaths(property, document, depth + 1)) paths.push([name, ...inner]);
  }
  if (resolved.items) for (const inner of fieldPaths(resolved.items, document, depth + 1)) paths.push([0, ...inner]);
  return paths;
}

/** A body holding `value` at `path` and nothing else. */
function bodyWith(path: readonly (string | number)[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, step) => (typeof step === 'number' ? [inner] : { [step]: inner }), value);
}

test('a value posing as a string or an array, in any field of any JSON body, is a documented 4xx, never a 5xx', async (t) => {
  const document = target.contract.document;
  let sent = 0;
  for (const operation of documentedOperations(target.contract).filter((candidate) => candidate.hasBody)) {
    const item = document.paths[operation.path][operation.method.toLowerCase()] as Schema;
    const bodySchema = item.requestBody?.content?.['application/json']?.schema as Schema | undefined;
    const path = operation.path.replace(/\{[^}]+\}/g, 'posing');
    const seen = new Set<string>();
    for (const fieldPath of [[], ...fieldPaths(bodySchema, document)]) {
      const key = JSON.stringify(fieldPath);
      if (seen.has(key)) continue;
      seen.add(key);
      const response = await target.exchange(
        {
          method: operation.method,
          path: path === '/v1/profile-image' ? `${path}?userId=302050872383242240` : path,
          headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify(bodyWith(fieldPath, POSING))),
          chunked: false,
        },
        { kind: 'api', operation: { path: operation.path, method: operation.method }, statuses: operation.statuses },
      );
      if (response.status >= 500) t.fail(`${operation.method} ${operation.path} ${key}: ${response.status}`);
      sent += 1;
    }
  }
  t.log(`${sent} bodies sent`);
  t.true(sent > 50, `${sent} bodies sent`);
});
