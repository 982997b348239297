import { readFileSync } from 'node:fs';
import { RENDER_RETENTION } from '@utility-api/render-jobs';
import test, { type ExecutionContext } from 'ava';
import { childPids } from '../../helpers/render-workers.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { crashWorkerMidCard, lostWorkers, postCard, startHeavyImageServer } from '../../support/pipeline/worker-crash-scenario.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';
let gateway: GatewayProcess;
let images: ImageServer;

test.before(async () => {
  images = await startHeavyImageServer();
  gateway = await startGatewayProcess({ env: { API_KEYS: API_KEY, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
  // A worker still warming up burns CPU too: the crash below must catch one drawing a card.
  await gateway.process.waitFor(/render worker ready/, 60_000);
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

test('embedded: a render worker SIGSEGVed mid-card fails that card with 503; the gateway keeps serving and draws the next', async (t) => {
  const gatewayPid = gateway.process.child.pid!;

  // /healthz is polled all through the crash: the gateway process must answer every time.
  const health: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      health.push((await fetch(`${gateway.url}/healthz`)).status);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();

  try {
    await crashAndRecover(t, gatewayPid);
  } finally {
    polling = false;
    await poller;
  }
  t.true(health.length >= 2, `healthz polled ${health.length} times`);
  t.deepEqual([...new Set(health)], [200]);
});

/** A process's command line, to say what an unexpected child of the gateway is. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return `${pid} (gone)`;
  }
}

async function crashAndRecover(t: ExecutionContext, gatewayPid: number): Promise<void> {
  const { killedPid, reply, body, path, misses } = await crashWorkerMidCard({
    gatewayUrl: gateway.url,
    apiKey: API_KEY,
    images,
    rendererPids: [gatewayPid],
    output: () => gateway.process.output(),
    customTag: 'crashes its worker',
  });
  // A kill that landed after the worker handed its card back left that card drawn.
  t.log(`${misses.length} earlier kill(s) landed after the worker had handed its card back`);
  t.deepEqual(
    misses.map((miss) => miss.status),
    misses.map(() => 200),
  );
  t.is(reply.status, 503, JSON.stringify(reply.body));
  t.is(reply.body.error.code, 'render_failed');
  t.is(reply.headers.get('retry-after'), String(RENDER_RETENTION.failedAgeSeconds), 'refused for that long: the whole wait');
  t.regex(reply.body.error.message, /crashed or exceeded its memory or time budget/);

  const next = await postCard(gateway.url, API_KEY, { customTag: 'drawn by the replacement worker' });
  t.is(next.status, 200, JSON.stringify(next.body));
  const media = await fetch(next.body.url);
  t.is(media.status, 200);
  t.is(media.headers.get('content-type'), 'image/png');
  t.true(Buffer.from(await media.arrayBuffer()).subarray(1, 4).equals(Buffer.from('PNG')));

  t.is(gateway.process.child.exitCode, null, 'the gateway process never exited');
  t.is(gateway.process.child.pid, gatewayPid);
  const workers = childPids(gatewayPid);
  t.is(workers.length, 1, workers.map(commandLine).join(' / '));
  t.false(workers.includes(killedPid), 'a fresh worker replaced the crashed one');

  const lost = lostWorkers(gateway.process.output());
  t.is(lost.length, misses.length + 1, 'one worker lost per kill, none otherwise');
  t.like(lost.at(-1), { level: 50, pid: killedPid, cause: 'crashed', signal: 'SIGSEGV', hadCard: true });

  // The identical request is refused at once from memory: its image is not even fetched again.
  const fetchesBefore = images.requests.filter((requested) => requested === path).length;
  const again = await postCard(gateway.url, API_KEY, body);
  t.is(again.status, 503);
  t.is(again.body.error.code, 'render_failed');
  t.is(images.requests.filter((requested) => requested === path).length, fetchesBefore);
  t.is(childPids(gatewayPid).join(), workers.join(), 'no worker was lost to the repeat');
}
