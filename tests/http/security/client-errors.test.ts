import { connect } from 'node:net';
import test from 'ava';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway({ env: { RATE_LIMITS: 'off' } });
});
test.after.always(async () => {
  await gateway?.close();
});

/** Sends raw bytes and returns everything the server answered before closing. */
function rawExchange(bytes: string): Promise<string> {
  const { port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

test('400 for bytes Node cannot parse, as JSON with the security headers', async (t) => {
  const answer = await rawExchange('GET /v1/time HTTP/1.1\r\nHost: x\r\nNot a header line\r\n\r\n');
  t.regex(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.regex(answer, /X-Content-Type-Options: nosniff/i);
  t.regex(answer, /Cache-Control: no-store/i);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  t.is(body.error.status, 400);
  t.is(body.error.code, 'malformed_request');
});

test('answers to requests Node refuses carry every security header and a request id, also in the body', async (t) => {
  for (const request of ['GET /v1/time HTTP/1.1\r\nHost: x\r\nNot a header line\r\n\r\n', `GET /v1/time HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]) {
    const answer = await rawExchange(request);
    const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
    for (const header of ['X-Content-Type-Options: nosniff', 'Cache-Control: no-store', "Content-Security-Policy: default-src 'none'", 'Cross-Origin-Resource-Policy: same-origin', 'Referrer-Policy: no-referrer', 'X-Frame-Options: DENY']) {
      t.true(head.includes(`\r\n${header}`), `${header} in ${head.split('\r\n')[0]}`);
    }
    const id = /\r\nX-Request-Id: ([0-9a-f-]{36})(\r\n|$)/.exec(head)?.[1];
    t.truthy(id, head);
    t.is(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).requestId, id);
  }
});

test('431 for oversized headers, as JSON', async (t) => {
  const answer = await rawExchange(`GET /v1/time HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  t.regex(answer, /^HTTP\/1\.1 431 /);
  t.is(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code, 'headers_too_large');
});
