import test from 'ava';
import { FIXED_NOW_MS, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

/** FIXED_NOW_MS in seconds: 2024-06-15T12:00:00Z, 14:00 CEST. */
const NOW_SECONDS = FIXED_NOW_MS / 1000;

test('200 defaults to CET and to the current second', async (t) => {
  const { status, body, response } = await gateway.json('/v1/time');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(body.timezone, 'CET');
  t.is(body.unixTimestamp, NOW_SECONDS);
  t.is(body.unixMilliseconds, FIXED_NOW_MS);
  t.is(body.isoTimestamp, '2024-06-15T12:00:00.000Z');
  t.is(body.secondsAgo, 0);
  t.is(body.formattedTimeAgo, '0 days, 0 hours, 0 minutes, 0 seconds');
  t.is(body.formattedTimeFuture, null);
  t.is(body.timezoneOffset, 120);
  t.true(body.isDST);
  t.is(body.humanReadableTime24H, '14:00:00');
  t.is(body.weekday, 'Saturday');
  t.true(body.isWeekend);
  t.is(body.currentYear, 2024);
  t.is(body.chatFormats.chatFormat1, `<t:${NOW_SECONDS}:f>`);
});

test('200 for a given unix and timezone', async (t) => {
  const { status, body } = await gateway.json('/v1/time?unix=1700000000&timezone=EST');
  t.is(status, 200);
  t.is(body.timezone, 'EST');
  t.is(body.unixTimestamp, 1_700_000_000);
  t.is(body.humanReadableDate, '11/14/2023, 5:13:20 PM');
  t.is(body.timezoneOffset, -300);
  t.is(body.secondsAgo, NOW_SECONDS - 1_700_000_000);
  t.is(body.formattedTimeAgo, '213 days, 13 hours, 46 minutes, 40 seconds');
  t.is(body.chatFormats.chatFormat7, '<t:1700000000:R>');
});

test('200 with the timezone in any case, echoed in capitals', async (t) => {
  for (const [given, label, offset] of [
    ['pst', 'PST', -420],
    ['Est', 'EST', -240],
    ['cEt', 'CET', 120],
  ] as const) {
    const { status, body } = await gateway.json(`/v1/time?timezone=${given}`);
    t.is(status, 200, given);
    t.is(body.timezone, label, given);
    t.is(body.timezoneOffset, offset, given);
  }
});

test('200 for a future timestamp', async (t) => {
  const { status, body } = await gateway.json(`/v1/time?unix=${NOW_SECONDS + 90}`);
  t.is(status, 200);
  t.is(body.secondsAgo, -90);
  t.is(body.minutesAgo, -1);
  t.is(body.formattedTimeAgo, null);
  t.is(body.formattedTimeFuture, '0 days, 0 hours, 1 minutes, 30 seconds');
});

test('200 for negative and boundary timestamps', async (t) => {
  const cases: [unix: string, iso: string][] = [
    ['-1', '1969-12-31T23:59:59.000Z'],
    ['0', '1970-01-01T00:00:00.000Z'],
    ['-2208988800', '1900-01-01T00:00:00.000Z'],
    ['32503680000', '3000-01-01T00:00:00.000Z'],
  ];
  for (const [unix, iso] of cases) {
    const { status, body } = await gateway.json(`/v1/time?unix=${unix}`);
    t.is(status, 200, unix);
    t.is(body.isoTimestamp, iso, unix);
    t.is(body.unixTimestamp, Number(unix), unix);
  }
});

test('400 when unix is not a whole number', async (t) => {
  for (const unix of ['1.5', 'abc', '1e9', '', '0x10', '1_000', '%201']) {
    const { status, body } = await gateway.json(`/v1/time?unix=${unix}`);
    t.is(status, 400, unix);
    t.is(body.error.code, 'invalid_request', unix);
    t.is(body.error.details.length, 1, unix);
    t.is(body.error.details[0].in, 'query', unix);
    t.is(body.error.details[0].field, 'unix', unix);
    t.regex(body.error.details[0].message, /whole number of seconds/, unix);
    t.is(typeof body.requestId, 'string');
  }
});

test('400 when unix is out of range', async (t) => {
  // 11-digit values just past the year 3000 are seconds out of range, not milliseconds of 1971.
  for (const unix of ['-2208988801', '32503680001', '99999999999', '999999999999999']) {
    const { status, body } = await gateway.json(`/v1/time?unix=${unix}`);
    t.is(status, 400, unix);
    t.is(body.error.details[0].field, 'unix', unix);
    t.regex(body.error.details[0].message, /-2208988800 \(1900-01-01\) to 32503680000 \(3000-01-01\)/, unix);
    t.notRegex(body.error.details[0].message, /milliseconds/, unix);
  }
});

test('400 for a millisecond timestamp, with a hint to divide by 1000', async (t) => {
  for (const unix of ['1700000000000', '-1700000000000', '100000000000', '32503680000000']) {
    const { status, body } = await gateway.json(`/v1/time?unix=${unix}`);
    t.is(status, 400, unix);
    t.is(body.error.details[0].field, 'unix', unix);
    t.regex(body.error.details[0].message, /looks like milliseconds, divide by 1000/, unix);
    t.regex(body.error.message, /milliseconds/, unix);
  }
});

test('400 for an unknown timezone', async (t) => {
  for (const timezone of ['GMT', 'UTC', 'Europe%2FParis', 'EDT', '']) {
    const { status, body } = await gateway.json(`/v1/time?timezone=${timezone}`);
    t.is(status, 400, timezone);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'timezone', message: 'must be one of EST, CET, PST' }], timezone);
  }
});

test('400 when a parameter is repeated', async (t) => {
  for (const query of ['unix=1&unix=2', 'timezone=EST&timezone=CET', 'timezone=EST&timezone=EST']) {
    const { status, body } = await gateway.json(`/v1/time?${query}`);
    t.is(status, 400, query);
    t.is(body.error.details[0].message, 'must be given only once', query);
  }
});

test('400 lists both problems when unix and timezone are both bad', async (t) => {
  const { status, body } = await gateway.json('/v1/time?unix=soon&timezone=Mars');
  t.is(status, 400);
  t.deepEqual(
    body.error.details.map((detail: { field: string }) => detail.field).sort(),
    ['timezone', 'unix'],
  );
});

test('401 without an API key', async (t) => {
  const response = await fetch(`${gateway.url}/v1/time`);
  t.is(response.status, 401);
  t.truthy(response.headers.get('www-authenticate'));
  const body = (await response.json()) as { error: { code: string; status: number } };
  t.is(body.error.code, 'unauthorized');
  t.is(body.error.status, 401);
});

test('401 with a wrong API key', async (t) => {
  const { status, body } = await gateway.json('/v1/time', { headers: { authorization: 'not-a-real-key' } });
  t.is(status, 401);
  t.is(body.error.code, 'unauthorized');
});
