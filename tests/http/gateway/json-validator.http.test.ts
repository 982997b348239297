import test from 'ava';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

const VALID = { status: 'valid', message: 'The JSON is correctly formatted.' } as const;
const EMPTY = { status: 'valid', message: 'The JSON is empty but valid.' } as const;
const MISSING = { status: 'invalid', message: 'Please provide a JSON in the request body, as the value of the "json" field.', jsonType: 'N/A' } as const;
const MALFORMED = { status: 'invalid', message: 'The JSON is incorrectly formatted.', jsonType: 'N/A' } as const;
const NOT_CONTAINER = { status: 'invalid', message: 'The JSON is incorrectly formatted: it must be an object or an array.', jsonType: 'N/A' } as const;

const validate = (body: unknown, init?: RequestInit) => gateway.json('/v1/json-validator', postJson(body, init));

test('200 valid with jsonType object for a non-empty object: the documented example', async (t) => {
  const { status, body, response } = await validate({ json: { name: 'Ada', roles: ['admin'] } });
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(body, (await loadContract(gateway.url)).example('/v1/json-validator', 'post'));
});

test('200 valid with jsonType array for a non-empty array', async (t) => {
  const { status, body } = await validate({ json: [1, { a: [] }, 'x'] });
  t.is(status, 200);
  t.deepEqual(body, { ...VALID, jsonType: 'array' });
});

test('200 empty but valid for an empty object and an empty array', async (t) => {
  const object = await validate({ json: {} });
  t.is(object.status, 200);
  t.deepEqual(object.body, { ...EMPTY, jsonType: 'object' });
  const array = await validate({ json: [] });
  t.is(array.status, 200);
  t.deepEqual(array.body, { ...EMPTY, jsonType: 'array' });
});

test('200 for json given as a string holding valid JSON text', async (t) => {
  const object = await validate({ json: '{"name":"Ada"}' });
  t.is(object.status, 200);
  t.deepEqual(object.body, { ...VALID, jsonType: 'object' });
  const empty = await validate({ json: '[]' });
  t.is(empty.status, 200);
  t.deepEqual(empty.body, { ...EMPTY, jsonType: 'array' });
});

test('200 accepts a JSON content type with a charset and Bearer authorization', async (t) => {
  const { status, body } = await validate(
    { json: { a: 1 } },
    { headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${TEST_API_KEY}` } },
  );
  t.is(status, 200);
  t.deepEqual(body, { ...VALID, jsonType: 'object' });
});

test('400 invalid asking for a JSON when json is missing', async (t) => {
  const { status, body } = await validate({});
  t.is(status, 400);
  t.deepEqual(body, MISSING);
  const other = await validate({ jsno: { a: 1 } });
  t.is(other.status, 400);
  t.deepEqual(other.body, MISSING);
});

test('400 invalid incorrectly formatted when json is a string of malformed JSON', async (t) => {
  for (const json of ['{"name": "Ada"', "{'a': 1}", '[1,]', '']) {
    const { status, body } = await validate({ json });
    t.is(status, 400, json);
    t.deepEqual(body, MALFORMED, json);
  }
});

test('400 invalid when json is a string holding JSON of a primitive', async (t) => {
  for (const json of ['5', 'true', 'null', '"text"']) {
    const { status, body } = await validate({ json });
    t.is(status, 400, json);
    t.deepEqual(body, NOT_CONTAINER, json);
  }
});

test('400 invalid when json is a number, null or a boolean', async (t) => {
  for (const json of [5, null, true, false, 0]) {
    const { status, body } = await validate({ json });
    t.is(status, 400, String(json));
    t.deepEqual(body, NOT_CONTAINER, String(json));
  }
});

test('400 invalid with the validator body when the request body is not valid JSON at all', async (t) => {
  for (const text of ['{"json": {', 'not json', '{json: {}}', '{"json": {}} trailing', '5 5', "'text'"]) {
    const { status, body } = await validate(text);
    t.is(status, 400, text);
    t.deepEqual(body, MALFORMED, text);
    t.false('error' in body, `${text}: not the shared error body`);
  }
});

test('400 asking for a JSON, like an array body, when the body is JSON but not an object', async (t) => {
  for (const text of ['5', '"text"', 'true', 'null', ' 12.5 ']) {
    const { status, body } = await validate(text);
    t.is(status, 400, text);
    t.deepEqual(body, MISSING, text);
  }
});

test('a json value 31 levels deep is checked; 32 levels (33 with the body object) is body_too_deep', async (t) => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const allowed = await validate(`{"json": ${nested(31)}}`);
  t.is(allowed.status, 200);
  t.is(allowed.body.jsonType, 'array');
  const refused = await validate(`{"json": ${nested(32)}}`);
  t.is(refused.status, 400);
  t.is(refused.body.error.code, 'body_too_deep');
});

test('400 asking for a JSON when the body is a top-level array', async (t) => {
  const { status, body } = await validate([{ json: {} }]);
  t.is(status, 400);
  t.deepEqual(body, MISSING);
});

test('400 asking for a JSON when the JSON body is empty', async (t) => {
  const { status, body } = await validate('');
  t.is(status, 400);
  t.deepEqual(body, MISSING);
});

test('400 asking for a JSON when the POST has no body and no content type', async (t) => {
  // fetch sends `Content-Length: 0` and no Content-Type: that is no body, so no json, not a 415.
  const { status, body } = await gateway.json('/v1/json-validator', { method: 'POST' });
  t.is(status, 400);
  t.deepEqual(body, MISSING);
});

test('400 with the shared error body when json is nested deeper than 32 levels', async (t) => {
  const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
  const { status, body } = await validate(`{"json": ${deep}}`);
  t.is(status, 400);
  t.is(body.error.code, 'body_too_deep');
  // The same nesting inside a string is only JSON text, parsed without that limit.
  const asText = await validate({ json: deep });
  t.is(asText.status, 200);
  t.deepEqual(asText.body, { ...VALID, jsonType: 'array' });
});

test('415 with the shared error body for a text/plain body', async (t) => {
  const { status, body } = await gateway.json('/v1/json-validator', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: '{"json": {}}',
  });
  t.is(status, 415);
  t.is(body.error.status, 415);
  t.is(body.error.code, 'unsupported_media_type');
  t.is(typeof body.error.message, 'string');
  t.is(typeof body.requestId, 'string');
});

test('401 with the shared error body without an API key', async (t) => {
  const { status, body, response } = await validate({ json: { a: 1 } }, { headers: { authorization: '' } });
  t.is(status, 401);
  t.is(body.error.code, 'unauthorized');
  t.truthy(response.headers.get('www-authenticate'));
});

test('401 with a wrong API key', async (t) => {
  const { status, body } = await validate({ json: { a: 1 } }, { headers: { authorization: 'wrong-key-0123456789abcdef' } });
  t.is(status, 401);
  t.is(body.error.code, 'unauthorized');
});

test('the shared-error 400s (body_too_deep) match the documented 400 too', async (t) => {
  // Regression: the document listed only the validator's own 400 body, so these answers broke the contract.
  const contract = await loadContract(gateway.url);
  const deep = await validate(`{"json": ${'['.repeat(40)}${']'.repeat(40)}}`);
  t.is(deep.body.error.code, 'body_too_deep');
  t.deepEqual(contract.check('/v1/json-validator', 'POST', 400, deep.body), []);
  const own = await validate({});
  t.deepEqual(contract.check('/v1/json-validator', 'POST', 400, own.body), []);
  t.notDeepEqual(contract.check('/v1/json-validator', 'POST', 400, { status: 'invalid' }), []);
});
