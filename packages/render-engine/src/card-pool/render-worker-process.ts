import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RenderTask, RenderTaskOutcome, WorkerMessage } from './pool-messages.ts';

/**
 * Why the pool lost a worker: it died by itself (`crashed`), or the pool killed it over its memory
 * ceiling (`memory`), over its card's CPU budget (`cpu`), or because the card outlived the
 * wall-clock backstop while using little CPU (`wall-clock`: a stopped or wedged process).
 */
export type WorkerLossCause = 'crashed' | 'memory' | 'cpu' | 'wall-clock';

/** How a worker ended: lost, or retired by the pool after a card left it holding memory (`recycled`). */
export type WorkerExitCause = WorkerLossCause | 'recycled';

export interface WorkerExit {
  pid: number;
  cause: WorkerExitCause;
  signal: NodeJS.Signals | null;
  exitCode: number | null;
  /** The last resident set size read, when one was. */
  rssBytes: number | undefined;
  /** CPU time the card being drawn had used at the last reading, when there was a card. */
  cardCpuMs: number | undefined;
  /** False when the process died before it could draw (fonts missing, canvas failing to load...). */
  started: boolean;
  /** What the worker said when it could not start. */
  startError: string | undefined;
}

export interface RenderWorkerLimits {
  /** Resident memory above which the worker is killed. */
  memoryLimitBytes: number;
  /** The ceiling now, when it moves (a pool budget shared with other workers); `memoryLimitBytes` otherwise. */
  memoryCeiling?: (() => number) | undefined;
  /**
   * CPU time (user + system, all threads of the worker) one card may use before the worker is
   * killed. CPU, not wall-clock time: a machine busy with other work slows a card down without
   * making it cost more, so load never turns a legal card into a failure.
   */
  timeBudgetMs: number;
  /** The same for an animated card, which draws and encodes every frame (GIF: ~5 s on a free core). */
  animatedTimeBudgetMs?: number | undefined;
  /**
   * The wall-clock backstop, as a multiple of the card's CPU budget: a card still unanswered then
   * is killed whatever CPU it used (a stopped process, a native call blocked forever). Default
   * {@link WALL_CLOCK_BACKSTOP_FACTOR}.
   */
  wallClockFactor?: number | undefined;
  /**
   * Resident memory above which a worker that has just answered a card is retired and replaced
   * (default {@link idleRecycleBytes}): a big card can leave freed memory resident (allocator
   * arenas, V8's grown heap), and a worker that keeps it would meet the next card closer to its
   * ceiling than a fresh one does.
   */
  recycleAboveBytes?: number | undefined;
  /**
   * How long a worker may take to load fonts and draw its warm-up card (1.5–3 s here) before it is
   * killed as wedged; the pool then starts another with its start-up backoff. Default 60 s.
   */
  startDeadlineMs?: number;
}

const DEFAULT_START_DEADLINE_MS = 60_000;

/**
 * A card's wall-clock backstop is this many times its CPU budget (5 s of CPU: 20 s): generous
 * enough that a machine four times oversubscribed still draws a legal card, and still an end for a
 * worker that uses no CPU at all because it is stopped or blocked.
 */
const WALL_CLOCK_BACKSTOP_FACTOR = 4;

/**
 * The default recycling threshold: an idle warm worker holds about 135 MiB and one after ordinary
 * cards a little more; a worker still above 60 % of its ceiling after answering carries the
 * leftovers of a big card, which would cut the next card's room by that much.
 */
function idleRecycleBytes(memoryLimitBytes: number): number {
  return Math.floor(memoryLimitBytes * 0.6);
}

export interface RenderWorkerEvents {
  /** Fonts loaded and the warm-up card drawn: the worker can take cards. */
  onReady(): void;
  onOutcome(outcome: RenderTaskOutcome): void;
  /** Called once, however the process ended. */
  onExit(exit: WorkerExit): void;
}

/** A `.ts` entry: Node strips its types itself, as it does for every service entry point. */
const WORKER_ENTRY = fileURLToPath(new URL('./card-worker.ts', import.meta.url));

/**
 * glibc's allocator, tuned for a process that draws one big card after another. It gives each
 * thread that allocates its own arena (8 per core); cairo, pango and libvips threads then leave
 * freed memory stranded in many arenas: two arenas keep RSS close to what is really used. A fixed
 * mmap threshold stops glibc from raising it (up to 32 MiB) after a big block is freed, which would
 * put the next card's decoded frames on the heap, where freeing them rarely gives memory back:
 * with it, every block of 1 MiB or more is mapped on its own and returned whole when freed.
 */
const ALLOCATOR_ENVIRONMENT = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: String(1024 * 1024) };

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

/**
 * /proc reports CPU times in USER_HZ clock ticks, which Linux fixes at 100 for user space on every
 * architecture whatever the kernel's own tick rate (sysconf(_SC_CLK_TCK)).
 */
const MS_PER_CLOCK_TICK = 10;

export interface ProcessUsage {
  rssBytes: number;
  /** User plus system CPU time of all the process's threads so far (10 ms resolution). */
  cpuMs: number;
}

function readProcFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process is gone
  }
}

/**
 * What the supervisor watches of a process, read from /proc (Linux) in one place: resident size
 * (`status`) and CPU time (`stat`); undefined once the process is gone. Read synchronously: these
 * files are made by the kernel in memory when read (a few microseconds, never a disk wait), while
 * fs/promises' readFile took five thread-pool round trips per file; at three to five readings per
 * card that was ~7% of the embedded gateway's CPU (profiled under `pnpm bench` load).
 */
export async function readProcessUsage(pid: number): Promise<ProcessUsage | undefined> {
  const status = readProcFile(`/proc/${pid}/status`);
  const cpuMs = status === undefined ? undefined : readProcessCpuMs(pid);
  if (status === undefined || cpuMs === undefined) return undefined;
  // The kernel reports it in kB, whatever the page size (statm counts pages).
  const rssBytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024;
  return Number.isFinite(rssBytes) ? { rssBytes, cpuMs } : undefined;
}

/**
 * The CPU time alone (`stat`), for the reading at a card's start: `status` is the dearer file for
 * the kernel to write out (about half of a reading's cost under load) and its memory figure is not
 * needed there.
 */
function readProcessCpuMs(pid: number): number | undefined {
  const stat = readProcFile(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces; utime and stime are fields
  // 14 and 15 of the line, 12th and 13th after the name. They cover every thread of the process.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK;
  return Number.isFinite(cpuMs) ? cpuMs : undefined;
}

/**
 * One forked render worker under supervision: it samples the process's resident memory and CPU
 * time, kills it above the memory ceiling, when a card uses more CPU than its budget, or when a card
 * outlives the wall-clock backstop; it retires a worker that answers a card still holding more
 * than the recycling threshold; and it reports how the process ended. The pool decides what to do
 * with the card and starts a replacement.
 */
export class RenderWorkerProcess {
  readonly pid: number;
  readonly #child: ChildProcess;
  readonly #limits: RenderWorkerLimits;
  readonly #events: RenderWorkerEvents;
  #ready = false;
  #recycleDue = false;
  #busy = false;
  #exited = false;
  #killedFor: WorkerExitCause | undefined;
  #startError: string | undefined;
  #rssBytes: number | undefined;
  /** The card being drawn: its CPU budget and the worker's CPU time when it was handed over. */
  #card: { budgetMs: number; cpuAtStartMs: number | undefined; usedMs: number | undefined } | undefined;
  #sampleTimer: NodeJS.Timeout | undefined;
  #backstopTimer: NodeJS.Timeout | undefined;
  #startTimer: NodeJS.Timeout | undefined;
  readonly #exitedPromise: Promise<void>;

  constructor(limits: RenderWorkerLimits, events: RenderWorkerEvents) {
    this.#limits = limits;
    this.#events = events;
    this.#child = fork(WORKER_ENTRY, [], {
      execArgv: [`--max-old-space-size=${heapLimitMb(limits.memoryLimitBytes)}`],
      env: { ...process.env, ...ALLOCATOR_ENVIRONMENT },
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

  /** Resident memory at the last reading (undefined before the first). */
  get rssBytes(): number | undefined {
    return this.#rssBytes;
  }

  /** Started and not drawing: the pool may hand it a card. */
  get idle(): boolean {
    return this.ready && !this.#busy;
  }

  /** Started, and neither killed nor exited: it draws cards, now or when handed one. */
  get ready(): boolean {
    return this.#ready && !this.#exited && this.#killedFor === undefined;
  }

  /**
   * It answered a card still holding more than the recycling threshold: the pool starts its
   * replacement and retires it (`retire`) once the replacement is ready. Until then it keeps
   * drawing, under the same ceiling and budgets, so the pool never has fewer workers than its size.
   */
  get recycleDue(): boolean {
    return this.#recycleDue;
  }

  /** Retires a worker whose replacement is ready; it exits with cause `recycled`. */
  retire(): void {
    this.kill('recycled');
  }

  /** Sends one card; the outcome arrives through `onOutcome`, or the loss through `onExit`. */
  draw(task: RenderTask): void {
    this.#busy = true;
    const budgetMs = task.animation === undefined ? this.#limits.timeBudgetMs : (this.#limits.animatedTimeBudgetMs ?? this.#limits.timeBudgetMs);
    // Read before the card is sent, so all of the card's CPU time counts against its budget.
    this.#card = { budgetMs, cpuAtStartMs: readProcessCpuMs(this.pid), usedMs: undefined };
    this.#backstopTimer = setTimeout(() => this.kill('wall-clock'), budgetMs * (this.#limits.wallClockFactor ?? WALL_CLOCK_BACKSTOP_FACTOR));
    this.#scheduleSample(BUSY_SAMPLE_MS);
    this.#child.send(task, (error) => {
      // The channel closed under the message: the process is exiting, and `exit` reports it.
      if (error) this.kill('crashed');
    });
  }

  /** SIGKILL: nothing a wedged native decoder does can delay it. The first cause given is kept. */
  kill(cause: WorkerExitCause): void {
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
   * A worker that ends a card above its ceiling or its CPU budget is killed and the card counted
   * lost with it: the sampler alone would catch a short peak, or the last milliseconds over the
   * budget, only if a sample happened to land on them; so the budgets hold whatever the sampling.
   * A worker under both that still holds more than the recycling threshold answers and is marked
   * due for recycling (`recycleDue`): the pool retires it once a fresh worker is ready to take its
   * place, so later cards meet a worker without the last card's leftovers, and none waits for a start.
   */
  async #finishCard(outcome: RenderTaskOutcome): Promise<void> {
    clearTimeout(this.#backstopTimer);
    if ((await this.#overBudget()) || this.#exited || this.#killedFor !== undefined) return;
    this.#busy = false;
    this.#card = undefined;
    const recycleAbove = this.#limits.recycleAboveBytes ?? idleRecycleBytes(this.#limits.memoryLimitBytes);
    // Marked before the outcome goes out, so the pool starts the replacement as it hears of the card.
    if (this.#rssBytes !== undefined && this.#rssBytes > recycleAbove) this.#recycleDue = true;
    this.#scheduleSample(IDLE_SAMPLE_MS);
    this.#events.onOutcome(outcome);
  }

  #scheduleSample(delayMs: number): void {
    clearTimeout(this.#sampleTimer);
    if (this.#exited) return;
    this.#sampleTimer = setTimeout(() => {
      void this.#overBudget().then((killed) => killed || this.#scheduleSample(this.#busy ? BUSY_SAMPLE_MS : IDLE_SAMPLE_MS));
    }, delayMs);
    // Sampling alone must not keep a process alive that is otherwise done.
    this.#sampleTimer.unref();
  }

  /** Reads memory and CPU time, and kills the worker over its ceiling or its card's CPU budget; true when it did. */
  async #overBudget(): Promise<boolean> {
    const usage = await readProcessUsage(this.pid);
    if (this.#exited || !usage) return false;
    this.#rssBytes = usage.rssBytes;
    if (usage.rssBytes > (this.#limits.memoryCeiling?.() ?? this.#limits.memoryLimitBytes)) {
      this.kill('memory');
      return true;
    }
    const card = this.#card;
    if (card === undefined) return false;
    const atStart = card.cpuAtStartMs;
    if (atStart === undefined || this.#exited) return false;
    card.usedMs = usage.cpuMs - atStart;
    if (card.usedMs <= card.budgetMs) return false;
    this.kill('cpu');
    return true;
  }

  #finish(exitCode: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    clearTimeout(this.#sampleTimer);
    clearTimeout(this.#backstopTimer);
    clearTimeout(this.#startTimer);
    const cause = this.#killedFor ?? 'crashed';
    const exit = { pid: this.pid, cause, signal, exitCode, rssBytes: this.#rssBytes, cardCpuMs: this.#card?.usedMs, started: this.#ready, startError: this.#startError };
    this.#events.onExit(exit);
  }
}
