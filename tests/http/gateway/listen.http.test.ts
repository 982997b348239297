import { once } from 'node:events';
import { Agent, get as httpGet } from 'node:http';
import type { Socket } from 'node:net';
import { Lifecycle } from '@utility-api/infra';
import test from 'ava';
import { listen } from '../../../services/gateway/src/server.ts';

test('a request that arrives while the app is still being built waits for it instead of going unanswered', async (t) => {
  const lifecycle = new Lifecycle();
  t.teardown(() => lifecycle.shutdown(5000));
  const { server, port, serve } = await listen({ port: 0, host: '127.0.0.1', headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }, lifecycle);
  const arrived = once(server, 'request');
  const early = fetch(`http://127.0.0.1:${port}/early`);
  // The request has reached the server (its 'request' event) before there is an app to answer it.
  await arrived;
  serve(async (request, response) => {
    response.end(`served ${request.url}`);
  });
  const answer = await early;
  t.is(answer.status, 200);
  t.is(await answer.text(), 'served /early');
  const late = await fetch(`http://127.0.0.1:${port}/late`);
  t.is(await late.text(), 'served /late', 'requests after serve go straight to the app');
});

/** A GET over `agent`, resolving with the status, the Connection header and the socket it used. */
function get(port: number, path: string, agent: Agent): Promise<{ status: number; connection: string | undefined; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = httpGet({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, socket: request.socket! }));
    });
    request.once('error', reject);
  });
}

/** The shutdown's deadline here: far shorter than the keep-alive timeout the test gives the server. */
const SHUTDOWN_DEADLINE_MS = 30_000;

test('shutdown answers a response in progress with Connection: close and closes the idle and the finished keep-alive connections at once', async (t) => {
  const lifecycle = new Lifecycle();
  const { server, port, serve } = await listen({ port: 0, host: '127.0.0.1', headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }, lifecycle);
  const { promise: slowArrived, resolve: arrive } = Promise.withResolvers<void>();
  const { promise: release, resolve: releaseSlow } = Promise.withResolvers<void>();
  // An idle keep-alive socket left to its own timeout would outlive the shutdown's deadline, so a
  // shutdown that finishes in time (nothing in `timedOut`) closed it itself: no clock is read.
  server.keepAliveTimeout = 20 * SHUTDOWN_DEADLINE_MS;
  serve(async (request, response) => {
    if (request.url === '/slow') {
      arrive();
      await release;
    }
    response.end('ok');
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  t.teardown(() => agent.destroy());

  // One connection answered and left idle, one with a response in progress.
  const idle = await get(port, '/quick', agent);
  t.is(idle.connection, 'keep-alive');
  const idleClosed = once(idle.socket, 'close');
  const slow = get(port, '/slow', agent);
  await slowArrived;

  const shutdown = lifecycle.shutdown(SHUTDOWN_DEADLINE_MS);
  // Let the shutdown start before the response is finished.
  await new Promise((resolve) => setImmediate(resolve));
  releaseSlow();
  const answered = await slow;
  t.is(answered.status, 200);
  t.is(answered.connection, 'close', 'a response made while draining tells the client not to reuse the connection');
  await idleClosed;
  const report = await shutdown;
  t.deepEqual(report.failed, []);
  t.deepEqual(report.timedOut, [], 'no keep-alive connection held the shutdown until its timeout');
  t.false(server.listening);
});
