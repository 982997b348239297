import test from 'ava';
import { Reply } from '../../../../services/gateway/src/http/endpoint.ts';
import { problemsFromZod } from '../../../../services/gateway/src/http/api-error.ts';
import { jsonValidatorEndpoint, validateJson, type JsonValidationResult } from '../../../../services/gateway/src/utilities/json-validator/endpoint.ts';

const VALID = { status: 'valid', message: 'The JSON is correctly formatted.' } as const;
const EMPTY = { status: 'valid', message: 'The JSON is empty but valid.' } as const;
const MISSING = { status: 'invalid', message: 'Please provide a JSON in the request body, as the value of the "json" field.', jsonType: 'N/A' } as const;
const MALFORMED = { status: 'invalid', message: 'The JSON is incorrectly formatted.', jsonType: 'N/A' } as const;
const NOT_CONTAINER = { status: 'invalid', message: 'The JSON is incorrectly formatted: it must be an object or an array.', jsonType: 'N/A' } as const;

/** What the endpoint would send: the status and the body, whether it returned a result or a Reply. */
function answer(result: JsonValidationResult | Reply<JsonValidationResult>): { status: number; body: JsonValidationResult } {
  return result instanceof Reply ? { status: result.status, body: result.body } : { status: 200, body: result };
}

test('a non-empty object is valid with jsonType object', (t) => {
  t.deepEqual(answer(validateJson({ json: { nested: {} } })), { status: 200, body: { ...VALID, jsonType: 'object' } });
});

test('a non-empty array is valid with jsonType array', (t) => {
  t.deepEqual(answer(validateJson({ json: [1, 'two', null] })), { status: 200, body: { ...VALID, jsonType: 'array' } });
  t.deepEqual(answer(validateJson({ json: [[]] })), { status: 200, body: { ...VALID, jsonType: 'array' } });
  t.deepEqual(answer(validateJson({ json: [null] })), { status: 200, body: { ...VALID, jsonType: 'array' } });
});

test('an empty object or array is valid with the empty message', (t) => {
  t.deepEqual(answer(validateJson({ json: {} })), { status: 200, body: { ...EMPTY, jsonType: 'object' } });
  t.deepEqual(answer(validateJson({ json: [] })), { status: 200, body: { ...EMPTY, jsonType: 'array' } });
});

test('a missing json is a 400 asking for a JSON', (t) => {
  t.deepEqual(throughSchema({}), { status: 400, body: MISSING });
});

test('a string holding JSON text of an object or array is parsed and checked', (t) => {
  t.deepEqual(answer(validateJson({ json: '{"a":1}' })), { status: 200, body: { ...VALID, jsonType: 'object' } });
  t.deepEqual(answer(validateJson({ json: ' [1, 2] ' })), { status: 200, body: { ...VALID, jsonType: 'array' } });
  t.deepEqual(answer(validateJson({ json: '{}' })), { status: 200, body: { ...EMPTY, jsonType: 'object' } });
  t.deepEqual(answer(validateJson({ json: '[]' })), { status: 200, body: { ...EMPTY, jsonType: 'array' } });
  t.deepEqual(answer(validateJson({ json: '{"__proto__": {"a": 1}}' })), { status: 200, body: { ...VALID, jsonType: 'object' } });
});

test('a string that does not parse is a 400 incorrectly formatted', (t) => {
  for (const text of ['', ' ', '{', '{"a":1', "{'a':1}", '{a:1}', '[1,]', '{"a":1,}', 'undefined', 'NaN', '{"a":1} x', '[1] [2]']) {
    t.deepEqual(answer(validateJson({ json: text })), { status: 400, body: MALFORMED }, JSON.stringify(text));
  }
});

test('a string holding JSON of a primitive is a 400', (t) => {
  for (const text of ['5', '-1.5e3', 'true', 'false', 'null', '"text"', '"{}"']) {
    t.deepEqual(answer(validateJson({ json: text })), { status: 400, body: NOT_CONTAINER }, text);
  }
});

// --- The body schema the route validates with, before validateJson runs. ------------------------

const endpoint = jsonValidatorEndpoint();

/** Runs a parsed request body through the endpoint the way the route does: schema first, then the handler. */
function throughSchema(body: unknown): { status: number; body: unknown } {
  const parsed = endpoint.body?.safeParse(body);
  if (parsed === undefined) throw new Error('the json validator must declare a body schema');
  if (parsed.success) return answer(validateJson(parsed.data as Parameters<typeof validateJson>[0]));
  const reply = endpoint.onInvalidInput?.(problemsFromZod(parsed.error, 'body'));
  if (!(reply instanceof Reply)) throw new Error('the json validator must answer invalid input itself');
  return { status: reply.status, body: reply.body };
}

test('json: 5, null, true or a number is a 400 invalid, not the shared error body', (t) => {
  for (const json of [5, 0, null, true, false, -1.5]) {
    t.deepEqual(throughSchema({ json }), { status: 400, body: NOT_CONTAINER }, JSON.stringify(json));
  }
});

test('a body that is not an object asks for a JSON', (t) => {
  for (const body of [[], [{ json: {} }], 'text', 5, null]) {
    t.deepEqual(throughSchema(body), { status: 400, body: MISSING }, JSON.stringify(body));
  }
});

test('other fields beside json are ignored', (t) => {
  t.deepEqual(throughSchema({ json: { a: 1 }, extra: true }), { status: 200, body: { ...VALID, jsonType: 'object' } });
  t.deepEqual(throughSchema({ other: { a: 1 } }), { status: 400, body: MISSING });
});

test('a body that is not valid JSON is answered like a malformed json; JSON that is not an object asks for a JSON', (t) => {
  const reply = endpoint.onMalformedBody?.('not_json');
  t.true(reply instanceof Reply);
  t.is(reply?.status, 400);
  t.deepEqual(reply?.body, MALFORMED);
  t.deepEqual(endpoint.onMalformedBody?.('not_object')?.body, { status: 'invalid', message: 'Please provide a JSON in the request body, as the value of the "json" field.', jsonType: 'N/A' });
});

test('every answer has exactly status, message and jsonType', (t) => {
  for (const body of [{ json: { a: 1 } }, { json: [] }, {}, { json: '{' }, { json: '5' }, { json: 5 }]) {
    t.deepEqual(Object.keys(throughSchema(body).body as object), ['status', 'message', 'jsonType'], JSON.stringify(body));
  }
});
