import { type CardAnimationFormat, CardImageError, type CardInput, type LeaderboardInput } from '@utility-api/card';
import type { Logger } from '@utility-api/infra';
import { DEFAULT_MEDIA_FORMAT, type MediaFormat } from '@utility-api/render-jobs';
import { RenderAbandonedError } from '@utility-api/render-jobs';
import { asBuffer, type PooledCard, type RenderTask, type RenderTaskOutcome } from './pool-messages.ts';
import { FairLanes, type LaneCard } from './fair-lanes.ts';
import { RenderWorkerProcess, type RenderWorkerLimits, type WorkerExit, type WorkerLossCause } from './render-worker-process.ts';
import { startRetryDelayMs, type WorkerSlot, WorkerSlots } from './worker-slots.ts';

export interface CardRenderPoolOptions extends RenderWorkerLimits {
  size: number;
  logger: Logger;
  /**
   * All workers' resident memory together: a worker is killed above what the others leave of it
   * (or its own `memoryLimitBytes`, whichever is less). Unset: each worker has only its own ceiling.
   */
  poolMemoryLimitBytes?: number | undefined;
  /** The most animated cards drawing at once (the heaviest cards): more wait. Default: no limit. */
  animatedAtOnce?: number | undefined;
}

export class RenderPoolClosedError extends Error {
  constructor() {
    super('the render pool is closed');
    this.name = 'RenderPoolClosedError';
  }
}

/**
 * The worker drawing this card died or was killed: a native crash or non-zero exit (`crashed`),
 * resident memory over the ceiling (`memory`), a card over its CPU budget (`cpu`) or past the
 * wall-clock backstop (`wall-clock`). The card is not retried here: the same input would most
 * likely do the same to the next worker.
 */
export class RenderWorkerLostError extends Error {
  override readonly cause: WorkerExit['cause'];
  readonly pid: number;
  readonly signal: NodeJS.Signals | null;
  readonly exitCode: number | null;

  constructor(exit: WorkerExit) {
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`;
    super(`render worker ${exit.pid} was lost while drawing (${exit.cause}, ${how})`);
    this.name = 'RenderWorkerLostError';
    this.cause = exit.cause;
    this.pid = exit.pid;
    this.signal = exit.signal;
    this.exitCode = exit.exitCode;
  }
}

interface PendingTask extends LaneCard {
  task: RenderTask;
  resolve(card: PooledCard): void;
  reject(error: unknown): void;
  /** Stops listening for the caller's abandonment once the card has left the waiting lanes. */
  detach(): void;
}

/** How a card is scheduled: whose it is, and a signal that withdraws it while it still waits. */
export interface RenderScheduling {
  /** The API key (its id) the card is for; cards without one share one lane. */
  tenant?: string | undefined;
  /** Aborted when nobody waits for the card any more: a card still waiting is dropped, one drawing finishes. */
  signal?: AbortSignal | undefined;
}

/** The lane of cards that name no tenant. */
const SHARED_LANE = '';

type Slot = WorkerSlot<RenderWorkerProcess, PendingTask>;

/**
 * Draws cards in supervised child processes, so the event loop (HTTP, BullMQ lock renewal) never
 * waits on canvas, and a native crash, a runaway allocation or an endless decode costs one card
 * and one worker process, never the service. Which card goes next is the lanes' rule
 * (fair-lanes.ts); which worker takes it, which may retire and each one's memory share, the
 * slots' (worker-slots.ts); this class starts, restarts, recycles and feeds the processes.
 */
export class CardRenderPool {
  /** Worker processes the pool keeps running. */
  readonly size: number;
  /**
   * The most animated cards one tenant may draw at once here. Animated cards take seconds each and
   * drawing is never interrupted, so a key holding every worker with them would make any other
   * key's card wait that long. One key may draw at most all workers but one with animated cards:
   * another key's card always finds a worker within a still card's time (one worker alone has no
   * such room to keep).
   */
  readonly animatedPerTenant: number;
  /** Workers lost since the pool started, by cause (read by the metrics at scrape time). */
  readonly workersLost: Readonly<Record<WorkerLossCause, number>>;

  readonly #options: CardRenderPoolOptions;
  readonly #logger: Logger;
  readonly #lanes: FairLanes<PendingTask>;
  readonly #slots = new WorkerSlots<RenderWorkerProcess, PendingTask>();
  readonly #lost: Record<WorkerLossCause, number> = { crashed: 0, memory: 0, cpu: 0, 'wall-clock': 0 };
  #recycled = 0;
  #nextTaskId = 1;
  #closed = false;
  #failedStartsInARow = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  /** Settles when the first worker can draw: what a start-up summary that says "ready" waits for. */
  readonly #firstWorkerReady = Promise.withResolvers<void>();

  constructor(options: CardRenderPoolOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.size = options.size;
    this.animatedPerTenant = Math.max(1, options.size - 1);
    this.#lanes = new FairLanes({ animatedAtOnce: options.animatedAtOnce ?? Number.POSITIVE_INFINITY, animatedPerTenant: this.animatedPerTenant });
    this.workersLost = this.#lost;
  }

  /**
   * Starts the workers now instead of at the first render (each loads fonts and canvas, ~0.5 s);
   * resolves once one of them can draw (at once when one already could).
   */
  warmUp(): Promise<void> {
    this.#refillUnlessScheduled();
    return this.#firstWorkerReady.promise;
  }

  /** Tasks waiting for a free worker plus tasks being drawn. */
  get load(): number {
    return this.#lanes.waiting + this.#slots.busy;
  }

  /** Cards waiting for a worker, all tenants together. */
  get waiting(): number {
    return this.#lanes.waiting;
  }

  /** Cards waiting for a worker, by tenant (diagnostics and tests). */
  get waitingByTenant(): Record<string, number> {
    return this.#lanes.waitingByTenant;
  }

  /**
   * The live worker processes (diagnostics and tests): whether each is drawing a card, is ready
   * (started, not killed), and is retiring (due for recycling, its replacement started).
   */
  get workers(): { pid: number; busy: boolean; ready: boolean; retiring: boolean }[] {
    return [...this.#slots].map((slot) => ({ pid: slot.process.pid, busy: slot.current !== undefined, ready: slot.process.ready, retiring: slot.retiring }));
  }

  /** Workers that draw cards now or after their current one: at least `size` once warm, through every recycle. */
  get readyWorkers(): number {
    return this.#slots.ready;
  }

  /** Workers retired after a card that left them above the recycling threshold (see RenderWorkerLimits). */
  get workersRecycled(): number {
    return this.#recycled;
  }

  /**
   * Draws the card and encodes it as `format` (PNG by default), both in a worker process. With
   * `animation`, a card with a moving source is drawn moving and encoded as that; `format` is
   * then the still card's, when nothing moves. `scheduling` names the card's tenant (its lane)
   * and may withdraw it while it waits: it then rejects with RenderAbandonedError.
   */
  render(input: CardInput | LeaderboardInput, format: MediaFormat = DEFAULT_MEDIA_FORMAT, animation?: CardAnimationFormat, scheduling: RenderScheduling = {}): Promise<PooledCard> {
    if (this.#closed) return Promise.reject(new RenderPoolClosedError());
    const { signal } = scheduling;
    if (signal?.aborted) return Promise.reject(new RenderAbandonedError());
    return new Promise<PooledCard>((resolve, reject) => {
      const onAbort = () => {
        if (this.#lanes.withdraw(pending)) reject(new RenderAbandonedError());
      };
      const id = this.#nextTaskId++;
      const pending: PendingTask = {
        task: { id, input, format, animation },
        tenant: scheduling.tenant ?? SHARED_LANE,
        id,
        animated: animation !== undefined,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#lanes.enqueue(pending);
      this.#refillUnlessScheduled();
      this.#dispatch();
    });
  }

  /** Kills every worker; cards waiting or drawing reject with RenderPoolClosedError. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#restartTimer);
    for (const pending of this.#lanes.drain()) {
      pending.detach();
      pending.reject(new RenderPoolClosedError());
    }
    await Promise.all([...this.#slots].map((slot) => slot.process.stop()));
  }

  #startWorker(): void {
    const startedAt = performance.now();
    const slot = { current: undefined, retiring: false } as Slot;
    const { memoryLimitBytes, poolMemoryLimitBytes } = this.#options;
    // Under a pool budget: what the other workers leave of it, by their last readings.
    const limits = poolMemoryLimitBytes === undefined ? this.#options : { ...this.#options, memoryCeiling: () => this.#slots.memoryCeiling(slot, memoryLimitBytes, poolMemoryLimitBytes) };
    slot.process = new RenderWorkerProcess(limits, {
      onReady: () => {
        this.#failedStartsInARow = 0;
        this.#logger.info({ pid: slot.process.pid, startMs: Math.round(performance.now() - startedAt) }, 'render worker ready');
        this.#firstWorkerReady.resolve();
        this.#retireReplaced();
        this.#dispatch();
      },
      onOutcome: (outcome) => {
        const pending = slot.current;
        slot.current = undefined;
        if (pending) this.#lanes.finished(pending);
        if (pending?.task.id === outcome.id) settle(pending, outcome);
        if (slot.process.recycleDue && !slot.retiring && !this.#closed) {
          // The replacement starts now, beside it: until it is ready this worker goes on drawing.
          slot.retiring = true;
          this.#logger.info({ pid: slot.process.pid, rssBytes: slot.process.rssBytes }, 'render worker due for recycling: it kept too much memory after a card; starting its replacement');
          this.#refillUnlessScheduled();
        }
        this.#retireReplaced();
        this.#dispatch();
      },
      onExit: (exit) => this.#workerExited(slot, exit),
    });
    this.#slots.add(slot);
  }

  #workerExited(slot: Slot, exit: WorkerExit): void {
    this.#slots.delete(slot);
    const pending = slot.current;
    slot.current = undefined;
    if (pending) this.#lanes.finished(pending);
    if (this.#closed) {
      pending?.reject(new RenderPoolClosedError());
      return;
    }
    // Retired idle once its replacement was ready (no card is lost, none waited): not counted as a loss.
    if (exit.cause === 'recycled' && pending === undefined) {
      this.#recycled += 1;
      this.#logger.info({ pid: exit.pid, rssBytes: exit.rssBytes }, 'render worker recycled: its replacement was ready');
      this.#scheduleRefill();
      return;
    }
    if (exit.cause !== 'recycled') this.#lost[exit.cause] += 1;
    const details = { pid: exit.pid, cause: exit.cause, signal: exit.signal, exitCode: exit.exitCode, rssBytes: exit.rssBytes, cardCpuMs: exit.cardCpuMs, hadCard: pending !== undefined };
    if (exit.started) {
      this.#logger.error(details, 'render worker lost; starting a replacement');
    } else {
      this.#failedStartsInARow += 1;
      this.#logger.error({ ...details, startError: exit.startError, failedStartsInARow: this.#failedStartsInARow }, 'render worker died while starting');
    }
    pending?.reject(new RenderWorkerLostError(exit));
    this.#scheduleRefill();
  }

  /** Retires idle workers due for recycling while the others ready are as many as the pool's size. */
  #retireReplaced(): void {
    for (const slot of this.#slots.retirable(this.size)) slot.process.retire();
  }

  #refill(): void {
    while (!this.#closed && this.#slots.active < this.size) this.#startWorker();
  }

  /** Starts missing workers unless a restart is already scheduled (its backoff must hold). */
  #refillUnlessScheduled(): void {
    if (this.#restartTimer === undefined) this.#refill();
  }

  #scheduleRefill(): void {
    if (this.#restartTimer !== undefined) return;
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = undefined;
      this.#refill();
    }, startRetryDelayMs(this.#failedStartsInARow));
  }

  #dispatch(): void {
    for (const slot of this.#slots.idle()) {
      const pending = this.#lanes.takeNext();
      if (!pending) return;
      pending.detach();
      slot.current = pending;
      slot.process.draw(pending.task);
    }
  }
}

function settle(pending: PendingTask, outcome: RenderTaskOutcome): void {
  if (outcome.ok) {
    const { id: _id, ok: _ok, image, ...card } = outcome;
    pending.resolve({ ...card, image: asBuffer(image) });
  } else if (outcome.imageError) {
    const { reason, field, detail } = outcome.imageError;
    pending.reject(new CardImageError(reason, field, detail));
  } else {
    pending.reject(new Error(`card render failed: ${outcome.message}`));
  }
}

/** A pool of `options.size` worker processes (see CardRenderPool); the workers start at the first render or `warmUp`. */
export function createCardRenderPool(options: CardRenderPoolOptions): CardRenderPool {
  return new CardRenderPool(options);
}
