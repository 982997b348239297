import { parse } from 'node:querystring';
import test from 'ava';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

/**
 * Query strings whose decoding differs in the corners: repeats (also empty ones), `+`, bad and
 * non-UTF-8 escapes, names in other cases or escaped, unknown parameters repeated, no `=`.
 */
const QUERIES = [
  'hex=ff8800',
  'hex=ff8800&hex=000000',
  'hex=&hex=',
  'hex=ff8800&hex',
  'hex',
  'hex=',
  '%68ex=ff8800',
  'hex=%66f8800',
  'hex=ff+8800',
  'hex=%23ff8800',
  'hex=%zz',
  'hex=%ff',
  'hex=ff%008800',
  'HEX=ff8800',
  'hex=ff8800&other=1&other=2',
  '&&hex=abc&',
  'hex=abc=def',
  'other=1',
  '',
];

/**
 * The query is read with URLSearchParams for the endpoint's own names only; before, Koa's
 * `ctx.query` (node:querystring) decoded all of it. Each query gets the answer the old reading
 * implied: a parameter querystring saw twice is a 400 "must be given only once", one it saw once
 * answers as that decoded value sent plainly does, one it did not see as if it were absent.
 */
for (const query of QUERIES) {
  test(`?${query} is read as node:querystring read it`, async (t) => {
    const actual = await gateway.json(`/v1/hex-to-rgb?${query}`);
    const old = parse(query).hex;
    if (Array.isArray(old)) {
      t.is(actual.status, 400);
      t.deepEqual(actual.body.error.details, [{ in: 'query', field: 'hex', message: 'must be given only once' }]);
      return;
    }
    const expected = await gateway.json(old === undefined ? '/v1/hex-to-rgb' : `/v1/hex-to-rgb?hex=${encodeURIComponent(old)}`);
    t.is(actual.status, expected.status);
    const { requestId: _actualId, ...actualBody } = actual.body as Record<string, unknown>;
    const { requestId: _expectedId, ...expectedBody } = expected.body as Record<string, unknown>;
    t.deepEqual(actualBody, expectedBody);
  });
}

test('a parameter given once among many others, and an unknown one given twice, are read as before', async (t) => {
  const many = Array.from({ length: 1200 }, (_, index) => `p${index}=1`).join('&');
  // querystring stopped at 1000 parameters (its maxKeys); only the endpoint's own names are read now, wherever they are.
  const { status, body } = await gateway.json(`/v1/hex-to-rgb?hex=abc&${many}&unknown=1&unknown=2`);
  t.is(status, 200);
  t.is(body.mainRgb, '170, 187, 204');
});
