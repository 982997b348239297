import test from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

/** The test gateway's clock is pinned at 2024-06-15T12:00:00Z. */
let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

test('200 computes the age and zero-pads an unpadded dob', async (t) => {
  const { status, body, response } = await gateway.json('/v1/age-calculator?dob=1990-5-17');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(body, (await loadContract(gateway.url)).example('/v1/age-calculator', 'get'), 'the documented example, whose dob is padded');
});

test('200 for a birth today (age 0) and on a birthday', async (t) => {
  const today = await gateway.json('/v1/age-calculator?dob=2024-06-15');
  t.is(today.status, 200);
  t.is(today.body.age, '0');
  t.is(today.body.ageGroup, 'Infant');
  t.is(today.body.hours, 12);
  const birthday = await gateway.json('/v1/age-calculator?dob=2006-06-15');
  t.is(birthday.status, 200);
  t.is(birthday.body.age, '18');
  t.is(birthday.body.ageGroup, 'Young Adult');
  t.is(birthday.body.nextBirthdayInDays, 0);
  t.false(birthday.body.birthdayPassedThisYear);
  t.is(birthday.body.willBe18At, '2024-06-15T00:00:00.000Z');
});

test('200 for a 29 February birth date', async (t) => {
  const { status, body } = await gateway.json('/v1/age-calculator?dob=2000-02-29');
  t.is(status, 200);
  t.is(body.age, '24');
  t.true(body.isLeapYear);
  t.is(body.willBe18At, '2018-03-01T00:00:00.000Z');
  t.is(body.nextBirthdayInDays, 259); // to 2025-03-01: 15 + 31 + 31 + 30 + 31 + 30 + 31 + 31 + 28 + 1
});

test('400 when dob is missing', async (t) => {
  const { status, body } = await gateway.json('/v1/age-calculator');
  t.is(status, 400);
  t.is(body.error.status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details, [{ in: 'query', field: 'dob', message: 'is required' }]);
  t.is(typeof body.requestId, 'string');
});

test('400 when dob is not YYYY-M-D', async (t) => {
  for (const dob of ['', '17-05-1990', '1990%2F05%2F17', '90-5-17', 'yesterday', '1990-05-17T00%3A00', '19900-01-01']) {
    const { status, body } = await gateway.json(`/v1/age-calculator?dob=${dob}`);
    t.is(status, 400, dob);
    t.is(body.error.code, 'invalid_request', dob);
    t.is(body.error.details.length, 1, dob);
    t.is(body.error.details[0].in, 'query', dob);
    t.is(body.error.details[0].field, 'dob', dob);
    t.regex(body.error.details[0].message, /YYYY-MM-DD/, dob);
  }
});

test('400 when dob is not a real calendar date', async (t) => {
  for (const dob of ['2023-02-30', '2023-02-29', '2023-13-01', '2023-0-10', '2023-04-31', '0000-01-01']) {
    const { status, body } = await gateway.json(`/v1/age-calculator?dob=${dob}`);
    t.is(status, 400, dob);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'dob', message: 'is not a real calendar date' }], dob);
    t.is(body.error.message, "Invalid query parameter 'dob': is not a real calendar date", dob);
  }
});

test('400 when dob is in the future', async (t) => {
  for (const dob of ['2024-06-16', '2025-1-1', '9999-12-31']) {
    const { status, body } = await gateway.json(`/v1/age-calculator?dob=${dob}`);
    t.is(status, 400, dob);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'dob', message: 'is in the future' }], dob);
  }
});

test('400 when dob is repeated', async (t) => {
  const { status, body } = await gateway.json('/v1/age-calculator?dob=1990-05-17&dob=1990-05-17');
  t.is(status, 400);
  t.is(body.error.details[0].field, 'dob');
  t.is(body.error.details[0].message, 'must be given only once');
});

test('401 without an API key', async (t) => {
  const response = await fetch(`${gateway.url}/v1/age-calculator?dob=1990-05-17`);
  t.is(response.status, 401);
  const body = (await response.json()) as { error: { code: string; status: number } };
  t.is(body.error.code, 'unauthorized');
});
