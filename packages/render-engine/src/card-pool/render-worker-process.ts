import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { RenderTask, RenderTaskOutcome, WorkerMessage } from './pool-messages.ts';

/** Why the pool lost a worker: it died by itself, or the pool killed it over its memory or time budget. */
export type WorkerLossCause = 'crashed' | 'memory' | 'time';

export interface WorkerExit {
  pid: number;
  cause: WorkerLossCause;
  signal: NodeJS.Signals | null;
  exitCode: number | null;
  /** The last resident set size read, when one was. */
  rssBytes: number | undefined;
  /** False when the process died before it could draw (fonts missing, canvas failing to load...). */
  started: boolean;
  /** What the worker said when it could not start. */
  startError: string | undefined;
}

export interface RenderWorkerLimits {
  /** Resident memory above which the worker is killed. */
  memoryLimitBytes: number;
  /** How long one card may draw before the worker is killed. */
  timeBudgetMs: number;
  /** The same for an animated card, which draws and encodes every frame (GIF: ~5 s on a free core). */
  animatedTimeBudgetMs?: number | undefined;
  /**
   * How long a worker may take to load fonts and draw its warm-up card (1.5–3 s here) before it is
   * killed as wedged; the pool then starts another with its start-up backoff. Default 60 s.
   */
  startDeadlineMs?: number;
}

const DEFAULT_START_DEADLINE_MS = 60_000;

export interface RenderWorkerEvents {
  /** Fonts loaded and the warm-up card drawn: the worker can take cards. */
  onReady(): void;
  onOutcome(outcome: RenderTaskOutcome): void;
  /** Called once, however the process ended. */
  onExit(exit: WorkerExit): void;
}

/** A `.ts` entry: Node strips its types itself, as it does for every service entry point. */
const WORKER_ENTRY = fileURLToPath(new URL('./card-worker.ts', import.meta.url));

/** While a card draws, memory can climb fast; an idle worker only needs watching for leaks. */
const BUSY_SAMPLE_MS = 50;
const IDLE_SAMPLE_MS = 1000;

/**
 * V8's own heap limit, below the worker's memory ceiling: JavaScript garbage is collected before
 * the supervisor would have to kill for it, and the rest of the ceiling is left to the native
 * memory canvas, cairo and the image decoders allocate outside V8's heap.
 */
function heapLimitMb(memoryLimitBytes: number): number {
  return Math.max(64, Math.floor(memoryLimitBytes / (1024 * 1024) / 2));
}

/** Resident size of a process from /proc (Linux), or undefined once it is gone. */
export async function readProcessMemory(pid: number): Promise<{ rssBytes: number } | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (status === undefined) return undefined;
  // The kernel reports it in kB, whatever the page size (statm counts pages).
  const rssBytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024;
  return Number.isFinite(rssBytes) ? { rssBytes } : undefined;
}

/**
 * One forked render worker under supervision: it samples the process's resident memory and kills
 * it above the ceiling, kills it when a card outlives the time budget, and reports how it ended.
 * The pool decides what to do with the card and whether to start a replacement.
 */
export class RenderWorkerProcess {
  readonly pid: number;
  readonly #child: ChildProcess;
  readonly #limits: RenderWorkerLimits;
  readonly #events: RenderWorkerEvents;
  #ready = false;
  #busy = false;
  #exited = false;
  #killedFor: WorkerLossCause | undefined;
  #startError: string | undefined;
  #rssBytes: number | undefined;
  #sampleTimer: NodeJS.Timeout | undefined;
  #budgetTimer: NodeJS.Timeout | undefined;
  #startTimer: NodeJS.Timeout | undefined;
  readonly #exitedPromise: Promise<void>;

  constructor(limits: RenderWorkerLimits, events: RenderWorkerEvents) {
    this.#limits = limits;
    this.#events = events;
    this.#child = fork(WORKER_ENTRY, [], {
      execArgv: [`--max-old-space-size=${heapLimitMb(limits.memoryLimitBytes)}`],
      // glibc gives each thread that allocates its own arena (8 per core); cairo, pango and libvips
      // threads then leave freed memory stranded in many arenas and resident memory creeps up.
      // Two arenas keep a long-lived worker's RSS close to what it really uses.
      env: { ...process.env, MALLOC_ARENA_MAX: '2' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // fork throws synchronously for bad arguments; a process that cannot be spawned at all
    // (EAGAIN, ENOMEM) still gets a pid of undefined and an 'error' event, handled below.
    this.pid = this.#child.pid ?? -1;
    this.#exitedPromise = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        this.#finish(code, signal);
        resolve();
      });
      // Also emitted when a signal cannot be delivered; only a process that never started ends here.
      this.#child.on('error', () => {
        if (this.#child.pid === undefined) {
          this.#finish(null, null);
          resolve();
        }
      });
    });
    this.#child.on('message', (message: WorkerMessage) => this.#receive(message));
    this.#scheduleSample(IDLE_SAMPLE_MS);
    // A worker that neither becomes ready nor dies (a wedged font scan, a hung native init) would
    // otherwise hold its slot forever while cards wait for it.
    this.#startTimer = setTimeout(() => this.kill('crashed'), limits.startDeadlineMs ?? DEFAULT_START_DEADLINE_MS);
    this.#startTimer.unref();
  }

  /** Started and not drawing: the pool may hand it a card. */
  get idle(): boolean {
    return this.#ready && !this.#busy && !this.#exited && this.#killedFor === undefined;
  }

  /** Sends one card; the outcome arrives through `onOutcome`, or the loss through `onExit`. */
  draw(task: RenderTask): void {
    this.#busy = true;
    const budgetMs = task.animation === undefined ? this.#limits.timeBudgetMs : (this.#limits.animatedTimeBudgetMs ?? this.#limits.timeBudgetMs);
    this.#budgetTimer = setTimeout(() => this.kill('time'), budgetMs);
    this.#scheduleSample(BUSY_SAMPLE_MS);
    this.#child.send(task, (error) => {
      // The channel closed under the message: the process is exiting, and `exit` reports it.
      if (error) this.kill('crashed');
    });
  }

  /** SIGKILL: nothing a wedged native decoder does can delay it. The first cause given is kept. */
  kill(cause: WorkerLossCause): void {
    if (this.#exited) return;
    this.#killedFor ??= cause;
    this.#child.kill('SIGKILL');
  }

  /** Kills the worker and resolves once it has exited. */
  async stop(): Promise<void> {
    this.kill('crashed');
    await this.#exitedPromise;
  }

  #receive(message: WorkerMessage): void {
    if (message.type === 'ready') {
      clearTimeout(this.#startTimer);
      this.#ready = true;
      this.#events.onReady();
    } else if (message.type === 'failed-to-start') {
      this.#startError = message.message;
    } else {
      void this.#finishCard(message.outcome);
    }
  }

  /**
   * A worker that ends a card above its ceiling is killed and the card counted lost with it: the
   * sampler alone would catch a short peak only if a sample happened to land on it.
   */
  async #finishCard(outcome: RenderTaskOutcome): Promise<void> {
    clearTimeout(this.#budgetTimer);
    if ((await this.#overMemory()) || this.#exited || this.#killedFor !== undefined) return;
    this.#busy = false;
    this.#scheduleSample(IDLE_SAMPLE_MS);
    this.#events.onOutcome(outcome);
  }

  #scheduleSample(delayMs: number): void {
    clearTimeout(this.#sampleTimer);
    if (this.#exited) return;
    this.#sampleTimer = setTimeout(() => {
      void this.#overMemory().then((killed) => killed || this.#scheduleSample(this.#busy ? BUSY_SAMPLE_MS : IDLE_SAMPLE_MS));
    }, delayMs);
    // Sampling alone must not keep a process alive that is otherwise done.
    this.#sampleTimer.unref();
  }

  /** Reads the resident memory and kills the worker above its ceiling; true when it did. */
  async #overMemory(): Promise<boolean> {
    const memory = await readProcessMemory(this.pid);
    if (this.#exited || !memory) return false;
    this.#rssBytes = memory.rssBytes;
    if (memory.rssBytes <= this.#limits.memoryLimitBytes) return false;
    this.kill('memory');
    return true;
  }

  #finish(exitCode: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    clearTimeout(this.#sampleTimer);
    clearTimeout(this.#budgetTimer);
    clearTimeout(this.#startTimer);
    const cause = this.#killedFor ?? 'crashed';
    this.#events.onExit({ pid: this.pid, cause, signal, exitCode, rssBytes: this.#rssBytes, started: this.#ready, startError: this.#startError });
  }
}
