import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { CardImageError, type CardInput } from '@utility-api/card';
import { RenderAbandonedError } from '@utility-api/render-jobs';
import { createLogger } from '@utility-api/infra';
import { createCardRenderPool, RenderPoolClosedError, RenderWorkerLostError, type CardRenderPool, type CardRenderPoolOptions } from '../../../packages/render-engine/src/card-pool/card-render-pool.ts';
import { readProcessUsage } from '../../../packages/render-engine/src/card-pool/render-worker-process.ts';
import { animatedImage, heavyProgressiveJpeg } from '../../fixtures/images.ts';

const PROFILE = { userId: '175928847299117063', username: 'pool.test' };
const LIGHT: CardInput = { profile: PROFILE, options: { customTag: 'light' } };
const MB = 1024 * 1024;
const DEFAULTS = { size: 1, memoryLimitBytes: 512 * MB, timeBudgetMs: 5000 };
const NO_LOSSES = { crashed: 0, memory: 0, cpu: 0, 'wall-clock': 0 };

/** A card whose background decodes to 64 MB and takes a worker hundreds of milliseconds. */
const heavyCard = (variant: number): CardInput => ({
  profile: PROFILE,
  options: { customBackground: `https://images.example/${variant}.jpg` },
  images: { background: heavyProgressiveJpeg(variant) },
});

const pools: CardRenderPool[] = [];
function startPool(options: Partial<CardRenderPoolOptions> = {}): { pool: CardRenderPool; logs: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const logger = createLogger({ service: 'pool-test', level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  const pool = createCardRenderPool({ ...DEFAULTS, logger, ...options });
  pools.push(pool);
  return { pool, logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

test.after.always(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

const onlyWorker = (pool: CardRenderPool) => {
  if (pool.workers.length !== 1) throw new Error(`expected one worker, found ${pool.workers.length}`);
  return pool.workers[0]!;
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('cards come back as PNG Buffers drawn in a separate process with the pool settings applied', async (t) => {
  const { pool } = startPool();
  const card = await pool.render(LIGHT);
  t.true(Buffer.isBuffer(card.image));
  t.is(card.format, 'png');
  t.deepEqual([card.width, card.height], [900, 300]);
  t.true(card.timings.draw > 0);
  const { pid } = onlyWorker(pool);
  t.not(pid, process.pid);
  const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  t.true(environment.includes('MALLOC_ARENA_MAX=2'));
  const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  t.true(commandLine.includes('--max-old-space-size=256'), commandLine.join(' '));
});

test('an unusable image is a CardImageError naming the field once, not a lost worker', async (t) => {
  const { pool } = startPool();
  const error = await t.throwsAsync(
    pool.render({ profile: PROFILE, options: { customBackground: 'https://images.example/x.png' }, images: { background: Buffer.from('not an image at all') } }),
  );
  t.true(error instanceof CardImageError, String(error));
  const imageError = error as CardImageError;
  t.is(imageError.field, 'customBackground');
  t.regex(imageError.message, /^customBackground: /);
  t.false(imageError.message.startsWith('customBackground: customBackground:'));
  t.deepEqual(pool.workersLost, NO_LOSSES);
});

test('a worker SIGSEGVed mid-card costs that card only: the next card is drawn by a fresh worker', async (t) => {
  const { pool, logs } = startPool();
  await pool.render(LIGHT);
  const pending = pool.render(heavyCard(1));
  const drawing = onlyWorker(pool);
  t.true(drawing.busy, 'the heavy card went straight to the idle worker');
  process.kill(drawing.pid, 'SIGSEGV');

  const error = await t.throwsAsync(pending, { instanceOf: RenderWorkerLostError });
  t.is(error?.cause, 'crashed');
  t.is((error).signal, 'SIGSEGV');
  t.is((error).pid, drawing.pid);

  const next = await pool.render(LIGHT);
  t.deepEqual([next.width, next.height], [900, 300]);
  t.not(onlyWorker(pool).pid, drawing.pid);
  t.false(isAlive(drawing.pid));
  t.deepEqual(pool.workersLost, { ...NO_LOSSES, crashed: 1 });
  const lost = logs().filter((entry) => entry.msg === 'render worker lost; starting a replacement');
  t.is(lost.length, 1);
  t.like(lost[0], { level: 50, pid: drawing.pid, cause: 'crashed', signal: 'SIGSEGV', hadCard: true });
  t.is(typeof lost[0]!.rssBytes, 'number');
});

test('a worker whose card takes it over the memory ceiling is killed and the card fails with cause memory', async (t) => {
  // Measure an idle worker first, then give the pool a ceiling 32 MB above it: the heavy card's
  // decoded background alone is 64 MB (4000 x 4000 x 4 bytes), so it must cross the ceiling.
  const probe = startPool();
  await probe.pool.render(LIGHT);
  const idle = await readProcessUsage(onlyWorker(probe.pool).pid);
  await probe.pool.close();
  t.truthy(idle);
  // Recycling (default: above 60 % of the ceiling, which a warm worker already is here) kept out
  // of it: the replacement it starts would stand beside the worker this test follows.
  const { pool, logs } = startPool({ memoryLimitBytes: idle!.rssBytes + 32 * MB, recycleAboveBytes: idle!.rssBytes + 32 * MB });
  // A fresh worker takes the heavy card, as the idle one was measured: one that drew a card first
  // starts from another resident size.
  await pool.warmUp();
  const before = onlyWorker(pool).pid;

  const error = await t.throwsAsync(pool.render(heavyCard(2)), { instanceOf: RenderWorkerLostError });
  t.is(error?.cause, 'memory');
  t.is((error).signal, 'SIGKILL');
  t.deepEqual(pool.workersLost, { ...NO_LOSSES, memory: 1 });
  const lost = logs().find((entry) => entry.msg === 'render worker lost; starting a replacement');
  t.true(Number(lost?.rssBytes) > idle!.rssBytes + 32 * MB, JSON.stringify(lost));

  await pool.render(LIGHT);
  t.not(onlyWorker(pool).pid, before);
});

test('a card that uses more CPU time than its budget is abandoned and its worker replaced', async (t) => {
  // 1 ms of CPU is far below what this card takes (it decodes 16 MP); the wall clock is left out
  // of it (a backstop of a minute).
  const { pool, logs } = startPool({ timeBudgetMs: 1, wallClockFactor: 60_000 });
  // The pool starts its worker for this card, which waits for it to be ready: then it is drawn.
  const pending = pool.render(heavyCard(3));
  const before = onlyWorker(pool).pid;
  const error = await t.throwsAsync(pending, { instanceOf: RenderWorkerLostError });
  t.is(error?.cause, 'cpu');
  t.is((error).pid, before);
  t.is((error).signal, 'SIGKILL');
  const lost = logs().find((entry) => entry.msg === 'render worker lost; starting a replacement');
  t.like(lost, { cause: 'cpu', hadCard: true });
  t.true(Number(lost?.cardCpuMs) > 1, JSON.stringify(lost));
  while (pool.workers.length === 0) await sleep(20);
  t.not(onlyWorker(pool).pid, before);
  t.deepEqual(pool.workersLost, { ...NO_LOSSES, cpu: 1 });
});

/** The card's worker, once it has been handed the card (a fresh pool first starts its worker). */
async function workerOnceDrawing(pool: CardRenderPool) {
  while (pool.workers[0]?.busy !== true) await sleep(5);
  return onlyWorker(pool);
}

test('a card whose worker is stopped for longer than the CPU budget still comes back: it used little CPU', async (t) => {
  // The budget is several times the CPU this card takes (it decodes 16 MP in a few hundred ms), and
  // the pause twice the budget but far below the wall-clock backstop (ten times the budget).
  const budgetMs = 3000;
  const { pool } = startPool({ timeBudgetMs: budgetMs, wallClockFactor: 10 });
  const pending = pool.render(heavyCard(7));
  const { pid } = await workerOnceDrawing(pool);
  // As a loaded machine does to a worker, only more so: no CPU at all for two budgets.
  process.kill(pid, 'SIGSTOP');
  // sleep-ok: the condition under test (a worker stopped for two budgets), not a wait for nothing to happen.
  await sleep(budgetMs * 2);
  process.kill(pid, 'SIGCONT');
  const card = await pending;
  t.deepEqual([card.width, card.height], [900, 300]);
  t.is(onlyWorker(pool).pid, pid, 'the same worker, never killed');
  t.deepEqual(pool.workersLost, NO_LOSSES);
});

test('a card whose worker uses no CPU past the wall-clock backstop is abandoned with cause wall-clock', async (t) => {
  // A stopped worker uses no CPU at all: only the backstop (2 x 1 s) ends its card.
  const { pool, logs } = startPool({ timeBudgetMs: 1000, wallClockFactor: 2 });
  const pending = pool.render(heavyCard(8));
  const { pid } = await workerOnceDrawing(pool);
  process.kill(pid, 'SIGSTOP');
  const error = await t.throwsAsync(pending, { instanceOf: RenderWorkerLostError });
  t.is(error?.cause, 'wall-clock');
  t.is((error).pid, pid);
  t.is((error).signal, 'SIGKILL');
  t.false(isAlive(pid));
  t.like(logs().find((entry) => entry.msg === 'render worker lost; starting a replacement'), { cause: 'wall-clock', pid });
  t.deepEqual(pool.workersLost, { ...NO_LOSSES, 'wall-clock': 1 });
});

test('a worker above the recycling threshold after a card answers it, then is replaced without counting a loss', async (t) => {
  // Any worker is above 1 byte: every card retires its worker.
  const { pool, logs } = startPool({ recycleAboveBytes: 1 });
  const first = await pool.render(LIGHT);
  t.is(first.width, 900);
  // Retired once its replacement is ready: the pool logs the exit a moment after.
  const recycledLog = () => logs().find((entry) => String(entry.msg).startsWith('render worker recycled'));
  while (recycledLog() === undefined) await sleep(20);
  const recycled = recycledLog();
  t.false(isAlive(Number(recycled!.pid)));
  const second = await pool.render(LIGHT);
  t.is(second.width, 900);
  t.false(pool.workers.some((worker) => worker.pid === recycled!.pid));
  // The second card retires its worker too.
  while (pool.workersRecycled < 2) await sleep(20);
  t.deepEqual(pool.workersLost, NO_LOSSES);
});

test('a card asked for while its worker is due for recycling is drawn by that worker, not after the replacement starts', async (t) => {
  const { pool } = startPool({ recycleAboveBytes: 1 });
  pool.warmUp();
  while (pool.readyWorkers < 1) await sleep(20);
  const [first] = pool.workers;
  await pool.render(LIGHT);
  // The replacement is starting beside the worker that drew the card, which is still ready.
  const replacement = pool.workers.find((worker) => worker.pid !== first!.pid);
  t.truthy(replacement);
  t.false(replacement!.ready);
  t.deepEqual(pool.workers.find((worker) => worker.pid === first!.pid), { pid: first!.pid, busy: false, ready: true, retiring: true });
  // Taken at once (the pool hands out cards as they arrive) by the worker already running.
  const second = pool.render(LIGHT);
  t.deepEqual(pool.workers.filter((worker) => worker.busy).map((worker) => worker.pid), [first!.pid]);
  t.is((await second).width, 900);
  t.deepEqual(pool.workersLost, NO_LOSSES);
});

test('through recycling after every card, a pool of two never has fewer than two ready workers', async (t) => {
  // Every card starts a worker (1.5-3 s each on a free core, far more on a busy one).
  t.timeout(240_000);
  const size = 2;
  const cardCount = 6;
  const readyAt: number[] = [];
  const lines: string[] = [];
  // pino writes each line synchronously as the pool logs it: every worker start, readiness and
  // retirement is an event at which the count is read.
  const watched: { pool?: CardRenderPool } = {};
  const logger = createLogger({ service: 'pool-test', level: 'info', destination: { write: (line: string) => {
    lines.push(line);
    if (watched.pool !== undefined) readyAt.push(watched.pool.readyWorkers);
  } } });
  const pool = createCardRenderPool({ ...DEFAULTS, size, logger, recycleAboveBytes: 1 });
  watched.pool = pool;
  pools.push(pool);
  pool.warmUp();
  while (pool.readyWorkers < size) await sleep(20);
  readyAt.length = 0;
  const cards = Array.from({ length: cardCount }, (_, index) => pool.render(LIGHT, undefined, undefined, { tenant: `key-${index % 3}` }));
  // Counted also as each card comes back.
  const drawn = await Promise.all(cards.map((card) => card.then((result) => (readyAt.push(pool.readyWorkers), result))));
  t.true(drawn.every((card) => card.width === 900));
  // A worker may draw several cards while its replacement starts: it is retired once.
  while (pool.workers.some((worker) => worker.retiring)) await sleep(20);
  t.true(pool.workersRecycled >= 1);
  t.is(pool.workers.length, size);
  t.true(readyAt.length > cardCount);
  t.is(Math.min(...readyAt), size, `ready workers at each event: ${readyAt.join(' ')}`);
  t.deepEqual(pool.workersLost, NO_LOSSES);
  t.true(lines.length > 0);
});

test('with the default threshold, ordinary and heavy cards leave the worker in place', async (t) => {
  const { pool } = startPool();
  await pool.render(LIGHT);
  const { pid } = onlyWorker(pool);
  for (const variant of [5, 6]) await pool.render(heavyCard(variant));
  for (let index = 0; index < 3; index += 1) await pool.render({ ...LIGHT, options: { customTag: `ordinary ${index}` } });
  t.is(onlyWorker(pool).pid, pid);
  t.is(pool.workersRecycled, 0);
});

test('an animated card has its own time budget: the still budget does not cut it short, and its own does', async (t) => {
  const background = await animatedImage('gif', { width: 300, height: 100 }, ['#ff0000', '#00ff00'], [100, 100]);
  const moving: CardInput = { profile: PROFILE, options: { customBackground: 'https://images.example/moving.gif', animated: true }, images: { background } };
  // A still budget no card meets, and room for the animation: the animated card comes back whole.
  // The wall-clock backstop is left out of it: only CPU time is under test.
  const generous = startPool({ timeBudgetMs: 1, animatedTimeBudgetMs: 30_000, wallClockFactor: 60_000 }).pool;
  const card = await generous.render(moving, 'png', 'gif');
  t.is(card.format, 'gif');
  t.deepEqual(card.animation, { animated: true, frames: 2, delaysMs: [100, 100] });
  const strict = startPool({ timeBudgetMs: 30_000, animatedTimeBudgetMs: 1, wallClockFactor: 60_000 }).pool;
  const error = await t.throwsAsync(strict.render(moving, 'png', 'webp'), { instanceOf: RenderWorkerLostError });
  t.is(error?.cause, 'cpu');
  // The same card asked for still draws within the still budget.
  while (strict.workers.length === 0) await sleep(20);
  t.is((await strict.render(moving, 'png')).animation, undefined);
});

test('an animated card where nothing moves comes back as the still card in the still format, saying so', async (t) => {
  const { pool } = startPool();
  const card = await pool.render({ ...LIGHT, options: { ...LIGHT.options, animated: true } }, 'webp', 'gif');
  t.is(card.format, 'webp');
  t.deepEqual(card.animation, { animated: false, frames: 1, delaysMs: [] });
  t.is(card.image.subarray(8, 12).toString('latin1'), 'WEBP');
});

test('an idle worker that dies is replaced without failing any card', async (t) => {
  const { pool } = startPool();
  await pool.render(LIGHT);
  const idle = onlyWorker(pool).pid;
  process.kill(idle, 'SIGKILL');
  while (pool.workers.length !== 1 || onlyWorker(pool).pid === idle) await sleep(20);
  const card = await pool.render(LIGHT);
  t.is(card.width, 900);
  t.deepEqual(pool.workersLost, { ...NO_LOSSES, crashed: 1 });
});

test('a worker that does not become ready by its start deadline is killed and started again, with backoff', async (t) => {
  // No worker can load fonts and draw its warm-up card in 1 ms: every start is cut short.
  const { pool, logs } = startPool({ startDeadlineMs: 1 });
  pool.warmUp();
  const diedStarting = () => logs().filter((line) => line.msg === 'render worker died while starting');
  while (diedStarting().length < 2) await sleep(20);
  t.is(pool.workersLost.crashed, diedStarting().length);
  t.false(logs().some((line) => line.msg === 'render worker ready'));
  t.like(diedStarting()[1], { signal: 'SIGKILL', failedStartsInARow: 2 });
});

test('close() kills the workers and rejects cards drawing and waiting with RenderPoolClosedError', async (t) => {
  const { pool } = startPool();
  await pool.render(LIGHT);
  const worker = onlyWorker(pool).pid;
  const drawing = pool.render(heavyCard(4));
  const waiting = pool.render(LIGHT);
  t.is(pool.load, 2);
  await pool.close();
  await t.throwsAsync(drawing, { instanceOf: RenderPoolClosedError });
  await t.throwsAsync(waiting, { instanceOf: RenderPoolClosedError });
  await t.throwsAsync(pool.render(LIGHT), { instanceOf: RenderPoolClosedError });
  t.deepEqual(pool.workers, []);
  t.false(isAlive(worker));
  t.deepEqual(pool.workersLost, NO_LOSSES, 'closing is not a loss');
});

/** A light card of its own (distinct text), for tests about the order cards are drawn in. */
const named = (name: string): CardInput => ({ profile: PROFILE, options: { customTag: name } });
/** Order tests are about scheduling, not budgets: a loaded machine must not cut a card short. */
const PATIENT = { timeBudgetMs: 60_000 };

test("a key's cards queue behind its own: another key's card is drawn next, before the first key's waiting cards", async (t) => {
  const { pool } = startPool(PATIENT);
  await pool.render(LIGHT);
  const finished: string[] = [];
  const track = (name: string, tenant: string) => pool.render(named(name), 'png', undefined, { tenant }).then(() => finished.push(name));
  // Key A takes the only worker and queues three more; key B then asks for one card.
  const cards = [track('a0', 'key-a'), track('a1', 'key-a'), track('a2', 'key-a'), track('a3', 'key-a'), track('b', 'key-b')];
  t.is(pool.waiting, 4, "three of A's cards and B's wait");
  await Promise.all(cards);
  t.deepEqual(finished, ['a0', 'b', 'a1', 'a2', 'a3'], "B's card waits for the card A has drawing, not for A's queue");
});

test('keys waiting together are served round robin, newcomers first, then oldest card first', async (t) => {
  const { pool } = startPool(PATIENT);
  await pool.render(LIGHT);
  const finished: string[] = [];
  const track = (name: string, tenant: string) => pool.render(named(name), 'png', undefined, { tenant }).then(() => finished.push(name));
  const cards = [track('a0', 'a'), track('a1', 'a'), track('a2', 'a'), track('a3', 'a'), track('b0', 'b'), track('c0', 'c'), track('b1', 'b')];
  await Promise.all(cards);
  t.deepEqual(finished, ['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'a3']);
});

test('with two workers, a key that holds both gets no more while another key waits', async (t) => {
  const { pool } = startPool({ ...PATIENT, size: 2 });
  await Promise.all([pool.render(LIGHT), pool.render(LIGHT)]);
  t.is(pool.workers.length, 2);
  // What waits, per key, the moment each card is answered (the pool hands out the freed worker first).
  const waitingAtEachAnswer: Record<string, number>[] = [];
  const track = (name: string, tenant: string) => pool.render(named(name), 'png', undefined, { tenant }).then(() => waitingAtEachAnswer.push(pool.waitingByTenant));
  const cards = [track('a0', 'a'), track('a1', 'a'), track('a2', 'a'), track('a3', 'a'), track('b0', 'b')];
  t.is(pool.waitingByTenant.b, 1);
  await Promise.all(cards);
  // Whenever the second worker became ready, A held a worker and B none: B's card went next.
  t.is(waitingAtEachAnswer[0]!.b, undefined, JSON.stringify(waitingAtEachAnswer));
  t.true(waitingAtEachAnswer[0]!.a! >= 1, "while A's later cards still waited");
});

test('a card withdrawn while it waits is never drawn and rejects with RenderAbandonedError; one drawing is finished', async (t) => {
  const { pool } = startPool(PATIENT);
  await pool.render(LIGHT);
  const drawingCaller = new AbortController();
  const waitingCaller = new AbortController();
  const drawing = pool.render(named('drawing'), 'png', undefined, { tenant: 'a', signal: drawingCaller.signal });
  const waiting = pool.render(named('waiting'), 'png', undefined, { tenant: 'a', signal: waitingCaller.signal });
  t.is(pool.waiting, 1);
  drawingCaller.abort();
  waitingCaller.abort();
  await t.throwsAsync(waiting, { instanceOf: RenderAbandonedError });
  t.is(pool.waiting, 0, 'it left the queue at once');
  const drawn = await drawing;
  t.true(Buffer.isBuffer(drawn.image), 'a card being drawn is finished: its result answers later identical requests');
  const already = new AbortController();
  already.abort();
  await t.throwsAsync(pool.render(LIGHT, 'png', undefined, { signal: already.signal }), { instanceOf: RenderAbandonedError });
  t.is(pool.load, 0);
});

test('under a pool budget, animated cards beyond animatedAtOnce wait while still cards keep drawing beside them', async (t) => {
  const { pool } = startPool({ ...PATIENT, size: 2, poolMemoryLimitBytes: 1024 * MB, animatedAtOnce: 1 });
  await Promise.all([pool.render(LIGHT), pool.render(LIGHT)]);
  const moving = await animatedImage('webp', { width: 300, height: 100 }, ['#c0392b', '#2980b9'], [100, 100]);
  const animated = (name: string): CardInput => ({ profile: PROFILE, options: { customTag: name, animated: true, customBackground: 'https://images.example/moving.webp' }, images: { background: moving } });
  const answered: string[] = [];
  const track = (name: string, tenant: string) =>
    pool.render(animated(name), 'png', 'webp', { tenant }).then((card) => {
      answered.push(name);
      return card;
    });
  const first = track('first', 'a');
  const second = track('second', 'b');
  const still = pool.render(named('still'), 'png', undefined, { tenant: 'c' }).then(() => answered.push('still'));
  t.is(pool.waitingByTenant.b, 1, 'the second animated card waits though a worker may be free');
  const [one, two] = await Promise.all([first, second, still]);
  t.deepEqual([one.animation?.animated, two.animation?.animated], [true, true]);
  t.true(answered.indexOf('first') < answered.indexOf('second'), answered.join(' '));
});

test('one key draws animated cards on all workers but one: the last worker stays for other keys', async (t) => {
  const { pool } = startPool({ ...PATIENT, size: 2 });
  await Promise.all([pool.render(LIGHT), pool.render(LIGHT)]);
  t.is(pool.animatedPerTenant, 1);
  const moving = await animatedImage('webp', { width: 300, height: 100 }, ['#16a085', '#d35400'], [100, 100]);
  const animated = (name: string): CardInput => ({ profile: PROFILE, options: { customTag: name, animated: true, customBackground: 'https://images.example/moving.webp' }, images: { background: moving } });
  const waitingWhenQuietAnswered: Record<string, number>[] = [];
  const noisy = [pool.render(animated('a0'), 'png', 'webp', { tenant: 'a' }), pool.render(animated('a1'), 'png', 'webp', { tenant: 'a' })];
  const quiet = pool.render(named('b0'), 'png', undefined, { tenant: 'b' }).then(() => waitingWhenQuietAnswered.push(pool.waitingByTenant));
  t.is(pool.waitingByTenant.a, 1, "A's second animated card waits though a worker is free");
  await Promise.all([...noisy, quiet]);
  t.is(waitingWhenQuietAnswered.length, 1);
});
