import { type CardAnimationFormat, CardImageError, type CardInput } from '@utility-api/card';
import type { Logger } from '@utility-api/infra';
import { DEFAULT_MEDIA_FORMAT, type MediaFormat } from '@utility-api/media-store';
import { asBuffer, type PooledCard, type RenderTask, type RenderTaskOutcome } from './pool-messages.ts';
import { RenderWorkerProcess, type RenderWorkerLimits, type WorkerExit, type WorkerLossCause } from './render-worker-process.ts';

export interface CardRenderPoolOptions extends RenderWorkerLimits {
  size: number;
  logger: Logger;
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

interface PendingTask {
  task: RenderTask;
  resolve(card: PooledCard): void;
  reject(error: unknown): void;
}

interface WorkerSlot {
  process: RenderWorkerProcess;
  current: PendingTask | undefined;
}

/** Workers that die before they can draw are restarted after a growing pause, never in a hot loop. */
const START_RETRY_BASE_MS = 100;
const START_RETRY_MAX_MS = 5000;

/**
 * Draws cards in supervised child processes, so the event loop (HTTP, BullMQ lock renewal) never
 * waits on canvas, and a native crash, a runaway allocation or an endless decode costs one card
 * and one worker process, never the service.
 */
export type CardRenderPool = ReturnType<typeof createCardRenderPool>;

export function createCardRenderPool(options: CardRenderPoolOptions) {
  const { logger } = options;
  const waiting: PendingTask[] = [];
  const slots = new Set<WorkerSlot>();
  const workersLost: Record<WorkerLossCause, number> = { crashed: 0, memory: 0, cpu: 0, 'wall-clock': 0 };
  let workersRecycled = 0;
  let nextTaskId = 1;
  let closed = false;
  let failedStartsInARow = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const startWorker = () => {
    const startedAt = performance.now();
    const slot: WorkerSlot = {
      current: undefined,
      process: new RenderWorkerProcess(options, {
        onReady: () => {
          failedStartsInARow = 0;
          logger.info({ pid: slot.process.pid, startMs: Math.round(performance.now() - startedAt) }, 'render worker ready');
          dispatch();
        },
        onOutcome: (outcome) => {
          const pending = slot.current;
          slot.current = undefined;
          if (pending?.task.id === outcome.id) settle(pending, outcome);
          dispatch();
        },
        onExit: (exit) => workerExited(slot, exit),
      }),
    };
    slots.add(slot);
  };

  const workerExited = (slot: WorkerSlot, exit: WorkerExit) => {
    slots.delete(slot);
    const pending = slot.current;
    slot.current = undefined;
    if (closed) {
      pending?.reject(new RenderPoolClosedError());
      return;
    }
    // Retired after answering its card (no card is lost): replaced like any other, not counted as a loss.
    if (exit.cause === 'recycled' && pending === undefined) {
      workersRecycled += 1;
      logger.info({ pid: exit.pid, rssBytes: exit.rssBytes }, 'render worker recycled: it kept too much memory after a card; starting a fresh one');
      scheduleRefill();
      return;
    }
    if (exit.cause !== 'recycled') workersLost[exit.cause] += 1;
    const details = { pid: exit.pid, cause: exit.cause, signal: exit.signal, exitCode: exit.exitCode, rssBytes: exit.rssBytes, cardCpuMs: exit.cardCpuMs, hadCard: pending !== undefined };
    if (exit.started) {
      logger.error(details, 'render worker lost; starting a replacement');
    } else {
      failedStartsInARow += 1;
      logger.error({ ...details, startError: exit.startError, failedStartsInARow }, 'render worker died while starting');
    }
    pending?.reject(new RenderWorkerLostError(exit));
    scheduleRefill();
  };

  const refill = () => {
    while (!closed && slots.size < options.size) startWorker();
  };
  /** Starts missing workers unless a restart is already scheduled (its backoff must hold). */
  const refillUnlessScheduled = () => {
    if (restartTimer === undefined) refill();
  };

  const scheduleRefill = () => {
    if (restartTimer !== undefined) return;
    const delayMs = failedStartsInARow === 0 ? 0 : Math.min(START_RETRY_MAX_MS, START_RETRY_BASE_MS * 2 ** (failedStartsInARow - 1));
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      refill();
    }, delayMs);
  };

  const settle = (pending: PendingTask, outcome: RenderTaskOutcome) => {
    if (outcome.ok) {
      const { id: _id, ok: _ok, image, ...card } = outcome;
      pending.resolve({ ...card, image: asBuffer(image) });
    } else if (outcome.imageError) {
      const { reason, field, detail } = outcome.imageError;
      pending.reject(new CardImageError(reason, field, detail));
    } else {
      pending.reject(new Error(`card render failed: ${outcome.message}`));
    }
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.process.idle || slot.current !== undefined) continue;
      const pending = waiting.shift();
      if (!pending) return;
      slot.current = pending;
      slot.process.draw(pending.task);
    }
  };

  return {
    /** Starts the workers now instead of at the first render (each loads fonts and canvas, ~0.5 s). */
    warmUp: refillUnlessScheduled,
    /** Tasks waiting for a free worker plus tasks being drawn. */
    get load() {
      return waiting.length + [...slots].filter((slot) => slot.current !== undefined).length;
    },
    /** Worker processes the pool keeps running. */
    size: options.size,
    /** The live worker processes and whether each is drawing a card (diagnostics and tests). */
    get workers() {
      return [...slots].map((slot) => ({ pid: slot.process.pid, busy: slot.current !== undefined }));
    },
    /** Workers lost since the pool started, by cause (read by the metrics at scrape time). */
    workersLost: workersLost as Readonly<typeof workersLost>,
    /** Workers retired after a card that left them above the recycling threshold (see RenderWorkerLimits). */
    get workersRecycled() {
      return workersRecycled;
    },
    /**
     * Draws the card and encodes it as `format` (PNG by default), both in a worker process. With
     * `animation`, a card with a moving source is drawn moving and encoded as that; `format` is
     * then the still card's, when nothing moves.
     */
    render(input: CardInput, format: MediaFormat = DEFAULT_MEDIA_FORMAT, animation?: CardAnimationFormat): Promise<PooledCard> {
      if (closed) return Promise.reject(new RenderPoolClosedError());
      return new Promise<PooledCard>((resolve, reject) => {
        waiting.push({ task: { id: nextTaskId++, input, format, animation }, resolve, reject });
        refillUnlessScheduled();
        dispatch();
      });
    },
    /** Kills every worker; cards waiting or drawing reject with RenderPoolClosedError. */
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(restartTimer);
      for (const pending of waiting.splice(0)) pending.reject(new RenderPoolClosedError());
      await Promise.all([...slots].map((slot) => slot.process.stop()));
    },
  };
}
