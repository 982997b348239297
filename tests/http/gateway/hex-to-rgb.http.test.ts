import test from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

test('200 converts an encoded #RRGGBB: the documented example', async (t) => {
  const { status, body, response } = await gateway.json('/v1/hex-to-rgb?hex=%23FF5733');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(response.headers.get('cache-control'), 'no-store');
  t.deepEqual(body, (await loadContract(gateway.url)).example('/v1/hex-to-rgb', 'get'));
});

test('200 accepts shorthand without #', async (t) => {
  const { status, body } = await gateway.json('/v1/hex-to-rgb?hex=abc');
  t.is(status, 200);
  t.is(body.mainRgb, '170, 187, 204');
});

test('400 when hex is missing', async (t) => {
  const { status, body } = await gateway.json('/v1/hex-to-rgb');
  t.is(status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details, [{ in: 'query', field: 'hex', message: 'is required' }]);
  t.is(typeof body.requestId, 'string');
});

test('400 explains an unencoded # (the value arrives empty)', async (t) => {
  const { status, body } = await gateway.json('/v1/hex-to-rgb?hex=#FF5733');
  t.is(status, 400);
  t.regex(body.error.message, /%23/);
});

test('400 for a 4-digit or non-hex value', async (t) => {
  for (const hex of ['FF57', 'GG0000', '%23FF573380']) {
    const { status, body } = await gateway.json(`/v1/hex-to-rgb?hex=${hex}`);
    t.is(status, 400, hex);
    t.is(body.error.details[0].field, 'hex');
  }
});

test('400 when hex is repeated', async (t) => {
  const { status, body } = await gateway.json('/v1/hex-to-rgb?hex=fff&hex=000');
  t.is(status, 400);
  t.is(body.error.details[0].message, 'must be given only once');
});
