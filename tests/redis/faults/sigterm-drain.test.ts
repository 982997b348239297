import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import {
  API_KEY,
  postCard,
  startBacking,
  GATEWAY_ENV,
  startRendererProcess,
  uniqueTag,
  USER_ID,
  type Backing,
} from '../../support/faults/fault-topology.ts';
import { SERVER_TIMEOUTS } from '../../../services/gateway/src/server.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { eventually } from '../../helpers/processes.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';

let backing: Backing;
let images: ImageServer;
/** Every process started here, to kill whatever a test left running (a gateway's stop removes its temp folder too). */
const processes: Pick<ServiceProcess, 'stop'>[] = [];
let firstRenderer: ServiceProcess;
let distributedGateway: GatewayProcess;
let embeddedGateway: GatewayProcess;

test.before(async () => {
  images = await startSlowImageServer(3000);
  backing = await startBacking();
  // Started together: process boot is most of this file's time.
  [firstRenderer, distributedGateway, embeddedGateway] = await Promise.all([
    startRendererProcess(backing.env).then(tracked),
    startGatewayProcess({ env: { ...GATEWAY_ENV, ...backing.env } }).then(tracked),
    startGatewayProcess({ env: GATEWAY_ENV }).then(tracked),
  ]);
});

test.after.always(async () => {
  await Promise.all(processes.map((service) => service.stop('SIGKILL')));
  await backing?.stop();
  await images?.close();
});

const tracked = <T extends Pick<ServiceProcess, 'stop'>>(service: T): T => {
  processes.push(service);
  return service;
};

/** Resolves true when a new TCP connection to the port is refused, false when it is accepted. */
const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/** Starts a slow card and resolves once the renderer is fetching its background, i.e. mid-render. */
const startSlowCard = async (gatewayUrl: string) => {
  const fetching = images.nextRequest(SLOW_PATH);
  let answered = false;
  const pending = postCard(gatewayUrl, { customBackground: `${images.url}${SLOW_PATH}`, customTag: uniqueTag('drained') });
  void pending.finally(() => (answered = true)).catch(() => {});
  await fetching;
  return { pending, answered: () => answered };
};

/**
 * Keep-alive connections as Node's Agent keeps them: it has no idle timeout of its own, so only the
 * server closes them, and a shutdown that left one open would wait out its whole deadline.
 */
function keepAliveClient(port: number) {
  const agent = new Agent({ keepAlive: true });
  const request = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; connection: string | undefined; body: string; closed: Promise<unknown> }>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers: { authorization: API_KEY, 'content-type': 'application/json' } }, (response) => {
        const closed = once(outgoing.socket!, 'close');
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.once('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text, closed }));
      });
      outgoing.once('error', reject);
      outgoing.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return { request, close: () => agent.destroy() };
}

/** The report of the "shutdown complete" line in a service's output. */
function shutdownReport(output: string): { timedOut: string[]; failed: unknown[] } | undefined {
  const line = output.split('\n').find((candidate) => candidate.includes('"msg":"shutdown complete"'));
  return line === undefined ? undefined : (JSON.parse(line) as { timedOut: string[]; failed: unknown[] });
}

/**
 * A gateway SIGTERMed mid-render: stops listening at once, still answers the request, exits 0, and
 * closes both keep-alive connections itself: one idle since before the signal, and the card's.
 */
async function assertGatewayDrains(t: ExecutionContext, gateway: GatewayProcess) {
  const client = keepAliveClient(gateway.port);
  t.teardown(client.close);
  const idle = await client.request('GET', '/healthz');
  t.is(idle.connection, 'keep-alive');
  const fetching = images.nextRequest(SLOW_PATH);
  const pending = client.request('POST', `/v1/profile-image?userId=${USER_ID}`, { customBackground: `${images.url}${SLOW_PATH}`, customTag: uniqueTag('drained') });
  let answered = false;
  void pending.finally(() => (answered = true)).catch(() => {});
  await fetching;
  const signalledAt = performance.now();
  gateway.process.child.kill('SIGTERM');
  await eventually(async () => ((await connectionRefused(gateway.port)) ? true : undefined), 2000, 50);
  const refusedMs = performance.now() - signalledAt;
  t.false(answered, 'new connections were refused while the card was still being drawn');
  const response = await pending;
  const answeredMs = performance.now() - signalledAt;
  t.is(response.status, 200, response.body);
  // Answered while draining: the client must not reuse the connection for another request.
  t.is(response.connection, 'close');
  const exit = await gateway.process.exited;
  const exitedMs = performance.now() - signalledAt;
  t.log(`after SIGTERM: refusing connections by ${Math.round(refusedMs)} ms, 200 at ${Math.round(answeredMs)} ms, exit at ${Math.round(exitedMs)} ms`);
  t.deepEqual(exit, { code: 0, signal: null }, gateway.process.output().slice(-2000));
  // Both connections were closed by the server (the client never closes them), and the exit came
  // before its keep-alive timeout would have closed them: the shutdown did not wait for that.
  await Promise.all([idle.closed, response.closed]);
  t.true(exitedMs - answeredMs < SERVER_TIMEOUTS.keepAliveTimeoutMs, 'no keep-alive connection held the shutdown');
  t.like(shutdownReport(gateway.process.output()), { timedOut: [], failed: [] });
}

test.serial('distributed: a renderer SIGTERMed mid-job finishes it, then exits 0; the request gets 200', async (t) => {
  const renderer = firstRenderer;
  const card = await startSlowCard(distributedGateway.url);
  const signalledAt = performance.now();
  renderer.child.kill('SIGTERM');
  // The next test's renderer boots meanwhile; the job stays locked by the draining one.
  const nextRenderer = startRendererProcess(backing.env).then(tracked);
  const response = await card.pending;
  const answeredMs = performance.now() - signalledAt;
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(await renderer.exited, { code: 0, signal: null }, renderer.output().slice(-2000));
  // The answer can come through Redis before the renderer's log line leaves its stdout pipe.
  await t.notThrowsAsync(renderer.waitFor(/"card rendered"/, 10_000), 'the SIGTERMed renderer drew the card itself');
  t.log(`after SIGTERM: 200 at ${Math.round(answeredMs)} ms, renderer exit at ${Math.round(performance.now() - signalledAt)} ms`);
  t.is((await fetch(response.body.url)).status, 200);
  t.false((await nextRenderer).output().includes('"card rendered"'), 'no other renderer took the job over');
});

test.serial('distributed: a gateway SIGTERMed mid-render refuses new connections, answers 200 and exits 0', async (t) => {
  await assertGatewayDrains(t, distributedGateway);
});

test.serial('embedded: a gateway SIGTERMed mid-render refuses new connections, answers 200 and exits 0', async (t) => {
  await assertGatewayDrains(t, embeddedGateway);
});
