import { ImageFetchError } from './image-fetch-error.ts';
import { describeBytes } from './image-stream-inspector.ts';
import { requirePositiveInteger } from './settings.ts';

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
