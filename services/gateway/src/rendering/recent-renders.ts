import type { RenderJobResult } from '@utility-api/render-jobs';

/**
 * Results of recent renders by job id, so a repeated identical request is answered from memory
 * without a queue round trip. Bounded by count and age; the age matches how long the queue keeps
 * completed jobs, so both modes reuse a render for the same window. The embedded queue keeps a
 * second one of failures (`Outcome` a RenderFailure) for as long as BullMQ keeps failed jobs.
 */
export class RecentRenders<Outcome = RenderJobResult> {
  readonly #entries = new Map<string, { result: Outcome; storedAt: number }>();
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;

  constructor(options: { maxEntries: number; maxAgeMs: number; now?: () => number }) {
    this.#maxEntries = options.maxEntries;
    this.#maxAgeMs = options.maxAgeMs;
    this.#now = options.now ?? Date.now;
  }

  get(jobId: string): Outcome | undefined {
    const entry = this.#entries.get(jobId);
    if (!entry) return undefined;
    if (this.#now() - entry.storedAt > this.#maxAgeMs) {
      this.#entries.delete(jobId);
      return undefined;
    }
    return entry.result;
  }

  set(jobId: string, result: Outcome): void {
    this.#entries.delete(jobId);
    this.#entries.set(jobId, { result, storedAt: this.#now() });
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
