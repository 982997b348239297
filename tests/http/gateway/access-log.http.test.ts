import { Writable } from 'node:stream';
import { createLogger } from '@utility-api/infra';
import test from 'ava';
import { apiKeyId, hashApiKey } from '../../../services/gateway/src/auth/api-keys.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

/** Every raw line the gateway logged, in order. */
const lines: string[] = [];
let gateway: TestGateway;

test.before(async () => {
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
      done();
    },
  });
  gateway = await startTestGateway({ env: { LOG_LEVEL: 'info' }, logDestination });
});
test.after.always(async () => {
  await gateway?.close();
});

/** The access-log line of the request that answered with this X-Request-Id. */
async function accessLine(response: Response): Promise<string> {
  const requestId = response.headers.get('x-request-id')!;
  // The line is written as the response finishes, which the client may see first.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const line = lines.find((candidate) => candidate.includes(`"requestId":"${requestId}"`) && candidate.includes('"msg":"request"'));
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no access-log line for ${requestId}`);
}

/** The line pino itself writes for these fields, with the gateway logger's settings. */
function pinoLine(fields: Record<string, unknown>): string {
  let written = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString('utf8');
      done();
    },
  });
  createLogger({ service: 'gateway-test', level: 'info', destination }).info(fields, 'request');
  return written.trimEnd();
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"<time>"');

test('an authenticated request\'s access-log line has every field, in the order and form pino writes them', async (t) => {
  const response = await gateway.request('/v1/hex-to-rgb?hex=ff8800', { headers: { 'x-request-id': 'trace-1.a' } });
  t.is(response.status, 200);
  const line = await accessLine(response);
  const parsed = JSON.parse(line) as Record<string, unknown>;
  t.deepEqual(Object.keys(parsed), ['level', 'time', 'service', 'requestId', 'keyId', 'method', 'route', 'status', 'ms', 'msg']);
  t.is(parsed.requestId, 'trace-1.a');
  t.is(parsed.keyId, apiKeyId(hashApiKey(TEST_API_KEY)));
  t.is(parsed.route, '/v1/hex-to-rgb');
  t.true(typeof parsed.ms === 'number' && parsed.ms >= 0 && Number(parsed.ms.toFixed(2)) === parsed.ms);
  t.false(Number.isNaN(Date.parse(parsed.time as string)));
  const { level: _level, time: _time, service: _service, msg: _msg, ...fields } = parsed;
  t.is(withoutTime(line), withoutTime(pinoLine(fields)));
});

test('a refused or unrouted request logs no key id, its route as "unmatched" or its template, and its status', async (t) => {
  const unrouted = await gateway.request('/v1/nothing-here?secret=1');
  t.is(unrouted.status, 404);
  const unroutedLine = JSON.parse(await accessLine(unrouted)) as Record<string, unknown>;
  t.deepEqual(Object.keys(unroutedLine), ['level', 'time', 'service', 'requestId', 'method', 'route', 'status', 'ms', 'msg']);
  t.like(unroutedLine, { method: 'GET', route: 'unmatched', status: 404 });
  t.false(JSON.stringify(unroutedLine).includes('secret'), 'never the raw path or query');

  const refused = await gateway.request('/v1/sort-array', { ...postJson({ array: [2, 1] }), headers: { authorization: 'wrong-key-0123456789', 'content-type': 'application/json' } });
  t.is(refused.status, 401);
  t.like(JSON.parse(await accessLine(refused)) as Record<string, unknown>, { method: 'POST', route: '/v1/sort-array', status: 401 });
  t.false((await accessLine(refused)).includes('keyId'));
});
