import { createHash } from 'node:crypto';
import type { Canvas } from 'canvas';
import { LRUCache } from 'lru-cache';
import { type CardPixelBudget, checkImage, type DecodedImage } from '../images/decode-image.ts';

export interface CacheLimits {
  /** The most entries kept; the least recently used go first. */
  maxEntries: number;
  /** The most bytes kept, as counted by the cache's `sizeOf`; a larger value is never stored. */
  maxBytes: number;
}

/**
 * An `lru-cache` bounded by entry count and by bytes (one decoded image can be megabytes, so a
 * count alone would not bound memory), with the counters the card bench reports. lru-cache cannot
 * change its bounds in place, so `resize` moves the entries into a new one; a zero bound turns the
 * cache off.
 */
export class CountedCache<V extends object> {
  #lru: LRUCache<string, V> | undefined;
  #counts = { hits: 0, misses: 0, evictions: 0 };
  readonly #sizeOf: (value: V) => number;

  constructor(limits: CacheLimits, sizeOf: (value: V) => number) {
    this.#sizeOf = sizeOf;
    this.resize(limits);
  }

  get(key: string): V | undefined {
    const value = this.#lru?.get(key);
    this.#counts[value === undefined ? 'misses' : 'hits'] += 1;
    return value;
  }

  set(key: string, value: V): void {
    this.#lru?.set(key, value);
  }

  resize(limits: CacheLimits): void {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of 0 or more, got ${String(value)}`);
    }
    const entries = this.#lru?.dump() ?? [];
    this.#lru = undefined;
    if (limits.maxEntries === 0 || limits.maxBytes === 0) return;
    this.#lru = new LRUCache<string, V>({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      sizeCalculation: (value) => Math.max(1, this.#sizeOf(value)),
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') this.#counts.evictions += 1;
      },
    });
    this.#lru.load(entries);
  }

  clear(): void {
    this.#lru?.clear();
    this.#counts = { hits: 0, misses: 0, evictions: 0 };
  }

  stats() {
    return { entries: this.#lru?.size ?? 0, bytes: this.#lru?.calculatedSize ?? 0, ...this.#counts };
  }
}

/** A background ready to draw, with the size its source declared (charged to each card that uses it). */
export type CachedBackground = { canvas: Canvas; declared: { width: number; height: number } };

/**
 * A text as Pango measured it in one font: its runs of plain text and emoji in logical order, each
 * with its width in 1x pixels (letter spacing included) and, for letter-spaced text, the advance of
 * each letter, which is how such text is drawn. `bytes` is what the entry is charged.
 */
export interface TextMeasurement {
  runs: readonly { kind: 'text' | 'emoji'; text: string; width: number; font: string; letters?: readonly { text: string; advance: number }[] }[];
  bytes: number;
}

/**
 * A layer that is the same on every card of one design (the panel, the frame, the default avatar's
 * ring), drawn once on its own transparent canvas at the card's pixel size and copied onto each card.
 */
export type CachedLayer = { canvas: Canvas };

const MIB = 1024 * 1024;

/**
 * Per render worker process: 64 MiB of decoded images (avatars, decorations and custom badges at
 * their drawn size, 4 bytes per pixel) and 48 MiB of backgrounds ready to draw (softened photos,
 * generated art, at card pixel size), which holds about 44 backgrounds at 1x (1.03 MiB each) or 11 at 2x.
 */
export const DEFAULT_CARD_CACHE_LIMITS: Readonly<Record<'decodedImages' | 'backgrounds' | 'textMeasurements' | 'staticLayers', CacheLimits>> = {
  decodedImages: { maxEntries: 256, maxBytes: 64 * MIB },
  backgrounds: { maxEntries: 64, maxBytes: 48 * MIB },
  /**
   * Pango measures each text again on every card: labels (LEVEL, RANK, BOT), digits, the date, and
   * a name several times (fitting, the legibility step, drawing). An entry is a few hundred bytes,
   * so 8192 of them (the cut-off tries of long names included) stay under 4 MiB.
   */
  textMeasurements: { maxEntries: 8192, maxBytes: 4 * MIB },
  /**
   * Layers identical on every card of one design: the avatar ring per palette and shape, the whole
   * default avatar layer (230 px square: 207 KiB at 1x, 827 KiB at 2x), the panel per ground (1.03
   * MiB at 1x). 24 MiB holds the common designs of a busy worker; a miss only costs drawing it.
   */
  staticLayers: { maxEntries: 256, maxBytes: 24 * MIB },
};

const pixelBytes = (value: { width: number; height: number }) => value.width * value.height * 4;

const decodedImageCache = new CountedCache<DecodedImage>(DEFAULT_CARD_CACHE_LIMITS.decodedImages, pixelBytes);
export const backgroundCache = new CountedCache<CachedBackground>(DEFAULT_CARD_CACHE_LIMITS.backgrounds, (value) => pixelBytes(value.canvas));
export const textMeasurementCache = new CountedCache<TextMeasurement>(DEFAULT_CARD_CACHE_LIMITS.textMeasurements, (value) => value.bytes);
export const staticLayerCache = new CountedCache<CachedLayer>(DEFAULT_CARD_CACHE_LIMITS.staticLayers, (value) => pixelBytes(value.canvas));

/** Sets the cache bounds for this process; `{ maxEntries: 0, maxBytes: 0 }` turns a cache off. */
export function configureCardCaches(limits: Partial<typeof DEFAULT_CARD_CACHE_LIMITS>): void {
  if (limits.decodedImages) decodedImageCache.resize(limits.decodedImages);
  if (limits.backgrounds) backgroundCache.resize(limits.backgrounds);
  if (limits.textMeasurements) textMeasurementCache.resize(limits.textMeasurements);
  if (limits.staticLayers) staticLayerCache.resize(limits.staticLayers);
}

/** Empties every cache and zeroes their counters (benchmarks and tests start cold with it). */
export function clearCardCaches(): void {
  decodedImageCache.clear();
  backgroundCache.clear();
  textMeasurementCache.clear();
  staticLayerCache.clear();
}

export function cardCacheStats() {
  return {
    decodedImages: decodedImageCache.stats(),
    backgrounds: backgroundCache.stats(),
    textMeasurements: textMeasurementCache.stats(),
    staticLayers: staticLayerCache.stats(),
  };
}

/**
 * A cache key for untrusted bytes: SHA-256, so no one can craft an image that collides with
 * another user's and is served in its place. Hashing is far cheaper than decoding (about 0.5 ms
 * per megabyte here, against 10-30 ms to decode and soften a banner).
 */
export function contentKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/**
 * {@link checkImage} for an image drawn in a `side` x `side` box, behind the decoded-image cache:
 * checks and charges the budget now, and returns the decode to run later, beside the card's other
 * images. The pixels are resized to cover the box (never enlarged). Only successes are kept: a
 * refused image is checked again each time, so its error always names the field it came from this
 * time. A hit skips the checks, which is safe because the same bytes passed them before, but is
 * still charged to the card's pixel budget.
 */
export async function checkImageCached(bytes: Buffer, options: { field: string; budget: CardPixelBudget; side: number }): Promise<() => Promise<DecodedImage>> {
  const side = Math.max(1, Math.round(options.side));
  const key = `${contentKey(bytes)}:${side}`;
  const cached = decodedImageCache.get(key);
  if (cached !== undefined) {
    options.budget.charge(options.field, cached.declared.width, cached.declared.height);
    return () => Promise.resolve(cached);
  }
  const checked = await checkImage(bytes, { field: options.field, budget: options.budget });
  return async () => {
    const image = await checked.decode((pipeline) => pipeline.resize(side, side, { fit: 'outside', withoutEnlargement: true }));
    decodedImageCache.set(key, image);
    return image;
  };
}
