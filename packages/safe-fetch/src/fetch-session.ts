import { ImageFetchError } from './image-fetch-error.ts';
import { type FetchedImage, type ImageFetcher } from './image-fetcher.ts';
import { describeBytes } from './image-stream-inspector.ts';
import { requirePositiveInteger } from './settings.ts';

export type FetchSession = ReturnType<typeof createFetchSession>;

/**
 * The fetches of one unit of work (one card): each distinct URL is fetched once, and all of them
 * draw on one byte budget of `budgetBytes`. A session is meant to live as long as that unit; it
 * keeps every image it fetched until it is dropped.
 */
export function createFetchSession(fetcher: ImageFetcher, budgetBytes: number) {
  const budget = new FetchBudget(budgetBytes);
  const fetches = new Map<string, Promise<FetchedImage>>();
  // Made on first use: most cards fetch nothing, and an AbortController (an EventTarget) per card
  // showed in the embedded gateway's profile.
  let cancelled: AbortController | undefined;
  const controller = () => (cancelled ??= new AbortController());
  return {
    budget,
    /**
     * Calls off every fetch still running (the unit of work failed and needs none of them): each
     * fails as `cancelled` and its connection is closed. Later calls to `fetchImage` fail at once.
     */
    cancel: () => controller().abort(),
    /**
     * Like `ImageFetcher.fetchImage`, within the session: a URL already asked for (by any field)
     * shares that fetch, its bytes and its outcome; an error names the field that asked first.
     */
    fetchImage(url: string, field: string): Promise<FetchedImage> {
      const key = sessionKey(url);
      let fetch = fetches.get(key);
      if (fetch === undefined) {
        fetch = fetcher.fetchImage(url, field, { budget, signal: controller().signal });
        fetches.set(key, fetch);
      }
      return fetch;
    },
  };
}

/**
 * Spellings of one request are one fetch: the parser normalises case, default ports and dot
 * segments, and the fragment is never sent. Anything unparseable keys on its text (and fails alike).
 */
function sessionKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/**
 * Bytes several fetches may read between them: one card's images, say, so that nine URLs times
 * the per-image cap cannot add up to 72 MiB of work for one request. Bytes are charged as they
 * arrive, before they are inspected or kept, and never given back: a refused image's bytes were
 * still read. Only response bodies count; redirects are followed without reading theirs.
 */
export class FetchBudget {
  readonly limitBytes: number;
  #usedBytes = 0;

  constructor(limitBytes: number) {
    requirePositiveInteger('limitBytes', limitBytes);
    this.limitBytes = limitBytes;
  }

  get usedBytes(): number {
    return this.#usedBytes;
  }

  get remainingBytes(): number {
    return this.limitBytes - this.#usedBytes;
  }

  /**
   * Takes `bytes` out of the budget for the fetch of `field`, or throws `over_card_budget` without
   * taking anything when they do not fit. Once it has thrown for one fetch, every other fetch
   * sharing it fails on its next chunk too.
   */
  charge(bytes: number, field: string): void {
    if (bytes > this.remainingBytes) throw this.exceeded(field);
    this.#usedBytes += bytes;
  }

  /** The refusal for `field`, also used when a Content-Length already announces too much. */
  exceeded(field: string): ImageFetchError {
    return new ImageFetchError('over_card_budget', field, `the card's images together exceed ${describeBytes(this.limitBytes)}`);
  }
}
