import { DeadlineError } from '@utility-api/infra';
import { RENDER_FAILED, RENDER_RETENTION, RenderAbandonedError, type RenderJobPayload, type RenderJobResult } from '@utility-api/render-jobs';
import test from 'ava';
import { createRenderQueue, RequestGoneError, type RenderBackend } from '../../../services/gateway/src/cards/rendering/render-queue.ts';

const CARD: RenderJobResult = { ok: true, mediaKey: '0f8fad5b-d9cb-469f-a165-70867728950e', format: 'png', altText: 'Profile card for a Discord user.', width: 900, height: 300, bytes: 1, timings: {}, warnings: [] };
const UNUSABLE: RenderJobResult = { ok: false, failure: { code: 'image_unusable', status: 422, field: 'customBackground', detail: 'the image is empty' } };
/** Far beyond any run here: only the deadline test's 20 ms is meant to expire. */
const DEADLINE_MS = 10_000;
const payload = (customTag: string): RenderJobPayload => ({ userId: '302050872383242240', options: { customTag } });

/**
 * A backend answering each job with `answer` after `delayMs`, counting the jobs it ran. A job is
 * "drawn" from `drawingAfterMs` on: abandoned before that it is withdrawn (RenderAbandonedError),
 * after that it finishes anyway, as both real backends do. A job meant to be withdrawn is never
 * drawn (Infinity): a loaded machine can deliver the abandonment arbitrarily late.
 */
function fakeBackend(answer: RenderJobResult, delayMs = 10, drawingAfterMs = 0): RenderBackend & { runs: number; withdrawn: number; allSettled: () => Promise<unknown> } {
  // Every run's promise, as the queue holds it: once they have settled, so has the queue's own
  // bookkeeping (it listens to each run before any caller does).
  const started: Promise<unknown>[] = [];
  const draw = async (abandoned: AbortSignal) => {
    const startedAt = performance.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      abandoned.addEventListener('abort', () => {
        if (performance.now() - startedAt >= drawingAfterMs) return;
        clearTimeout(timer);
        backend.withdrawn += 1;
        reject(new RenderAbandonedError());
      });
    });
    return { result: answer, reused: false };
  };
  const backend = {
    runs: 0,
    withdrawn: 0,
    run(_jobId: string, _payload: RenderJobPayload, abandoned: AbortSignal) {
      backend.runs += 1;
      const run = draw(abandoned);
      started.push(run);
      return run;
    },
    allSettled: () => Promise.allSettled(started),
  };
  return backend;
}

test('identical requests share one run in flight, then the finished card answers from memory', async (t) => {
  const backend = fakeBackend(CARD);
  const queue = createRenderQueue(backend);
  const [first, second] = await Promise.all([queue.render(payload('a'), DEADLINE_MS), queue.render(payload('a'), DEADLINE_MS)]);
  t.deepEqual([first.reused, second.reused], [false, true]);
  t.deepEqual((await queue.render(payload('a'), DEADLINE_MS)).result, CARD);
  t.is(backend.runs, 1);
  await queue.render(payload('b'), DEADLINE_MS);
  t.is(backend.runs, 2, 'another card is another run');
});

test('a card that crashed its renderer is refused from memory; other failures are tried afresh', async (t) => {
  const crashing = fakeBackend({ ok: false, failure: RENDER_FAILED });
  const poisoned = createRenderQueue(crashing);
  const first = await poisoned.render(payload('a'), DEADLINE_MS);
  t.deepEqual(first.result, { ok: false, failure: RENDER_FAILED }, 'the failure itself says the whole wait');
  const again = await poisoned.render(payload('a'), DEADLINE_MS);
  t.deepEqual([again.reused, crashing.runs], [true, 1]);
  // The repeat says what is left of the wait (the endpoint rounds it up to whole seconds).
  const left = again.result.ok ? undefined : again.result.failure.retryAfterSeconds;
  t.true(left !== undefined && left < RENDER_RETENTION.failedAgeSeconds && left > RENDER_RETENTION.failedAgeSeconds - 5, `${left}`);
  t.like(again.result, { ok: false, failure: { code: 'render_failed', status: 503 } });

  // A failure whose wait is mostly over (another gateway's, read from Redis) is remembered only for what is left of it.
  const nearlyOver = createRenderQueue(fakeBackend({ ok: false, failure: { ...RENDER_FAILED, retryAfterSeconds: 0.05 } }));
  await nearlyOver.render(payload('a'), DEADLINE_MS);
  t.true(((await nearlyOver.render(payload('a'), DEADLINE_MS)).result as { failure: { retryAfterSeconds: number } }).failure.retryAfterSeconds <= 0.05);
  // Time has to pass here (the wait is 50 ms); a sleep is only a lower bound, so twice that is safe.
  await new Promise((resolve) => setTimeout(resolve, 100)); // sleep-ok: lets a 50 ms wait run out
  t.false((await nearlyOver.render(payload('a'), DEADLINE_MS)).reused, 'tried again once the wait is over');

  const refusing = fakeBackend(UNUSABLE);
  const queue = createRenderQueue(refusing);
  await queue.render(payload('a'), DEADLINE_MS);
  t.deepEqual((await queue.render(payload('a'), DEADLINE_MS)).result, UNUSABLE);
  t.is(refusing.runs, 2);
});

test('a caller past its deadline gets DeadlineError and its card, not drawn yet, is withdrawn', async (t) => {
  const backend = fakeBackend(CARD, 300, Infinity);
  const queue = createRenderQueue(backend);
  await t.throwsAsync(queue.render(payload('a'), 20), { instanceOf: DeadlineError });
  t.is(backend.withdrawn, 1, 'nobody waits for it: it leaves the queue');
  t.is(queue.inFlight, 0);
  const later = await queue.render(payload('a'), DEADLINE_MS);
  t.deepEqual([later.result, later.reused, backend.runs], [CARD, false, 2], 'asked again, it is drawn afresh');
});

test('a card already being drawn when its caller leaves is finished and answers the next request', async (t) => {
  const backend = fakeBackend(CARD, 200, 0);
  const queue = createRenderQueue(backend);
  await t.throwsAsync(queue.render(payload('a'), 20), { instanceOf: DeadlineError });
  const later = await queue.render(payload('a'), DEADLINE_MS);
  t.deepEqual([later.result, later.reused, backend.runs, backend.withdrawn], [CARD, true, 1, 0]);
});

test('a client that hangs up gets RequestGoneError; a card another caller still waits for is not withdrawn', async (t) => {
  const backend = fakeBackend(CARD, 200, Infinity);
  const queue = createRenderQueue(backend);
  const hangUp = new AbortController();
  const leaving = queue.render(payload('a'), DEADLINE_MS, 'key-1', hangUp.signal);
  const staying = queue.render(payload('a'), DEADLINE_MS, 'key-1');
  hangUp.abort();
  await t.throwsAsync(leaving, { instanceOf: RequestGoneError });
  const stayed = await staying;
  t.deepEqual([stayed.result, backend.runs, backend.withdrawn], [CARD, 1, 0]);

  // Alone, the client that hangs up takes its card out of the queue with it.
  const alone = new AbortController();
  const gone = queue.render(payload('b'), DEADLINE_MS, 'key-1', alone.signal);
  alone.abort();
  await t.throwsAsync(gone, { instanceOf: RequestGoneError });
  await backend.allSettled();
  t.deepEqual([backend.runs, backend.withdrawn, queue.inFlight], [2, 1, 0]);
});

test("a caller who joined a render later waits until its own deadline, not the first caller's", async (t) => {
  const backend = fakeBackend(CARD, 300, 0);
  const queue = createRenderQueue(backend);
  const first = queue.render(payload('a'), 100);
  t.is(backend.runs, 1, 'the first caller started the run');
  const joined = await queue.render(payload('a'), DEADLINE_MS);
  await t.throwsAsync(first, { instanceOf: DeadlineError });
  t.deepEqual([joined.result, joined.reused, backend.runs], [CARD, true, 1]);
});

test('a caller who joins a card that was withdrawn under it asks again within its own deadline', async (t) => {
  let runs = 0;
  const queue = createRenderQueue({
    async run(_jobId, _payload, abandoned) {
      runs += 1;
      // The first run is withdrawn as soon as it is abandoned; the second one answers.
      if (runs === 1) return new Promise((_, reject) => abandoned.addEventListener('abort', () => setTimeout(() => reject(new RenderAbandonedError()), 30)));
      return { result: CARD, reused: false };
    },
  });
  const first = queue.render(payload('a'), 20);
  await t.throwsAsync(first, { instanceOf: DeadlineError });
  // Joins the first run while its withdrawal is under way, then starts a second one.
  const joined = await queue.render(payload('a'), DEADLINE_MS);
  t.deepEqual([joined.result, runs], [CARD, 2]);
});
