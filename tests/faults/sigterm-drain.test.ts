import { connect } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { ServiceProcess } from '../../scripts/local-stack/service-process.ts';
import type { ImageServer } from '../pipeline/image-server.ts';
import {
  postCard,
  startBacking,
  GATEWAY_ENV,
  startRendererProcess,
  uniqueTag,
  type Backing,
} from './fault-topology.ts';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.ts';
import { eventually } from '../helpers/processes.ts';
import { SLOW_PATH, startSlowImageServer } from '../pipeline/slow-image-server.ts';

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

/** A gateway SIGTERMed mid-render: stops listening at once, still answers the request, exits 0. */
async function assertGatewayDrains(t: ExecutionContext, gateway: GatewayProcess) {
  const card = await startSlowCard(gateway.url);
  const signalledAt = performance.now();
  gateway.process.child.kill('SIGTERM');
  await eventually(async () => ((await connectionRefused(gateway.port)) ? true : undefined), 2000, 50);
  const refusedMs = performance.now() - signalledAt;
  t.false(card.answered(), 'new connections were refused while the card was still being drawn');
  const response = await card.pending;
  const answeredMs = performance.now() - signalledAt;
  t.is(response.status, 200, JSON.stringify(response.body));
  // Answered while draining: the client must not reuse the connection for another request.
  t.is(response.headers.get('connection'), 'close');
  const exit = await gateway.process.exited;
  const exitedMs = performance.now() - signalledAt;
  t.log(`after SIGTERM: refusing connections by ${Math.round(refusedMs)} ms, 200 at ${Math.round(answeredMs)} ms, exit at ${Math.round(exitedMs)} ms`);
  // The client keeps its connection alive for about 4 s; the server must close it, not wait for that.
  t.true(exitedMs - answeredMs < 2000, 'the idle keep-alive connection did not hold the shutdown');
  t.deepEqual(exit, { code: 0, signal: null }, gateway.process.output().slice(-2000));
  t.regex(gateway.process.output(), /shutdown complete/);
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
