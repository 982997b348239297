import test from 'ava';
import { seededRandomSource } from '../../../services/gateway/src/runtime/random-source.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

const DESCRIPTIONS: Record<string, string> = {
  Heads: 'Heads: The coin landed on the head side.',
  Tails: 'Tails: The coin landed on the tails side.',
};

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway({ random: seededRandomSource(20240615) });
});
test.after.always(async () => {
  await gateway?.close();
});

test('200 a default flip is fair and Simulated Randomly', async (t) => {
  const { status, body, response } = await gateway.json('/v1/coin-flip');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.true(body.result === 'Heads' || body.result === 'Tails');
  t.deepEqual(body, {
    result: body.result,
    description: DESCRIPTIONS[body.result],
    flipCount: 1,
    timestamp: '2024-06-15T12:00:00.000Z',
    probability: { heads: '50%', tails: '50%' },
    flipMethod: 'Simulated Randomly',
    isValid: true,
  });
});

test('200 default flips show both sides with their own descriptions', async (t) => {
  const seen = new Set<string>();
  for (let flip = 0; flip < 40; flip += 1) {
    const { body } = await gateway.json('/v1/coin-flip');
    t.is(body.description, DESCRIPTIONS[body.result]);
    seen.add(body.result);
  }
  t.deepEqual([...seen].sort(), ['Heads', 'Tails']);
});

test('200 heads=1&tails=99 is a Custom Probability flip (observed example)', async (t) => {
  const { status, body } = await gateway.json('/v1/coin-flip?heads=1&tails=99');
  t.is(status, 200);
  t.like(body, { flipMethod: 'Custom Probability', probability: { heads: '1%', tails: '99%' }, flipCount: 1, isValid: true });
});

test('200 one share implies the other', async (t) => {
  const heads = await gateway.json('/v1/coin-flip?heads=70');
  t.is(heads.status, 200);
  t.like(heads.body, { flipMethod: 'Custom Probability', probability: { heads: '70%', tails: '30%' } });
  const tails = await gateway.json('/v1/coin-flip?tails=25');
  t.like(tails.body, { flipMethod: 'Custom Probability', probability: { heads: '75%', tails: '25%' } });
});

test('200 decimals and an explicit 50/50', async (t) => {
  const decimals = await gateway.json('/v1/coin-flip?heads=33.3&tails=66.7');
  t.is(decimals.status, 200);
  t.deepEqual(decimals.body.probability, { heads: '33.3%', tails: '66.7%' });
  const even = await gateway.json('/v1/coin-flip?heads=50&tails=50');
  t.like(even.body, { flipMethod: 'Custom Probability', probability: { heads: '50%', tails: '50%' } });
  const short = await gateway.json('/v1/coin-flip?heads=.5');
  t.deepEqual(short.body.probability, { heads: '0.5%', tails: '99.5%' });
});

test('200 heads=0 is always Tails and heads=100 always Heads', async (t) => {
  for (let flip = 0; flip < 25; flip += 1) {
    t.is((await gateway.json('/v1/coin-flip?heads=0')).body.result, 'Tails');
    t.is((await gateway.json('/v1/coin-flip?tails=100')).body.result, 'Tails');
    t.is((await gateway.json('/v1/coin-flip?heads=100')).body.result, 'Heads');
    t.is((await gateway.json('/v1/coin-flip?heads=100&tails=0')).body.result, 'Heads');
  }
});

test('400 when heads is outside 0-100 or not a number', async (t) => {
  for (const heads of ['101', '-1', 'abc', '', '1e2', 'NaN', 'Infinity', '100.01', '50%25']) {
    const { status, body } = await gateway.json(`/v1/coin-flip?heads=${heads}`);
    t.is(status, 400, heads);
    t.is(body.error.code, 'invalid_request');
    t.deepEqual(body.error.details, [{ in: 'query', field: 'heads', message: 'must be a number from 0 to 100' }], heads);
  }
});

test('400 when tails is outside 0-100', async (t) => {
  const { status, body } = await gateway.json('/v1/coin-flip?tails=150');
  t.is(status, 400);
  t.deepEqual(body.error.details, [{ in: 'query', field: 'tails', message: 'must be a number from 0 to 100' }]);
});

test('400 when heads and tails do not add up to 100', async (t) => {
  for (const query of ['heads=60&tails=60', 'heads=10&tails=10', 'heads=0&tails=0', 'heads=50&tails=50.5']) {
    const { status, body } = await gateway.json(`/v1/coin-flip?${query}`);
    t.is(status, 400, query);
    t.is(body.error.code, 'invalid_request');
    t.is(body.error.details.length, 1);
    t.is(body.error.details[0].field, 'heads');
    t.regex(body.error.details[0].message, /add up to 100/);
    t.regex(body.error.message, /add up to 100/);
    t.is(typeof body.requestId, 'string');
  }
});

test('400 lists both shares when both are bad', async (t) => {
  const { status, body } = await gateway.json('/v1/coin-flip?heads=abc&tails=-5');
  t.is(status, 400);
  t.deepEqual(
    body.error.details.map((detail: { field: string }) => detail.field).sort(),
    ['heads', 'tails'],
  );
});

test('400 when heads is repeated', async (t) => {
  const { status, body } = await gateway.json('/v1/coin-flip?heads=10&heads=20');
  t.is(status, 400);
  t.deepEqual(body.error.details, [{ in: 'query', field: 'heads', message: 'must be given only once' }]);
});
