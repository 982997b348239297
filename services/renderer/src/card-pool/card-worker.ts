import { parentPort } from 'node:worker_threads';
import { CardImageError, prepareCardFonts, renderCard, warmUpCardRenderer, type CardInput } from '@utility-api/card';
import type { RenderTask, RenderTaskOutcome } from './pool-messages.ts';

/** A render thread: fonts once, then one card per message, the PNG's memory moved back, not copied. */
if (!parentPort) throw new Error('card-worker.ts must run as a worker thread');
const port = parentPort;
prepareCardFonts();
// The first card of a thread would otherwise pay for font loading and static assets.
await warmUpCardRenderer();

function asBuffer(bytes: Uint8Array | undefined): Buffer | undefined {
  return bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Structured clone turned every Buffer into a Uint8Array; the card package wants Buffers. */
function revive(input: CardInput): CardInput {
  const profile = input.profile;
  return {
    ...input,
    profile: {
      ...profile,
      avatar: asBuffer(profile.avatar),
      banner: asBuffer(profile.banner),
      avatarDecoration: asBuffer(profile.avatarDecoration),
    },
    images: {
      background: asBuffer(input.images?.background),
      customBadges: input.images?.customBadges?.map((bytes) => asBuffer(bytes)!),
    },
  };
}

port.on('message', (task: RenderTask) => {
  renderCard(revive(task.input)).then(
    (card) => {
      const png = new Uint8Array(card.png.buffer, card.png.byteOffset, card.png.byteLength);
      const outcome: RenderTaskOutcome = { id: task.id, ok: true, png, width: card.width, height: card.height, timings: card.timings, warnings: card.warnings };
      // Only transfer a buffer the PNG owns alone; a pooled slab would take other bytes with it.
      const transferable = png.byteOffset === 0 && png.byteLength === png.buffer.byteLength;
      port.postMessage(outcome, transferable ? [png.buffer as ArrayBuffer] : []);
    },
    (error: unknown) => {
      const outcome: RenderTaskOutcome =
        error instanceof CardImageError
          ? { id: task.id, ok: false, imageError: { reason: error.reason, field: error.field, message: error.message }, message: error.message }
          : { id: task.id, ok: false, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(outcome);
    },
  );
});
