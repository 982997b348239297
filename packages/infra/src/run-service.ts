import type { LevelWithSilent } from 'pino';
import { Lifecycle, type ShutdownReport } from './lifecycle.ts';
import { createLogger, flushLogger, type Logger } from './logging.ts';
import { ConfigurationError } from './parse-environment.ts';

/**
 * SIGTERM (orchestrators) and SIGINT (Ctrl-C) start one graceful shutdown; a second signal while
 * draining forces exit, the usual expectation of someone pressing Ctrl-C twice.
 */
function runUntilSignalled(
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

/**
 * A service's entry point: the environment read once (a bad one exits 78, EX_CONFIG, after naming
 * every problem), the logger, graceful shutdown on SIGTERM and SIGINT, then `start`. A start that
 * fails closes whatever it had opened and exits 1.
 */
export async function runService<Config extends { logLevel: LevelWithSilent; shutdownTimeoutMs: number }>(options: {
  service: string;
  loadConfig: (environment: NodeJS.ProcessEnv) => Config;
  start: (config: Config, logger: Logger, lifecycle: Lifecycle) => Promise<unknown>;
  /** Logged when a signal starts the shutdown. */
  shuttingDown: string;
}): Promise<void> {
  let config: Config;
  try {
    config = options.loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  const logger = createLogger({ service: options.service, level: config.logLevel });
  const lifecycle = new Lifecycle();
  // Registered first, so it closes last: the log lines of every other closer are written too.
  lifecycle.onClose('log', () => flushLogger(logger));
  runUntilSignalled(lifecycle, {
    deadlineMs: config.shutdownTimeoutMs,
    onSignal: (signal) => logger.info({ signal }, options.shuttingDown),
    onDone: (report) => logger.info(report, 'shutdown complete'),
  });
  try {
    await options.start(config, logger, lifecycle);
  } catch (error) {
    logger.fatal({ err: error }, `${options.service} failed to start`);
    await lifecycle.shutdown(config.shutdownTimeoutMs);
    process.exit(1);
  }
}
