import type { CardImageErrorReason, CardInput } from '@utility-api/card';

/**
 * What crosses the IPC channel between the pool and its worker processes. The channel uses
 * advanced (structured clone) serialization, so Buffers arrive on the other side as plain
 * Uint8Arrays: `reviveCardInput` and `asBuffer` turn them back into the Buffers the card wants.
 */
export interface RenderTask {
  id: number;
  input: CardInput;
}

export interface RenderTimings {
  prepare: number;
  draw: number;
  encode: number;
  steps: Record<string, number>;
}

export type RenderTaskOutcome =
  | { id: number; ok: true; png: Uint8Array; width: number; height: number; timings: RenderTimings; warnings: string[] }
  /** `imageError.detail` is the sentence without the `field: ` prefix CardImageError adds to its message. */
  | { id: number; ok: false; imageError?: { reason: CardImageErrorReason; field: string; detail: string }; message: string };

/** Worker to pool: started (fonts and canvas warm), could not start, or a card's outcome. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed-to-start'; message: string }
  | { type: 'outcome'; outcome: RenderTaskOutcome };

export function asBuffer(bytes: Uint8Array): Buffer;
export function asBuffer(bytes: Uint8Array | undefined): Buffer | undefined;
export function asBuffer(bytes: Uint8Array | undefined): Buffer | undefined {
  if (bytes === undefined || Buffer.isBuffer(bytes)) return bytes;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The card input as the worker received it, with every image byte array a Buffer again. */
export function reviveCardInput(input: CardInput): CardInput {
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
      customBadges: input.images?.customBadges?.map((bytes) => asBuffer(bytes)),
    },
  };
}
