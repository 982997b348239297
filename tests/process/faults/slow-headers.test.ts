import { connect } from 'node:net';
import test from 'ava';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { API_KEY, GATEWAY_ENV, timedFetch } from '../../support/faults/fault-topology.ts';

/** Short so the attack is bounded in time; production defaults to 10 s and 30 s. */
const HEADERS_TIMEOUT_MS = 2000;
const REQUEST_TIMEOUT_MS = 4000;
const SLOW_CLIENTS = 40;
/** Timeout, plus the server's one-second sweep, plus room for a loaded machine; the old sweep alone was 30 s. */
const DROPPED_WITHIN_MS = HEADERS_TIMEOUT_MS + 5000;

let gateway: GatewayProcess;

test.before(async () => {
  gateway = await startGatewayProcess({ env: { ...GATEWAY_ENV, HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
});

test.after.always(async () => {
  await gateway?.stop();
});

interface SlowClient {
  /** Resolves when the server closes the connection: how long it lived and what the server said. */
  closed: Promise<{ livedMs: number; reply: string; bytesSent: number }>;
  destroy(): void;
}

/** Opens a connection and sends a request's headers one byte per second, never finishing them. */
function slowHeaderClient(port: number): SlowClient {
  const socket = connect({ host: '127.0.0.1', port });
  const opened = performance.now();
  const headers = Buffer.from('GET /v1/time HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ' + 'a'.repeat(200));
  let sent = 0;
  let reply = '';
  const drip = setInterval(() => {
    if (sent < headers.length && socket.writable) socket.write(headers.subarray(sent, (sent += 1)));
  }, 1000);
  socket.on('data', (chunk: Buffer) => (reply += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<{ livedMs: number; reply: string; bytesSent: number }>((resolve) => {
    socket.once('close', () => {
      clearInterval(drip);
      resolve({ livedMs: performance.now() - opened, reply, bytesSent: sent });
    });
  });
  return { closed, destroy: () => socket.destroy() };
}

test('clients dripping their headers a byte a second are dropped while others are served normally', async (t) => {
  const attackers = Array.from({ length: SLOW_CLIENTS }, () => slowHeaderClient(gateway.port));
  try {
    // During the attack, ordinary clients get their answers as usual.
    const served: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const responses = await Promise.all(
        ['/v1/time', '/v1/coin-flip', '/healthz'].map((path) => timedFetch(`${gateway.url}${path}`, { headers: { authorization: API_KEY } })),
      );
      for (const response of responses) {
        t.is(response.status, 200);
        served.push(response.ms);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.log(`${served.length} normal requests during the attack, slowest ${Math.round(Math.max(...served))} ms`);

    const results = await Promise.all(
      attackers.map((attacker) =>
        Promise.race([attacker.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), DROPPED_WITHIN_MS + 2000).unref())]),
      ),
    );
    const dropped = results.filter((result) => result !== undefined);
    t.is(dropped.length, SLOW_CLIENTS, 'every slow client was disconnected by the server');
    const lived = dropped.map((result) => result.livedMs);
    t.log(`slow clients dropped after ${Math.round(Math.min(...lived))}-${Math.round(Math.max(...lived))} ms (HEADERS_TIMEOUT_MS=${HEADERS_TIMEOUT_MS})`);
    t.true(Math.min(...lived) >= HEADERS_TIMEOUT_MS - 500, 'not before the headers timeout');
    t.true(Math.max(...lived) < DROPPED_WITHIN_MS, `all within ${DROPPED_WITHIN_MS} ms`);
    for (const result of dropped) {
      t.regex(result.reply, /^HTTP\/1\.1 408 /, 'the server answered 408 Request Timeout');
      t.true(result.bytesSent < 20, 'the client had sent only a few header bytes');
    }
    // The server is still healthy after the attack.
    t.is((await timedFetch(`${gateway.url}/v1/time`, { headers: { authorization: API_KEY } })).status, 200);
  } finally {
    for (const attacker of attackers) attacker.destroy();
  }
});

test('a client dripping its body is answered 408 at REQUEST_TIMEOUT_MS, not at a fixed 30 s', async (t) => {
  const socket = connect({ host: '127.0.0.1', port: gateway.port });
  const opened = performance.now();
  let reply = '';
  socket.on('data', (chunk: Buffer) => (reply += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.write(`POST /v1/sort-array HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"array":[`);
  const drip = setInterval(() => socket.writable && socket.write('1,'), 500);
  const closed = await new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - opened)));
  clearInterval(drip);
  t.log(`dripping body dropped after ${Math.round(closed)} ms (REQUEST_TIMEOUT_MS=${REQUEST_TIMEOUT_MS})`);
  t.true(closed >= REQUEST_TIMEOUT_MS - 500, 'not before the request timeout');
  // The timeout, the one-second sweep, and room for a loaded machine; far below the old fixed 30 s.
  t.true(closed < REQUEST_TIMEOUT_MS + 8000, `within ${REQUEST_TIMEOUT_MS + 8000} ms`);
  t.regex(reply, /^HTTP\/1\.1 408 /);
});
