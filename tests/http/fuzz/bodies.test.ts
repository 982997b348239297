import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import test from 'ava';
import fc from 'fast-check';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { anyBody, contentType, oversizedJsonText } from '../../support/fuzz/support/arbitraries.ts';
import { fuzzParameters, startFuzzTarget, type FuzzTarget } from '../../support/fuzz/support/fuzz-target.ts';
import { documentedOperations, type Operation } from '../../support/fuzz/support/operations.ts';

let target: FuzzTarget;
let operations: Operation[];
/** Object.prototype as it was before any request: a polluting body would add to it. */
let prototypeNames: string[];
test.before(async () => {
  target = await startFuzzTarget();
  operations = documentedOperations(target.contract).filter((operation) => operation.hasBody && !operation.path.startsWith('/v1/profile-image'));
  prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
});
test.after.always(async () => {
  await target?.close();
});

/** Mostly JSON spelled right, so the bodies reach validation; sometimes any type at all. */
const bodyContentType = fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: contentType });

/**
 * How the body travels: as is (mostly), compressed as its Content-Encoding says, or labelled with
 * an encoding it does not have or the gateway does not know.
 */
const ENCODINGS: Record<string, { header?: string; encode: (text: string) => Buffer }> = {
  none: { encode: (text) => Buffer.from(text) },
  gzip: { header: 'gzip', encode: (text) => gzipSync(text) },
  deflate: { header: 'deflate', encode: (text) => deflateSync(text) },
  br: { header: 'br', encode: (text) => brotliCompressSync(text) },
  'gzip label on plain text': { header: 'gzip', encode: (text) => Buffer.from(text) },
  identity: { header: 'identity', encode: (text) => Buffer.from(text) },
  unknown: { header: 'compress', encode: (text) => Buffer.from(text) },
  'upper case': { header: 'GZIP', encode: (text) => gzipSync(text) },
  'twice gzip': { header: 'gzip, gzip', encode: (text) => gzipSync(gzipSync(text)) },
};

const bodyEncoding = fc.oneof({ weight: 12, arbitrary: fc.constant('none') }, { weight: 4, arbitrary: fc.constantFrom(...Object.keys(ENCODINGS)) });

const bodyCase = (operation: Operation) =>
  fc.record({
    type: bodyContentType,
    encoding: bodyEncoding,
    chunked: fc.boolean(),
    body: fc.oneof({ weight: 30, arbitrary: anyBody(operation.bodyFields.length > 0 ? operation.bodyFields : ['ping', 'a']) }, { weight: 1, arbitrary: oversizedJsonText }),
  });

function assertPrototypeIntact(): void {
  const names = Object.getOwnPropertyNames(Object.prototype).sort();
  if (names.join() !== prototypeNames.join() || ({} as Record<string, unknown>).polluted !== undefined) {
    throw new Error(`Object.prototype changed: ${names.filter((name) => !prototypeNames.includes(name)).join(', ')}`);
  }
}

for (const path of ['/v1/json-validator', '/v1/sort-array', '/v1/status']) {
  test.serial(`arbitrary bodies and content types on ${path}: no 5xx, documented answers, no pollution`, async (t) => {
    const forPath = operations.filter((operation) => operation.path === path);
    t.true(forPath.length > 0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...forPath).chain((operation) => fc.tuple(fc.constant(operation), bodyCase(operation))), async ([operation, { type, encoding, chunked, body }]) => {
        const { header, encode } = ENCODINGS[encoding]!;
        const headers = { authorization: TEST_API_KEY, ...(type === '' ? {} : { 'content-type': type }), ...(header === undefined ? {} : { 'content-encoding': header }) };
        const response = await target.exchange(
          { method: operation.method, path, headers, body: encode(body), chunked },
          { kind: 'api', operation: { path, method: operation.method }, statuses: operation.statuses },
        );
        assertPrototypeIntact();
        // The status echo returns a JSON object body as JSON.parse reads it (last duplicate wins, 1e400 is null).
        if (path === '/v1/status' && type === 'application/json' && encoding === 'none' && response.status === 200) {
          const echoed = JSON.parse(response.body.toString('utf8')).request_details.body;
          // A leading byte order mark is skipped, as RFC 8259 allows.
          const text = body.replace(/^\uFEFF/, '');
          const sent = text.trim() === '' ? {} : JSON.parse(text);
          if (JSON.stringify(echoed) !== JSON.stringify(sent)) throw new Error(`echo differs: sent ${body.slice(0, 200)}, echoed ${JSON.stringify(echoed).slice(0, 200)}`);
        }
      }),
      fuzzParameters(t, 250),
    );
    t.pass();
  });
}

test.serial('after every fuzzed body, a plain request answers as before', async (t) => {
  const response = await target.exchange(
    { method: 'POST', path: '/v1/status', headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' }, body: '{}' },
    { kind: 'api', operation: { path: '/v1/status', method: 'POST' }, statuses: [200] },
  );
  const echo = JSON.parse(response.body.toString('utf8'));
  t.deepEqual(echo.request_details.body, {});
  t.is(echo.request_details.body.polluted, undefined);
});
