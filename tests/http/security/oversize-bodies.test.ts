import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import test from 'ava';
import { MAX_BODY_BYTES } from '../../../services/gateway/src/http/endpoint-route.ts';
import { REFUSED_BODY_DRAIN_BYTES } from '../../../services/gateway/src/http/refused-body.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

/**
 * A body over the limit is answered 413 while the client is still sending it: the server must let
 * the client read that answer (drain what it sends, up to OVERSIZE_DRAIN_BYTES, after a half-close)
 * rather than close on unread bytes, which resets the connection and loses the answer (the client
 * sees EPIPE or ECONNRESET). The clients here write as fast as the socket takes it, several at once.
 */

const MB = 1024 * 1024;
const SIZES = [1 * MB + 1, 4 * MB, 16 * MB];
test('the sizes sent are within the drain bound', (t) => {
  t.true(Math.max(...SIZES) <= REFUSED_BODY_DRAIN_BYTES);
});
const ROUNDS = 4;

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RATE_LIMITS: 'off', RENDER_WORKERS: '1' } });
});
test.after.always(async () => {
  await gateway?.close();
});

const PATHS = ['/v1/sort-array', '/v1/profile-image?userId=302050872383242240'];

function bodyOfSize(bytes: number): Buffer {
  const empty = '{"array":[3,1,2],"pad":""}';
  return Buffer.from(`{"array":[3,1,2],"pad":"${'x'.repeat(bytes - empty.length)}"}`);
}

interface Outcome {
  /** Everything the server sent before the connection ended. */
  received: string;
  error?: string;
}

/**
 * One request over a raw socket the way many clients send one (Python's http.client and requests,
 * curl without Expect): the whole request written first, the answer read afterwards. A write that
 * fails (EPIPE, ECONNRESET) is the failure a client of that kind reports, whatever the server sent.
 */
function rawPost(path: string, body: Buffer, declareLength: boolean): Promise<Outcome> {
  const { hostname, port } = new URL(gateway.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    socket.on('close', () => resolve({ received: error === undefined ? Buffer.concat(chunks).toString('latin1') : '', ...(error === undefined ? {} : { error }) }));
    const framing = declareLength ? `Content-Length: ${body.length}\r\n` : 'Transfer-Encoding: chunked\r\n';
    const head = `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nConnection: close\r\n${framing}\r\n`;
    const request = declareLength
      ? Buffer.concat([Buffer.from(head), body])
      : Buffer.concat([Buffer.from(`${head}${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    socket.write(request, (failure) => {
      if (failure) error ??= (failure as NodeJS.ErrnoException).code ?? failure.message;
    });
  });
}

/** One request through node:http, the way an SDK sends one. */
function httpPost(path: string, body: Buffer): Promise<Outcome> {
  const { hostname, port } = new URL(gateway.url);
  return new Promise((resolve) => {
    const outgoing = httpRequest({ host: hostname, port, path, method: 'POST', headers: { authorization: TEST_API_KEY, 'content-type': 'application/json', 'content-length': body.length } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (failure: NodeJS.ErrnoException) => resolve({ received: '', error: failure.code ?? failure.message }));
      response.on('end', () => resolve({ received: `HTTP/1.1 ${response.statusCode}\r\n\r\n${Buffer.concat(chunks).toString('latin1')}` }));
    });
    outgoing.on('error', (failure: NodeJS.ErrnoException) => resolve({ received: '', error: failure.code ?? failure.message }));
    outgoing.end(body);
  });
}

function answeredWith413(outcome: Outcome): boolean {
  if (!outcome.received.startsWith('HTTP/1.1 413')) return false;
  const body = outcome.received.slice(outcome.received.indexOf('\r\n\r\n') + 4);
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code === 'payload_too_large';
  } catch {
    return false;
  }
}

for (const [client, send] of [
  ['a raw socket declaring its length', (path: string, body: Buffer) => rawPost(path, body, true)],
  ['a raw socket sending it chunked', (path: string, body: Buffer) => rawPost(path, body, false)],
  ['node:http', httpPost],
] as const) {
  test.serial(`1, 4 and 16 MB bodies from ${client} all get the 413 JSON`, async (t) => {
    for (const size of SIZES) {
      t.true(size > MAX_BODY_BYTES);
      const body = bodyOfSize(size);
      const outcomes = await Promise.all(PATHS.flatMap((path) => Array.from({ length: ROUNDS }, () => send(path, body))));
      const failed = outcomes.filter((outcome) => !answeredWith413(outcome));
      t.deepEqual(failed.map((outcome) => outcome.error ?? outcome.received.slice(0, 40)), [], `${size} bytes`);
    }
    // The gateway still answers afterwards.
    t.is((await gateway.request('/v1/time')).status, 200);
  });
}

test.serial('a body declared longer than the drain bound is answered at once, with Connection: close', async (t) => {
  // Nothing of the body is sent: the answer cannot have waited for it.
  const { hostname, port } = new URL(gateway.url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(`POST /v1/sort-array HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${REFUSED_BODY_DRAIN_BYTES + 1}\r\n\r\n{"array":[`);
  await once(socket, 'close');
  const answer = Buffer.concat(chunks).toString('latin1');
  t.true(answer.startsWith('HTTP/1.1 413'), answer.slice(0, 40));
  t.regex(answer, /\r\nConnection: close\r\n/i);
  t.true(answeredWith413({ received: answer }));
});

test.serial('a refused body within the drain bound is read to its end before the connection closes', async (t) => {
  const { hostname, port } = new URL(gateway.url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  let drained = false;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const body = bodyOfSize(2 * MAX_BODY_BYTES);
  // The whole body, and no answer before the last byte was taken by the server: the write's callback
  // runs once the kernel took it all, which it can only do as the server reads.
  socket.write(`POST /v1/sort-array HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  socket.write(body, (error) => (drained = error === undefined || error === null));
  await once(socket, 'close');
  t.true(drained);
  const answer = Buffer.concat(chunks).toString('latin1');
  t.true(answeredWith413({ received: answer }));
  t.regex(answer, /\r\nConnection: close\r\n/i);
});

test('docs/security.md and docs/operations.md state the drain bound the gateway uses', (t) => {
  const bound = `${REFUSED_BODY_DRAIN_BYTES / MB} MB`;
  for (const page of ['security', 'operations']) {
    const text = readFileSync(new URL(`../../../docs/${page}.md`, import.meta.url), 'utf8').replaceAll('\n', ' ');
    t.true(text.includes(`**${bound}**`) && text.includes('REFUSED_BODY_DRAIN_BYTES'), page);
  }
});
