import { LIGHT_PATHS } from '../../helpers/light-paths.ts';
import test from 'ava';
import fc from 'fast-check';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { queryString } from '../../support/fuzz/support/arbitraries.ts';
import { fuzzParameters, startFuzzTarget, type FuzzTarget } from '../../support/fuzz/support/fuzz-target.ts';
import { documentedOperations, type Operation } from '../../support/fuzz/support/operations.ts';

let target: FuzzTarget;
let operations: Operation[];
test.before(async () => {
  target = await startFuzzTarget();
  operations = documentedOperations(target.contract).filter(
    (operation) => !operation.path.startsWith('/v1/profile-image') && ['GET', 'POST'].includes(operation.method),
  );
});
test.after.always(async () => {
  await target?.close();
});

/** The body each POST endpoint is sent, valid, so the query is what varies. */
const VALID_BODIES: Record<string, string> = {
  '/v1/sort-array': '{"array":[3,1.5,-2,0]}',
  '/v1/json-validator': '{"json":{"a":1}}',
  '/v1/status': '{"ping":1}',
};


for (const path of LIGHT_PATHS) {
  test.serial(`arbitrary query strings on ${path}: no 5xx, documented answers, security headers`, async (t) => {
    const forPath = operations.filter((operation) => operation.path === path);
    t.true(forPath.length > 0, `${path} is documented`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...forPath), queryString(forPath.flatMap((operation) => operation.queryNames)), async (operation, query) => {
        const body = VALID_BODIES[path];
        const withBody = operation.method === 'POST' && body !== undefined;
        await target.exchange(
          {
            method: operation.method,
            path: `${path}${query}`,
            headers: { authorization: TEST_API_KEY, ...(withBody ? { 'content-type': 'application/json' } : {}) },
            ...(withBody ? { body } : {}),
          },
          { kind: 'api', operation: { path, method: operation.method }, statuses: operation.statuses },
        );
      }),
      fuzzParameters(t, 150),
    );
    t.pass();
  });
}
