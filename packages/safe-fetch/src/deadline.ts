/**
 * One clock for a whole fetch: DNS, every redirect hop and every body byte share it, so a server
 * that drips a byte now and then (each chunk well within any per-chunk timeout) is still cut off.
 */
export class Deadline {
  readonly #timer: NodeJS.Timeout;
  readonly #listeners = new Set<(error: Error) => void>();
  #error: () => Error;
  #expired = false;

  /** `error` builds what every pending operation fails with once the time is up. */
  constructor(milliseconds: number, error: () => Error) {
    this.#error = error;
    this.#timer = setTimeout(() => this.#expire(), milliseconds);
  }

  get expired(): boolean {
    return this.#expired;
  }

  /** Calls `listener` when the deadline passes (at once if it has). Returns the unsubscribe function. */
  onExpire(listener: (error: Error) => void): () => void {
    if (this.#expired) {
      listener(this.#error());
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `promise`, or the deadline's error if it passes first (the promise is left to settle unobserved). */
  race<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const unsubscribe = this.onExpire(reject);
      promise.then(resolve, reject).finally(unsubscribe);
    });
  }

  /** Ends it now with `error` instead of the time-out: the caller called the work off. */
  cancel(error: Error): void {
    if (this.#expired) return;
    clearTimeout(this.#timer);
    this.#error = () => error;
    this.#expire();
  }

  /** Stops the clock; call when the fetch has settled. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#listeners.clear();
  }

  #expire(): void {
    this.#expired = true;
    for (const listener of [...this.#listeners]) listener(this.#error());
    this.#listeners.clear();
  }
}
