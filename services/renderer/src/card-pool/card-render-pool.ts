import { Worker } from 'node:worker_threads';
import { CardImageError, prepareCardFonts, type CardInput, type RenderedCard } from '@utility-api/card';
import type { Logger } from '@utility-api/logging';
import type { RenderTask, RenderTaskOutcome } from './pool-messages.ts';

/** Draws cards on worker threads so the event loop (HTTP, BullMQ lock renewal) never waits on canvas. */
export interface CardRenderPool {
  render(input: CardInput): Promise<RenderedCard>;
  /** Tasks waiting for a free thread plus tasks being drawn. */
  readonly load: number;
  readonly size: number;
  /** Starts the threads now instead of at the first render (they load fonts and canvas, ~0.3 s). */
  warmUp(): void;
  close(): Promise<void>;
}

export class RenderPoolClosedError extends Error {
  constructor() {
    super('the render pool is closed');
    this.name = 'RenderPoolClosedError';
  }
}

/** A render thread died (out of memory, native crash) while drawing; the task may be retried. */
export class RenderThreadCrashedError extends Error {
  constructor(cause: unknown) {
    super('a render thread crashed', { cause });
    this.name = 'RenderThreadCrashedError';
  }
}

interface PendingTask {
  task: RenderTask;
  resolve(card: RenderedCard): void;
  reject(error: unknown): void;
}

interface RenderThread {
  worker: Worker;
  current: PendingTask | undefined;
}

const WORKER_URL = new URL('./card-worker-entry.mjs', import.meta.url);

export function createCardRenderPool(options: { size: number; logger: Logger }): CardRenderPool {
  // Fontconfig reads its environment in the main thread before any worker starts (see card-fonts).
  prepareCardFonts();
  const waiting: PendingTask[] = [];
  const threads: RenderThread[] = [];
  let nextId = 1;
  let closed = false;

  const startThread = (): RenderThread => {
    const thread: RenderThread = { worker: new Worker(WORKER_URL), current: undefined };
    thread.worker.on('message', (outcome: RenderTaskOutcome) => {
      const pending = thread.current;
      thread.current = undefined;
      if (pending && pending.task.id === outcome.id) settle(pending, outcome);
      dispatch();
    });
    thread.worker.on('error', (error) => {
      options.logger.error({ err: error }, 'render thread crashed');
    });
    thread.worker.on('exit', (code) => {
      const index = threads.indexOf(thread);
      if (index >= 0) threads.splice(index, 1);
      thread.current?.reject(new RenderThreadCrashedError(new Error(`render thread exited with code ${code}`)));
      thread.current = undefined;
      if (!closed) {
        threads.push(startThread());
        dispatch();
      }
    });
    return thread;
  };

  const settle = (pending: PendingTask, outcome: RenderTaskOutcome) => {
    if (outcome.ok) {
      pending.resolve({
        png: Buffer.from(outcome.png.buffer, outcome.png.byteOffset, outcome.png.byteLength),
        width: outcome.width,
        height: outcome.height,
        timings: outcome.timings,
        warnings: outcome.warnings,
      });
    } else if (outcome.imageError) {
      const { reason, field, message } = outcome.imageError;
      // The thread's message already starts with the field; the constructor adds it again.
      const detail = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
      pending.reject(new CardImageError(reason, field, detail));
    } else {
      pending.reject(new Error(`card render failed: ${outcome.message}`));
    }
  };

  const dispatch = () => {
    for (const thread of threads) {
      if (thread.current !== undefined) continue;
      const pending = waiting.shift();
      if (!pending) return;
      thread.current = pending;
      thread.worker.postMessage(pending.task);
    }
  };

  const warmUp = () => {
    while (!closed && threads.length < options.size) threads.push(startThread());
  };

  return {
    warmUp,
    get load() {
      return waiting.length + threads.filter((thread) => thread.current !== undefined).length;
    },
    size: options.size,
    render(input) {
      if (closed) return Promise.reject(new RenderPoolClosedError());
      return new Promise<RenderedCard>((resolve, reject) => {
        waiting.push({ task: { id: nextId++, input }, resolve, reject });
        warmUp();
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const pending of waiting.splice(0)) pending.reject(new RenderPoolClosedError());
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}
