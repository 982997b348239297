import type { Lifecycle, ShutdownReport } from './lifecycle.ts';

/**
 * SIGTERM (orchestrators) and SIGINT (Ctrl-C) start one graceful shutdown; a second signal while
 * draining forces exit, the usual expectation of someone pressing Ctrl-C twice.
 */
export function runUntilSignalled(
  lifecycle: Lifecycle,
  options: { deadlineMs: number; onSignal?: (signal: NodeJS.Signals) => void; onDone: (report: ShutdownReport) => void },
): void {
  const handle = (signal: NodeJS.Signals) => {
    if (lifecycle.shuttingDown) process.exit(130);
    options.onSignal?.(signal);
    void lifecycle.shutdown(options.deadlineMs).then((report) => {
      options.onDone(report);
      process.exit(report.failed.length > 0 || report.timedOut.length > 0 ? 1 : 0);
    });
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
