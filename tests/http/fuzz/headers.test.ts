import test from 'ava';
import fc from 'fast-check';
import { OTHER_API_KEY, TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { authorizationValue, contentType, extraHeaders, sendable } from '../../support/fuzz/support/arbitraries.ts';
import { fuzzParameters, startFuzzTarget, type FuzzTarget } from '../../support/fuzz/support/fuzz-target.ts';
import type { RawRequest } from '../../support/fuzz/support/raw-http.ts';

let target: FuzzTarget;
test.before(async () => {
  target = await startFuzzTarget();
});
test.after.always(async () => {
  await target?.close();
});

/** One valid request per light endpoint: only the headers vary. */
const REQUESTS: readonly (RawRequest & { template: string; statuses: number[] })[] = [
  { method: 'POST', path: '/v1/json-validator', template: '/v1/json-validator', body: '{"json":{"a":1}}', statuses: [200] },
  { method: 'GET', path: '/v1/random-emoji?count=2', template: '/v1/random-emoji', statuses: [200] },
  { method: 'GET', path: '/v1/time?unix=1700000000', template: '/v1/time', statuses: [200] },
  { method: 'GET', path: '/v1/hex-to-rgb?hex=%23FF5733', template: '/v1/hex-to-rgb', statuses: [200] },
  { method: 'GET', path: '/v1/status', template: '/v1/status', statuses: [200] },
  { method: 'POST', path: '/v1/status?debug=1', template: '/v1/status', body: '{"ping":1}', statuses: [200] },
  { method: 'GET', path: '/v1/age-calculator?dob=2000-02-29', template: '/v1/age-calculator', statuses: [200] },
  { method: 'GET', path: '/v1/coin-flip?heads=70', template: '/v1/coin-flip', statuses: [200] },
  { method: 'POST', path: '/v1/sort-array?sort=high', template: '/v1/sort-array', body: '{"array":[5,3,9,1]}', statuses: [200] },
  { method: 'GET', path: '/v1/scramble?word=example', template: '/v1/scramble', statuses: [200] },
  { method: 'GET', path: '/v1/number-analyzer?integer=1234567', template: '/v1/number-analyzer', statuses: [200] },
];

/**
 * The documented rule, written independently of the gateway's parser: the first Authorization
 * header (Node drops repeats), trimmed, is the key itself or `Bearer <key>` in any case.
 */
function presentsValidKey(value: string | string[]): boolean {
  const first = (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  const key = /^bearer\s+(\S+)$/i.exec(first)?.[1] ?? (/\s/.test(first) ? undefined : first);
  return key === TEST_API_KEY || key === OTHER_API_KEY;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('arbitrary Authorization and other headers: 200 exactly for the documented key forms, no key echoed', async (t) => {
  const headerCase = fc
    .record({
      request: fc.constantFrom(...REQUESTS),
      authorization: fc.option(authorizationValue(TEST_API_KEY), { nil: undefined, freq: 8 }),
      others: extraHeaders,
      type: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentType }),
    })
    .filter(({ request, authorization, others }) => sendable(request.path, { ...others, ...(authorization === undefined ? {} : { authorization }) }));
  await fc.assert(
    fc.asyncProperty(headerCase, async ({ request, authorization, others, type }) => {
      const headers = { ...others, ...(request.body === undefined ? {} : { 'content-type': type }), ...(authorization === undefined ? {} : { authorization }) };
      const authorized = authorization !== undefined && presentsValidKey(authorization);
      const response = await target.exchange(
        { method: request.method, path: request.path, headers, ...(request.body === undefined ? {} : { body: request.body }) },
        {
          kind: 'api',
          operation: { path: request.template, method: request.method },
          // A body endpoint may refuse an odd content type; without a valid key nothing but 401 is possible.
          statuses: authorized ? (request.body === undefined ? request.statuses : [...request.statuses, 400, 415]) : [401],
        },
      );
      if (response.status === 401 && !/^Bearer realm="utility-api"/.test(String(response.headers['www-authenticate']))) {
        throw new Error(`401 without the Bearer challenge: ${String(response.headers['www-authenticate'])}`);
      }
      const everything = `${JSON.stringify(response.headers)}${response.body.toString('utf8')}`;
      for (const key of [TEST_API_KEY, OTHER_API_KEY]) {
        if (everything.includes(key)) throw new Error(`the answer contains an API key: ${everything.slice(0, 500)}`);
      }
      // Node strips spaces and tabs around a value and joins repeated headers with ", ".
      const offered = typeof others['x-request-id'] === 'string' ? others['x-request-id'].replace(/^[ \t]+|[ \t]+$/g, '') : others['x-request-id'];
      const answered = String(response.headers['x-request-id']);
      const expectKept = typeof offered === 'string' && SAFE_REQUEST_ID.test(offered);
      if (expectKept ? answered !== offered : !UUID.test(answered)) {
        throw new Error(`X-Request-Id ${answered} for offered ${JSON.stringify(offered)}`);
      }
    }),
    fuzzParameters(t, 400),
  );
  t.pass();
});

test('keys sent in every credential header are redacted from the status echo, whatever else is sent', async (t) => {
  await fc.assert(
    fc.asyncProperty(extraHeaders, fc.constantFrom(TEST_API_KEY, `Bearer ${TEST_API_KEY}`), async (others, authorization) => {
      const headers = {
        ...others,
        authorization,
        cookie: `session=${TEST_API_KEY}`,
        'x-api-key': TEST_API_KEY,
        'proxy-authorization': `Basic ${TEST_API_KEY}`,
      };
      if (!sendable('/v1/status', headers)) return;
      const response = await target.exchange(
        { method: 'GET', path: '/v1/status', headers },
        { kind: 'api', operation: { path: '/v1/status', method: 'GET' }, statuses: [200] },
      );
      const echo = JSON.parse(response.body.toString('utf8')).request_details.headers;
      for (const name of ['authorization', 'cookie', 'x-api-key', 'proxy-authorization']) {
        if (echo[name] !== '[redacted]') throw new Error(`${name} echoed as ${JSON.stringify(echo[name])}`);
      }
      if (response.body.toString('utf8').includes(TEST_API_KEY)) throw new Error('the key is in the echo');
    }),
    fuzzParameters(t, 100),
  );
  t.pass();
});
