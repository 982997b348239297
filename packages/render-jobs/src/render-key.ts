import { createHash } from 'node:crypto';
import { DEFAULT_MEDIA_FORMAT } from './media-names.ts';
import type { RenderJobPayload } from './render-job-payload.ts';

/**
 * Bumped whenever the card's look changes, so requests made after a deploy are not answered with a
 * card drawn by the old design.
 */
const CARD_DESIGN_VERSION = 2;

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` name the same render. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** Formats 16 bytes of a hash as an RFC 9562 version 8 (custom) UUID. */
function uuidFromDigest(digest: Buffer): string {
  const bytes = Buffer.from(digest.subarray(0, 16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The job id for a render request: the same user, options and format give the same id, so
 * identical requests in flight (or finished recently) share one render, and each format of a card
 * is its own render (and its own stored image). `requester` (the API key's id) scopes the sharing
 * to one key: another key's identical request is drawn afresh, so it cannot learn (from
 * `X-Card-Render: reused` or a 1 ms answer) which cards someone else just asked for. Never all
 * digits: BullMQ reserves numeric ids for its own counter.
 */
export function renderJobId(payload: RenderJobPayload, requester?: string): string {
  const format = payload.format ?? DEFAULT_MEDIA_FORMAT;
  // A profile job is named as before kinds existed (its ids unchanged); a leaderboard by its kind and board.
  const what = payload.kind === 'leaderboard' ? { kind: payload.kind, leaderboard: payload.leaderboard } : { userId: payload.userId, options: payload.options };
  const named = { design: CARD_DESIGN_VERSION, ...what, format, ...(requester === undefined ? {} : { requester }) };
  const digest = createHash('sha256').update(canonicalJson(named)).digest();
  return `card-${uuidFromDigest(digest)}`;
}

/**
 * The media key of an encoded card (PNG, WebP...): derived from its bytes, so a URL always names the
 * same image and may be cached forever, and re-rendering an unchanged card stores nothing new. The
 * digest comes along for the store, whose ETag is the same SHA-256 (one hash of the image, not two).
 */
export function mediaKeyForImage(image: Buffer): { mediaKey: string; sha256: Buffer } {
  const sha256 = createHash('sha256').update(image).digest();
  return { mediaKey: uuidFromDigest(sha256), sha256 };
}
