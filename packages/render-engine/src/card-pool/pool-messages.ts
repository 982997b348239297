import type { CardAnimationFormat, CardImageErrorReason, CardInput, LeaderboardInput, RenderedCard } from '@utility-api/card';
import type { MediaFormat } from '@utility-api/render-jobs';

/**
 * A drawn card as the pool hands it back, encoded in the format asked for (the worker encodes, so
 * no event loop does); `timings.encode` covers the PNG and any re-encoding. Where each text went
 * stays in the worker.
 */
export type PooledCard = Omit<RenderedCard, 'texts' | 'png'> & {
  image: Buffer;
  format: MediaFormat;
  /** Set when the task asked for an animation: whether the card moves, and its frames (1 when still). */
  animation?: { animated: boolean; frames: number; delaysMs: number[] } | undefined;
};

/**
 * What crosses the IPC channel between the pool and its worker processes. The channel uses
 * advanced (structured clone) serialization, so Buffers arrive on the other side as plain
 * Uint8Arrays: `reviveCardInput` and `asBuffer` turn them back into the Buffers the card wants.
 */
export interface RenderTask {
  id: number;
  /** A profile card, or a leaderboard (`kind: 'leaderboard'`). */
  input: CardInput | LeaderboardInput;
  /** The still card's format; with `animation`, the format used only when nothing moves. */
  format: MediaFormat;
  /** Draw the card moving when a source does (`renderAnimatedCard`), encoded as this. */
  animation?: CardAnimationFormat | undefined;
}

export type RenderTaskOutcome =
  | ({ id: number; ok: true } & Omit<PooledCard, 'image'> & { image: Uint8Array })
  /** A CardImageError keeps its parts (`imageError`); any other error is only its message. */
  | { id: number; ok: false; imageError?: { reason: CardImageErrorReason; field: string; detail: string }; message: string };

/** Worker to pool: started (fonts and canvas warm), could not start, or a card's outcome. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed-to-start'; message: string }
  | { type: 'outcome'; outcome: RenderTaskOutcome };

export function asBuffer<Bytes extends Uint8Array | undefined>(bytes: Bytes): Buffer | Exclude<Bytes, Uint8Array> {
  if (bytes === undefined || Buffer.isBuffer(bytes)) return bytes as Buffer | Exclude<Bytes, Uint8Array>;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function isLeaderboardInput(input: CardInput | LeaderboardInput): input is LeaderboardInput {
  return 'kind' in input && input.kind === 'leaderboard';
}

/** The card input as the worker received it, with every image byte array a Buffer again. */
export function reviveCardInput<Input extends CardInput | LeaderboardInput>(input: Input): Input;
export function reviveCardInput(input: CardInput | LeaderboardInput): CardInput | LeaderboardInput {
  if (isLeaderboardInput(input)) return { ...input, avatars: input.avatars.map((bytes) => asBuffer(bytes)), guildIcon: asBuffer(input.guildIcon), background: asBuffer(input.background) };
  const { profile, images } = input;
  return {
    ...input,
    profile: {
      ...profile,
      avatar: asBuffer(profile.avatar),
      banner: asBuffer(profile.banner),
      avatarDecoration: asBuffer(profile.avatarDecoration),
      ...(profile.nameplate && { nameplate: { ...profile.nameplate, image: asBuffer(profile.nameplate.image) } }),
      ...(profile.serverTag && { serverTag: { ...profile.serverTag, badge: asBuffer(profile.serverTag.badge) } }),
    },
    images: { background: asBuffer(images?.background), avatar: asBuffer(images?.avatar), customBadges: images?.customBadges?.map((bytes) => asBuffer(bytes)) },
  };
}
