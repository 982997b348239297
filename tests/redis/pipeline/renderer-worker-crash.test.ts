import { RENDER_RETENTION } from '@utility-api/render-jobs';
import test from 'ava';
import { startLocalStack, type LocalStack } from '../../../scripts/local-stack/local-stack.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { crashWorkerMidCard, lostWorkers, postCard, startHeavyImageServer } from '../../support/pipeline/worker-crash-scenario.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';
let stack: LocalStack;
let images: ImageServer;

test.before(async () => {
  images = await startHeavyImageServer();
  stack = await startLocalStack({
    renderers: 2,
    apiKeys: API_KEY,
    env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info', RENDER_WORKERS: '1' },
  });
  // A worker still warming up burns CPU too: the crash below must catch one drawing a card.
  await Promise.all(stack.renderers.map((renderer) => renderer.waitFor(/render worker ready/, 60_000)));
});

test.after.always(async () => {
  await stack?.stop();
  await images?.close();
});

const linesOf = (output: string, text: string) => output.split('\n').filter((line) => line.includes(text));

test('distributed: a card whose render worker is SIGSEGVed fails with 503 after one crash, not one per renderer', async (t) => {
  const rendererPids = stack.renderers.map((renderer) => renderer.child.pid!);
  const allOutput = () => stack.renderers.map((renderer) => renderer.output()).join('\n');
  const { killedPid, reply, body, path, misses } = await crashWorkerMidCard({ gatewayUrl: stack.gatewayUrl, apiKey: API_KEY, images, rendererPids, output: allOutput, customTag: 'crashes one worker' });
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

  const crashed = stack.renderers.find((renderer) => lostWorkers(renderer.output()).some((lost) => lost.pid === killedPid));
  t.truthy(crashed, 'a renderer logged the lost worker');
  const lost = lostWorkers(allOutput());
  t.is(lost.filter((line) => line.hadCard).length, 1, 'one worker crash with the card: the job was not handed to the other renderer');
  t.is(lost.length, misses.length + 1, 'one worker lost per kill, none otherwise');
  t.like(lost.find((line) => line.hadCard), { level: 50, pid: killedPid, cause: 'crashed', signal: 'SIGSEGV' });
  t.is(images.requests.filter((requested) => requested === path).length, 1, 'the heavy image was fetched by one renderer, once');

  // The identical request is refused from the failed job; no renderer draws it again.
  const again = await postCard(stack.gatewayUrl, API_KEY, body);
  t.is(again.status, 503);
  t.is(again.body.error.code, 'render_failed');
  t.is(images.requests.filter((requested) => requested === path).length, 1);

  // Both renderers are still up and the next cards are drawn, the crashed one's among them.
  for (const renderer of stack.renderers) t.is(renderer.child.exitCode, null, `${renderer.name} is still running`);
  const before = linesOf(crashed!.output(), '"card rendered"').length;
  for (let card = 0; linesOf(crashed!.output(), '"card rendered"').length === before; card += 1) {
    const next = await postCard(stack.gatewayUrl, API_KEY, { customTag: `after the crash ${card}` });
    t.is(next.status, 200, JSON.stringify(next.body));
    const media = await fetch(next.body.url);
    t.is(media.status, 200);
    t.is(media.headers.get('content-type'), 'image/png');
  }
});
