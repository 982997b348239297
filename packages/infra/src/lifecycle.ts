type Closer = () => Promise<void> | void;

export type ShutdownReport = { closed: string[]; failed: { name: string; error: unknown }[]; timedOut: string[] };

/**
 * Every resource registers how to close itself right where it is created; shutdown closes them
 * in reverse order (consumers before what they consume), each bounded by what is left of a
 * shared deadline so one stuck closer cannot hold the process forever.
 */
export class Lifecycle {
  readonly #closers: { name: string; close: Closer }[] = [];
  #shutdown: Promise<ShutdownReport> | undefined;

  /** Registers a closer and returns the resource unchanged, so creation and cleanup sit on one line. */
  add<T>(name: string, resource: T, close: (resource: T) => Promise<void> | void): T {
    this.onClose(name, () => close(resource));
    return resource;
  }

  onClose(name: string, close: Closer): void {
    if (this.#shutdown) throw new Error(`cannot register "${name}": shutdown already started`);
    this.#closers.push({ name, close });
  }

  get shuttingDown(): boolean {
    return this.#shutdown !== undefined;
  }

  /** Idempotent: a second call (a second signal, say) waits for the first shutdown. */
  shutdown(deadlineMs: number): Promise<ShutdownReport> {
    this.#shutdown ??= this.#closeAll(deadlineMs);
    return this.#shutdown;
  }

  async #closeAll(deadlineMs: number): Promise<ShutdownReport> {
    const report: ShutdownReport = { closed: [], failed: [], timedOut: [] };
    const deadline = Date.now() + deadlineMs;
    // Once a closer has used up the deadline, later ones are not started: a timer may fire a
    // millisecond early by Date.now(), which must not hand them a sliver of time.
    let expired = false;
    for (const closer of [...this.#closers].reverse()) {
      const remaining = deadline - Date.now();
      if (expired || remaining <= 0) {
        report.timedOut.push(closer.name);
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining);
      });
      try {
        const outcome = await Promise.race([Promise.resolve().then(closer.close), timeout]);
        if (outcome === 'timeout') {
          report.timedOut.push(closer.name);
          expired = true;
        } else report.closed.push(closer.name);
      } catch (error) {
        report.failed.push({ name: closer.name, error });
      } finally {
        clearTimeout(timer);
      }
    }
    return report;
  }
}
