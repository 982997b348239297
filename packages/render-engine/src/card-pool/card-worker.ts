import { CardImageError, prepareCardFonts, renderAnimatedCard, renderCard, renderLeaderboardCard, warmUpCardRenderer } from '@utility-api/card';
import { encodeCardImage } from './card-formats.ts';
import { isLeaderboardInput, reviveCardInput, type RenderTask, type RenderTaskOutcome, type WorkerMessage } from './pool-messages.ts';

/**
 * A render worker process, forked by the card render pool: fonts and a warm-up card once, then one
 * card per task. A native crash or runaway allocation here kills this process only; the pool
 * notices, fails that one card and starts a replacement.
 */
if (!process.send) throw new Error('card-worker.ts must be forked by the card render pool (it needs an IPC channel)');
const send = (message: WorkerMessage, then?: () => void) => process.send!(message, undefined, {}, then);

// Without its pool this process has no purpose; a pool killed with SIGKILL must not leave it behind.
process.on('disconnect', () => process.exit(0));
// Ctrl-C in a terminal signals the whole process group: the pool, still draining cards on its way
// out, decides when its workers end (it kills them when it closes).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});

/** Fonts and a throwaway card; false when the process cannot draw (it then reports why and exits). */
async function prepare(): Promise<boolean> {
  try {
    // Every worker is its own main thread, so it isolates fontconfig for itself (see card-fonts).
    prepareCardFonts();
    // The first card of a process would otherwise pay for font loading and static assets.
    await warmUpCardRenderer();
    return true;
  } catch (error) {
    send({ type: 'failed-to-start', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
    return false;
  }
}

/**
 * The card drawn as PNG, then re-encoded here when another format was asked for. An animation is
 * encoded by the card package itself; when nothing moves it hands back the still PNG, which then
 * takes the still format like any card.
 */
async function drawAndEncode(task: RenderTask): Promise<Omit<Extract<RenderTaskOutcome, { ok: true }>, 'id' | 'ok'>> {
  const input = reviveCardInput(task.input);
  if (isLeaderboardInput(input)) {
    // Never animated: the endpoint offers no `animated`, so a leaderboard task carries none.
    const board = await renderLeaderboardCard(input);
    const started = performance.now();
    const encoded = await encodeCardImage(board.png, task.format);
    return { image: encoded, format: task.format, width: board.width, height: board.height, timings: { ...board.timings, encode: board.timings.encode + performance.now() - started }, warnings: board.warnings, accentColor: board.accentColor };
  }
  if (task.animation !== undefined) {
    const card = await renderAnimatedCard(input, { format: task.animation });
    const { width, height, warnings, frames, delaysMs, accentColor } = card;
    const animation = { animated: card.animated, frames, delaysMs };
    // Every frame draws all steps: the per-step times of a still card have no counterpart here.
    if (card.animated) return { image: card.bytes, format: card.format, width, height, timings: { ...card.timings, steps: {} }, warnings, accentColor, animation };
    const started = performance.now();
    const encoded = await encodeCardImage(card.bytes, task.format);
    const timings = { ...card.timings, steps: {}, encode: card.timings.encode + performance.now() - started };
    return { image: encoded, format: task.format, width, height, timings, warnings, accentColor, animation };
  }
  const card = await renderCard(input);
  const started = performance.now();
  const encoded = await encodeCardImage(card.png, task.format);
  const timings = { ...card.timings, encode: card.timings.encode + performance.now() - started };
  return { image: encoded, format: task.format, width: card.width, height: card.height, timings, warnings: card.warnings, accentColor: card.accentColor };
}

/** One card per task; the pool sends the next only after this one's outcome. */
function drawOnRequest(): void {
  process.on('message', (task: RenderTask) => {
    drawAndEncode(task).then(
      (card) => {
        send({ type: 'outcome', outcome: { id: task.id, ok: true, ...card } });
      },
      (error: unknown) => {
        const outcome: RenderTaskOutcome =
          error instanceof CardImageError
            ? { id: task.id, ok: false, imageError: { reason: error.reason, field: error.field, detail: error.detail }, message: error.message }
            : { id: task.id, ok: false, message: error instanceof Error ? error.message : String(error) };
        send({ type: 'outcome', outcome });
      },
    );
  });
}

if (await prepare()) {
  drawOnRequest();
  send({ type: 'ready' });
}
