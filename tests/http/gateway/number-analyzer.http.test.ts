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

const analyze = (integer: string) => gateway.json(`/v1/number-analyzer?integer=${integer}`);

test('200 analyzes integer=1234567: the documented example', async (t) => {
  const { status, body, response } = await analyze('1234567');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(body, (await loadContract(gateway.url)).example('/v1/number-analyzer', 'get'));
});

test('200 for a negative number', async (t) => {
  const { status, body } = await analyze('-42');
  t.is(status, 200);
  t.like(body, {
    formatted1: '-42',
    abbreviated: '-42',
    integer: -42,
    isEven: true,
    isOdd: false,
    isPrime: false,
    isPalindrome: false,
    isDivisibleBy3: true,
    isGreaterThanZero: false,
    isNegative: true,
    absoluteValue: 42,
  });
});

test('200 for an explicit plus sign sent as %2B', async (t) => {
  const { status, body } = await analyze('%2B7');
  t.is(status, 200);
  t.like(body, { integer: 7, isPrime: true, isArmstrong: true, isPalindrome: true });
});

test('200 with leading zeros, however many', async (t) => {
  for (const integer of ['007', '-007', '00000000000000000000000153']) {
    const { status, body } = await analyze(integer);
    t.is(status, 200, integer);
    t.is(body.integer, integer.startsWith('-') ? -7 : Number(integer), integer);
  }
  t.true((await analyze('00000000000000000000000153')).body.isArmstrong);
});

test('200 for -0, reported as 0', async (t) => {
  const { status, body } = await analyze('-0');
  t.is(status, 200);
  t.like(body, { integer: 0, formatted1: '0', abbreviated: '0', isNegative: false, isGreaterThanZero: false, absoluteValue: 0 });
});

test('200 for the largest safe integers, positive and negative', async (t) => {
  const largest = await analyze('9007199254740991');
  t.is(largest.status, 200);
  t.like(largest.body, {
    formatted1: '9,007,199,254,740,991',
    formatted2: '9.007.199.254.740.991',
    abbreviated: '9Qa',
    integer: 9_007_199_254_740_991,
    isPrime: false,
    isOdd: true,
  });
  const smallest = await analyze('-9007199254740991');
  t.is(smallest.status, 200);
  t.like(smallest.body, { integer: -9_007_199_254_740_991, abbreviated: '-9Qa', absoluteValue: 9_007_199_254_740_991 });
});

test('200 finds the largest prime below 2^53', async (t) => {
  const { status, body } = await analyze('9007199254740881');
  t.is(status, 200);
  t.true(body.isPrime);
});

test('200 ignores query parameters it does not read', async (t) => {
  const { status, body } = await gateway.json('/v1/number-analyzer?integer=10&integer2=x&foo=1&foo=2');
  t.is(status, 200);
  t.is(body.integer, 10);
});

test('400 when integer is missing', async (t) => {
  const { status, body, response } = await gateway.json('/v1/number-analyzer');
  t.is(status, 400);
  t.deepEqual(body.error, {
    status: 400,
    code: 'invalid_request',
    message: "Invalid query parameter 'integer': is required",
    details: [{ in: 'query', field: 'integer', message: 'is required' }],
  });
  t.is(typeof body.requestId, 'string');
  t.is(body.requestId, response.headers.get('x-request-id'));
});

test('400 when integer is not written as plain digits', async (t) => {
  const notDigits = 'must be a whole number from -9007199254740991 to 9007199254740991, written in digits';
  for (const integer of ['1.5', '1.0', '1e3', 'abc', '%2012', '12%20', '0x10', '', '--1', '%2B', '12abc']) {
    const { status, body } = await analyze(integer);
    t.is(status, 400, integer);
    t.is(body.error.code, 'invalid_request', integer);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'integer', message: notDigits }], integer);
  }
});

test('400 when an unencoded + arrives as a space', async (t) => {
  // In a query string `+` means a space, so `integer=+7` is " 7"; the sign must be sent as %2B.
  const { status, body } = await analyze('+7');
  t.is(status, 400);
  t.is(body.error.details[0].field, 'integer');
});

test('400 when integer is outside the safe integer range', async (t) => {
  const outside = 'must be a whole number from -9007199254740991 to 9007199254740991';
  for (const integer of ['9007199254740992', '-9007199254740992', '9007199254740993', '10000000000000000', '99999999999999999999999']) {
    const { status, body } = await analyze(integer);
    t.is(status, 400, integer);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'integer', message: outside }], integer);
  }
});

test('400 when integer is repeated', async (t) => {
  const { status, body } = await gateway.json('/v1/number-analyzer?integer=1&integer=2');
  t.is(status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details[0], { in: 'query', field: 'integer', message: 'must be given only once' });
});

test('401 without an API key', async (t) => {
  const { status, body } = await gateway.json('/v1/number-analyzer?integer=5', { headers: { authorization: '' } });
  t.is(status, 401);
  t.is(body.error.code, 'unauthorized');
});
