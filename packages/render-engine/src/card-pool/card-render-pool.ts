import { type CardAnimationFormat, CardImageError, type CardInput, type LeaderboardInput } from '@utility-api/card';
import type { Logger } from '@utility-api/infra';
import { DEFAULT_MEDIA_FORMAT, type MediaFormat } from '@utility-api/render-jobs';
import { RenderAbandonedError } from '@utility-api/render-jobs';
import { asBuffer, type PooledCard, type RenderTask, type RenderTaskOutcome } from './pool-messages.ts';
import { RenderWorkerProcess, type RenderWorkerLimits, type WorkerExit, type WorkerLossCause } from './render-worker-process.ts';

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

interface PendingTask {
  task: RenderTask;
  /** The lane the card waits in: the API key that asked for it. */
  tenant: string;
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

interface WorkerSlot {
  process: RenderWorkerProcess;
  current: PendingTask | undefined;
  /**
   * Due for recycling, its replacement started: it still draws until the replacement is ready,
   * then is retired (at once when idle, else after its card). Not counted towards the pool's size.
   */
  retiring: boolean;
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
  /**
   * Cards waiting for a worker, one FIFO lane per tenant. A free worker takes the head of the lane
   * whose tenant has the fewest cards drawing; among equals, the tenant served longest ago (one
   * never served, or not since its lane last ran empty, first; then the oldest card): round robin.
   * So a key's cards queue behind its own, and a key with many slow cards holds no more workers
   * than a waiting key once one frees up (drawing is never interrupted: a card's time budget
   * bounds how long that takes).
   */
  const lanes = new Map<string, PendingTask[]>();
  const drawingByTenant = new Map<string, number>();
  /** When each tenant with cards waiting or drawing was last given a worker (a dispatch count). */
  const lastServed = new Map<string, number>();
  /** Animated cards drawing now; at `animatedAtOnce`, lanes whose next card is animated wait. */
  let animatedDrawing = 0;
  const animatedAtOnce = options.animatedAtOnce ?? Number.POSITIVE_INFINITY;
  /**
   * Animated cards take seconds each and drawing is never interrupted, so a key holding every
   * worker with them would make any other key's card wait that long. One key may draw at most
   * all workers but one with animated cards: another key's card always finds a worker within a
   * still card's time (one worker alone has no such room to keep).
   */
  const animatedPerTenant = Math.max(1, options.size - 1);
  const animatedByTenant = new Map<string, number>();
  let dispatches = 0;
  let waitingCount = 0;
  const slots = new Set<WorkerSlot>();
  const workersLost: Record<WorkerLossCause, number> = { crashed: 0, memory: 0, cpu: 0, 'wall-clock': 0 };
  let workersRecycled = 0;
  let nextTaskId = 1;
  let closed = false;
  let failedStartsInARow = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  /** Settles when the first worker can draw: what a start-up summary that says "ready" waits for. */
  const firstWorkerReady = Promise.withResolvers<void>();

  /** Under a pool budget: what the other workers leave of it, by their last readings. */
  const ceilingFor = (slot: WorkerSlot) => () => {
    let others = 0;
    for (const other of slots) if (other !== slot) others += other.process.rssBytes ?? 0;
    return Math.min(options.memoryLimitBytes, options.poolMemoryLimitBytes! - others);
  };

  const startWorker = () => {
    const startedAt = performance.now();
    const slot = { current: undefined, retiring: false } as WorkerSlot;
    const limits = options.poolMemoryLimitBytes === undefined ? options : { ...options, memoryCeiling: ceilingFor(slot) };
    Object.assign(slot, {
      process: new RenderWorkerProcess(limits, {
        onReady: () => {
          failedStartsInARow = 0;
          logger.info({ pid: slot.process.pid, startMs: Math.round(performance.now() - startedAt) }, 'render worker ready');
          firstWorkerReady.resolve();
          retireReplaced();
          dispatch();
        },
        onOutcome: (outcome) => {
          const pending = slot.current;
          slot.current = undefined;
          if (pending) finishedDrawing(pending);
          if (pending?.task.id === outcome.id) settle(pending, outcome);
          if (slot.process.recycleDue && !slot.retiring && !closed) {
            // The replacement starts now, beside it: until it is ready this worker goes on drawing.
            slot.retiring = true;
            logger.info({ pid: slot.process.pid, rssBytes: slot.process.rssBytes }, 'render worker due for recycling: it kept too much memory after a card; starting its replacement');
            refillUnlessScheduled();
          }
          retireReplaced();
          dispatch();
        },
        onExit: (exit) => workerExited(slot, exit),
      }),
    });
    slots.add(slot);
  };

  const workerExited = (slot: WorkerSlot, exit: WorkerExit) => {
    slots.delete(slot);
    const pending = slot.current;
    slot.current = undefined;
    if (pending) finishedDrawing(pending);
    if (closed) {
      pending?.reject(new RenderPoolClosedError());
      return;
    }
    // Retired idle once its replacement was ready (no card is lost, none waited): not counted as a loss.
    if (exit.cause === 'recycled' && pending === undefined) {
      workersRecycled += 1;
      logger.info({ pid: exit.pid, rssBytes: exit.rssBytes }, 'render worker recycled: its replacement was ready');
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

  /** Workers that count towards the pool's size: all but those retiring. */
  const activeCount = () => {
    let count = 0;
    for (const slot of slots) if (!slot.retiring) count += 1;
    return count;
  };

  /** Workers that can draw now, or after their card (retiring ones included): never fewer than `size` during a recycle. */
  const readyCount = () => {
    let count = 0;
    for (const slot of slots) if (slot.process.ready) count += 1;
    return count;
  };

  /**
   * Retires idle workers due for recycling while the others ready are as many as the pool's size;
   * one drawing is retired after its card (its outcome calls this again).
   */
  const retireReplaced = () => {
    for (const slot of slots) {
      if (!slot.retiring || slot.current !== undefined || !slot.process.ready) continue;
      if (readyCount() - 1 < options.size) return;
      slot.process.retire();
    }
  };

  const refill = () => {
    while (!closed && activeCount() < options.size) startWorker();
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

  /** A tenant with nothing waiting or drawing is forgotten: it comes back as a newcomer. */
  const forgetIfIdle = (tenant: string) => {
    if (!lanes.has(tenant) && !drawingByTenant.has(tenant)) lastServed.delete(tenant);
  };

  const finishedDrawing = (pending: PendingTask) => {
    if (pending.task.animation !== undefined) {
      animatedDrawing -= 1;
      const left = (animatedByTenant.get(pending.tenant) ?? 1) - 1;
      if (left <= 0) animatedByTenant.delete(pending.tenant);
      else animatedByTenant.set(pending.tenant, left);
    }
    const left = (drawingByTenant.get(pending.tenant) ?? 1) - 1;
    if (left <= 0) drawingByTenant.delete(pending.tenant);
    else drawingByTenant.set(pending.tenant, left);
    forgetIfIdle(pending.tenant);
  };

  /** Takes the next card by the lanes' rule (see `lanes`): linear in the tenants that have cards waiting. */
  const takeNextFairly = (): PendingTask | undefined => {
    let chosen: PendingTask[] | undefined;
    let best = { drawing: Number.POSITIVE_INFINITY, served: Number.POSITIVE_INFINITY, id: Number.POSITIVE_INFINITY };
    const animatedMayStart = animatedDrawing < animatedAtOnce;
    for (const [tenant, lane] of lanes) {
      if (lane[0]!.task.animation !== undefined && (!animatedMayStart || (animatedByTenant.get(tenant) ?? 0) >= animatedPerTenant)) continue;
      const rank = { drawing: drawingByTenant.get(tenant) ?? 0, served: lastServed.get(tenant) ?? -1, id: lane[0]!.task.id };
      const better = rank.drawing !== best.drawing ? rank.drawing < best.drawing : rank.served !== best.served ? rank.served < best.served : rank.id < best.id;
      if (better) {
        chosen = lane;
        best = rank;
      }
    }
    const pending = chosen?.shift();
    if (!pending) return undefined;
    if (chosen!.length === 0) lanes.delete(pending.tenant);
    waitingCount -= 1;
    dispatches += 1;
    lastServed.set(pending.tenant, dispatches);
    pending.detach();
    return pending;
  };

  /** Drops a card that still waits (its caller gave up); false when it had already left its lane. */
  const withdraw = (pending: PendingTask): boolean => {
    const lane = lanes.get(pending.tenant);
    const at = lane?.indexOf(pending) ?? -1;
    if (at === -1) return false;
    lane!.splice(at, 1);
    if (lane!.length === 0) lanes.delete(pending.tenant);
    waitingCount -= 1;
    forgetIfIdle(pending.tenant);
    return true;
  };

  /** Idle workers in the order they take cards: a retiring one last, so it is idle to retire sooner. */
  const idleSlots = function* () {
    for (const slot of slots) if (!slot.retiring && slot.process.idle && slot.current === undefined) yield slot;
    for (const slot of slots) if (slot.retiring && slot.process.idle && slot.current === undefined) yield slot;
  };

  const dispatch = () => {
    // Lazy: each slot is checked as it is reached, after the cards handed out before it.
    for (const slot of idleSlots()) {
      const pending = takeNextFairly();
      if (!pending) return;
      slot.current = pending;
      if (pending.task.animation !== undefined) {
        animatedDrawing += 1;
        animatedByTenant.set(pending.tenant, (animatedByTenant.get(pending.tenant) ?? 0) + 1);
      }
      drawingByTenant.set(pending.tenant, (drawingByTenant.get(pending.tenant) ?? 0) + 1);
      slot.process.draw(pending.task);
    }
  };

  return {
    /**
     * Starts the workers now instead of at the first render (each loads fonts and canvas, ~0.5 s);
     * resolves once one of them can draw (at once when one already could).
     */
    warmUp: (): Promise<void> => {
      refillUnlessScheduled();
      return firstWorkerReady.promise;
    },
    /** Tasks waiting for a free worker plus tasks being drawn. */
    get load() {
      return waitingCount + [...slots].filter((slot) => slot.current !== undefined).length;
    },
    /** Cards waiting for a worker, all tenants together. */
    get waiting() {
      return waitingCount;
    },
    /** The most animated cards one tenant may draw at once here (see `animatedPerTenant`). */
    animatedPerTenant,
    /** Cards waiting for a worker, by tenant (diagnostics and tests). */
    get waitingByTenant(): Record<string, number> {
      return Object.fromEntries([...lanes].map(([tenant, lane]) => [tenant, lane.length]));
    },
    /** Worker processes the pool keeps running. */
    size: options.size,
    /**
     * The live worker processes (diagnostics and tests): whether each is drawing a card, is ready
     * (started, not killed), and is retiring (due for recycling, its replacement started).
     */
    get workers() {
      return [...slots].map((slot) => ({ pid: slot.process.pid, busy: slot.current !== undefined, ready: slot.process.ready, retiring: slot.retiring }));
    },
    /** Workers that draw cards now or after their current one: at least `size` once warm, through every recycle. */
    get readyWorkers() {
      return readyCount();
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
     * then the still card's, when nothing moves. `scheduling` names the card's tenant (its lane)
     * and may withdraw it while it waits: it then rejects with RenderAbandonedError.
     */
    render(input: CardInput | LeaderboardInput, format: MediaFormat = DEFAULT_MEDIA_FORMAT, animation?: CardAnimationFormat, scheduling: RenderScheduling = {}): Promise<PooledCard> {
      if (closed) return Promise.reject(new RenderPoolClosedError());
      const { signal } = scheduling;
      if (signal?.aborted) return Promise.reject(new RenderAbandonedError());
      return new Promise<PooledCard>((resolve, reject) => {
        const tenant = scheduling.tenant ?? SHARED_LANE;
        const onAbort = () => {
          if (withdraw(pending)) reject(new RenderAbandonedError());
        };
        const pending: PendingTask = {
          task: { id: nextTaskId++, input, format, animation },
          tenant,
          resolve,
          reject,
          detach: () => signal?.removeEventListener('abort', onAbort),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const lane = lanes.get(tenant);
        if (lane) lane.push(pending);
        else lanes.set(tenant, [pending]);
        waitingCount += 1;
        refillUnlessScheduled();
        dispatch();
      });
    },
    /** Kills every worker; cards waiting or drawing reject with RenderPoolClosedError. */
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(restartTimer);
      for (const lane of lanes.values()) {
        for (const pending of lane) {
          pending.detach();
          pending.reject(new RenderPoolClosedError());
        }
      }
      lanes.clear();
      lastServed.clear();
      waitingCount = 0;
      await Promise.all([...slots].map((slot) => slot.process.stop()));
    },
  };
}
