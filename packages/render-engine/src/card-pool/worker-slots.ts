/** What the slots read of a worker process (render-worker-process.ts `RenderWorkerProcess`). */
export interface SlotWorker {
  /** Started, and neither killed nor exited. */
  readonly ready: boolean;
  /** Started and not drawing. */
  readonly idle: boolean;
  /** Resident memory at the last reading (undefined before the first). */
  readonly rssBytes: number | undefined;
}

export interface WorkerSlot<W extends SlotWorker, C> {
  process: W;
  /** The card it draws, if any. */
  current: C | undefined;
  /**
   * Due for recycling, its replacement started: it still draws until the replacement is ready,
   * then is retired (at once when idle, else after its card). Not counted towards the pool's size.
   */
  retiring: boolean;
}

/**
 * The pool's worker processes and what each is doing: how many count towards the pool's size,
 * which take cards next, which may be retired, and each one's share of a pool memory budget.
 * Bookkeeping only: the pool (card-render-pool.ts) starts, feeds and stops the processes.
 */
export class WorkerSlots<W extends SlotWorker, C> {
  readonly #slots = new Set<WorkerSlot<W, C>>();

  add(slot: WorkerSlot<W, C>): void {
    this.#slots.add(slot);
  }

  delete(slot: WorkerSlot<W, C>): void {
    this.#slots.delete(slot);
  }

  [Symbol.iterator](): IterableIterator<WorkerSlot<W, C>> {
    return this.#slots.values();
  }

  /** Workers that count towards the pool's size: all but those retiring. */
  get active(): number {
    let count = 0;
    for (const slot of this.#slots) if (!slot.retiring) count += 1;
    return count;
  }

  /** Workers that can draw now, or after their card (retiring ones included): never fewer than the size during a recycle. */
  get ready(): number {
    let count = 0;
    for (const slot of this.#slots) if (slot.process.ready) count += 1;
    return count;
  }

  /** Workers drawing a card. */
  get busy(): number {
    let count = 0;
    for (const slot of this.#slots) if (slot.current !== undefined) count += 1;
    return count;
  }

  /**
   * Idle workers in the order they take cards: a retiring one last, so it is idle to retire
   * sooner. Lazy: each slot is checked as it is reached, after the cards handed out before it.
   */
  *idle(): Generator<WorkerSlot<W, C>> {
    for (const slot of this.#slots) if (!slot.retiring && slot.process.idle && slot.current === undefined) yield slot;
    for (const slot of this.#slots) if (slot.retiring && slot.process.idle && slot.current === undefined) yield slot;
  }

  /**
   * Idle retiring workers that may go while the other ready workers are still `size`; one drawing
   * goes after its card. Lazy: the caller retires each before the next is checked (a retired
   * worker is no longer ready).
   */
  *retirable(size: number): Generator<WorkerSlot<W, C>> {
    for (const slot of this.#slots) {
      if (!slot.retiring || slot.current !== undefined || !slot.process.ready) continue;
      if (this.ready - 1 < size) return;
      yield slot;
    }
  }

  /** Under a pool budget: what the other workers leave of it by their last readings, at most `ownLimit`. */
  memoryCeiling(slot: WorkerSlot<W, C>, ownLimit: number, poolLimit: number): number {
    let others = 0;
    for (const other of this.#slots) if (other !== slot) others += other.process.rssBytes ?? 0;
    return Math.min(ownLimit, poolLimit - others);
  }
}

/** Workers that die before they can draw are restarted after a growing pause, never in a hot loop. */
const START_RETRY_BASE_MS = 100;
export const START_RETRY_MAX_MS = 5000;

/** The pause before starting workers again after `failedStartsInARow` workers died while starting. */
export function startRetryDelayMs(failedStartsInARow: number): number {
  return failedStartsInARow === 0 ? 0 : Math.min(START_RETRY_MAX_MS, START_RETRY_BASE_MS * 2 ** (failedStartsInARow - 1));
}
