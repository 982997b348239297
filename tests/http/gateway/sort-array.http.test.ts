import test from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { postJson, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

test('200 sort=high sorts descending', async (t) => {
  const { status, body, response } = await gateway.json('/v1/sort-array?sort=high', postJson({ array: [5, 3, 9, 1] }));
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(body, {
    result: [9, 5, 3, 1],
    description: 'Array sorted in descending order.',
    originalArray: [5, 3, 9, 1],
    timestamp: '2024-06-15T12:00:00.000Z',
    isValid: true,
    sortMethod: 'High to Low',
  });
});

test('200 sort=low sorts ascending: the documented example', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array?sort=low', postJson({ array: [5, 3, 9, 1] }));
  t.is(status, 200);
  t.deepEqual(body, (await loadContract(gateway.url)).example('/v1/sort-array', 'post'));
});

test('200 without sort sorts ascending', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', postJson({ array: [2, 10, 1] }));
  t.is(status, 200);
  t.deepEqual(body.result, [1, 2, 10]);
  t.is(body.sortMethod, 'Low to High');
  t.is(body.description, 'Array sorted in ascending order.');
});

test('200 sort is case-insensitive', async (t) => {
  for (const sort of ['HIGH', 'High', 'hIgH']) {
    const { status, body } = await gateway.json(`/v1/sort-array?sort=${sort}`, postJson({ array: [1, 3, 2] }));
    t.is(status, 200, sort);
    t.deepEqual(body.result, [3, 2, 1]);
    t.is(body.sortMethod, 'High to Low');
  }
  const low = await gateway.json('/v1/sort-array?sort=LOW', postJson({ array: [1, 3, 2] }));
  t.deepEqual(low.body.result, [1, 2, 3]);
});

test('200 decimals and negatives', async (t) => {
  const array = [2.5, -1, 0, -3.75, 100, 1e-7, -1e21];
  const { status, body } = await gateway.json('/v1/sort-array?sort=low', postJson({ array }));
  t.is(status, 200);
  t.deepEqual(body.result, [-1e21, -3.75, -1, 0, 1e-7, 2.5, 100]);
  t.deepEqual(body.originalArray, array);
  const high = await gateway.json('/v1/sort-array?sort=high', postJson({ array }));
  t.deepEqual(high.body.result, [100, 2.5, 1e-7, 0, -1, -3.75, -1e21]);
});

test('200 for an empty array', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', postJson({ array: [] }));
  t.is(status, 200);
  t.deepEqual(body.result, []);
  t.deepEqual(body.originalArray, []);
  t.true(body.isValid);
});

test('200 for exactly 10000 numbers; other body fields are ignored', async (t) => {
  const array = Array.from({ length: 10_000 }, (_, index) => (index * 7919) % 10_007);
  const { status, body } = await gateway.json('/v1/sort-array?sort=high', postJson({ array, note: 'ignored' }));
  t.is(status, 200);
  t.is(body.result.length, 10_000);
  t.deepEqual(body.result, [...array].sort((a, b) => b - a));
  t.deepEqual(body.originalArray, array);
});

test('200 accepts a JSON content type with a charset or a +json suffix', async (t) => {
  for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
    const { status, body } = await gateway.json('/v1/sort-array', postJson({ array: [2, 1] }, { headers: { 'content-type': type } }));
    t.is(status, 200, type);
    t.deepEqual(body.result, [1, 2]);
  }
});

test('400 when the array is missing', async (t) => {
  for (const init of [postJson({}), postJson({ numbers: [1, 2] })]) {
    const { status, body } = await gateway.json('/v1/sort-array', init);
    t.is(status, 400);
    t.is(body.error.code, 'invalid_request');
    t.deepEqual(body.error.details, [{ in: 'body', field: 'array', message: 'is required' }]);
    t.is(typeof body.requestId, 'string');
  }
});

test('400 when array is not an array', async (t) => {
  for (const array of ['1,2,3', 5, { 0: 1 }, null, true]) {
    const { status, body } = await gateway.json('/v1/sort-array', postJson({ array }));
    t.is(status, 400, JSON.stringify(array));
    t.deepEqual(body.error.details, [{ in: 'body', field: 'array', message: 'must be an array of numbers' }]);
  }
});

test('400 when the body is not an object', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', postJson([3, 1, 2]));
  t.is(status, 400);
  t.is(body.error.code, 'invalid_request');
  t.is(body.error.details.length, 1);
  t.is(body.error.details[0].in, 'body');
});

test('400 names the element that is a string, never coercing it', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', postJson({ array: [1, '2', 3] }));
  t.is(status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details, [{ in: 'body', field: 'array.1', message: 'must contain only numbers' }]);
  t.regex(body.error.message, /array\.1/);
});

test('400 for nested arrays and null elements', async (t) => {
  const nested = await gateway.json('/v1/sort-array', postJson({ array: [1, [2, 3], 4] }));
  t.is(nested.status, 400);
  t.deepEqual(nested.body.error.details, [{ in: 'body', field: 'array.1', message: 'must contain only numbers' }]);

  const nulls = await gateway.json('/v1/sort-array', postJson({ array: [null, 1, null] }));
  t.is(nulls.status, 400);
  t.deepEqual(
    nulls.body.error.details.map((detail: { field: string }) => detail.field),
    ['array.0', 'array.2'],
  );
});

test('400 for numbers JSON cannot carry (1e400 parses to Infinity)', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', postJson('{"array":[1,1e400]}'));
  t.is(status, 400);
  t.is(body.error.details[0].field, 'array.1');
});

test('400 lists at most 20 bad elements and counts the rest', async (t) => {
  const { status, body, response } = await gateway.json('/v1/sort-array', postJson({ array: Array(10_000).fill('x') }));
  t.is(status, 400);
  t.is(body.error.details.length, 21);
  t.deepEqual(body.error.details[0], { in: 'body', field: 'array.0', message: 'must contain only numbers' });
  t.is(body.error.details[19].field, 'array.19');
  t.deepEqual(body.error.details[20], { in: 'body', field: 'array', message: '9980 more problems not listed' });
  t.regex(body.error.message, /and 9999 more problems/);
  t.true(Number(response.headers.get('content-length') ?? Infinity) < 5000);
});

test('400 when sort is neither high nor low', async (t) => {
  for (const sort of ['sideways', 'asc', 'desc', '']) {
    const { status, body } = await gateway.json(`/v1/sort-array?sort=${sort}`, postJson({ array: [1, 2] }));
    t.is(status, 400, sort);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'sort', message: 'must be one of high, low' }]);
  }
});

test('400 when the array has more than 10000 numbers', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', postJson({ array: Array(10_001).fill(1) }));
  t.is(status, 400);
  t.deepEqual(body.error.details, [{ in: 'body', field: 'array', message: 'must have at most 10000 numbers' }]);
});

test('400 with code malformed_body for broken JSON', async (t) => {
  for (const text of ['{"array":[1,2', '{array:[1]}', "{'array':[1]}", 'not json']) {
    const { status, body } = await gateway.json('/v1/sort-array', postJson(text));
    t.is(status, 400, text);
    t.is(body.error.code, 'malformed_body', text);
    t.is(typeof body.requestId, 'string');
  }
});

test('415 when the body is sent as text/plain', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: '{"array":[3,1,2]}',
  });
  t.is(status, 415);
  t.is(body.error.code, 'unsupported_media_type');
});

test('415 for a JSON body in a charset other than UTF-8; utf-8 in any spelling is read', async (t) => {
  const json = '{"array":[3,1,2]}';
  for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1', 'x-unknown']) {
    const encoded = charset.toLowerCase().startsWith('utf-16') ? Buffer.from(`\uFEFF${json}`, 'utf16le') : Buffer.from(json, 'latin1');
    const { status, body } = await gateway.json('/v1/sort-array', { method: 'POST', headers: { 'content-type': `application/json; charset=${charset}` }, body: encoded });
    t.is(status, 415, charset);
    t.is(body.error.code, 'unsupported_media_type', charset);
    t.regex(body.error.message, /UTF-8/, charset);
  }
  for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"']) {
    const { status } = await gateway.json('/v1/sort-array', { method: 'POST', headers: { 'content-type': `application/json; charset=${charset}` }, body: json });
    t.is(status, 200, charset);
  }
});

test('415 when the body is sent as a form', async (t) => {
  const { status, body } = await gateway.json('/v1/sort-array', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'array=3&array=1',
  });
  t.is(status, 415);
  t.is(body.error.code, 'unsupported_media_type');
});
