import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { CENSOR, censorNestedSecrets } from './nested-secrets.ts';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

interface LoggerOptions {
  service: string;
  level: LevelWithSilent;
  /**
   * Tests pass a stream to read what was logged. Production writes JSON lines to stdout without
   * blocking: lines queue while a write is in progress and go out together, instead of one
   * synchronous write per line on the request path. pino flushes what is queued when the process
   * exits; a service also flushes at shutdown (`flushLogger`).
   */
  destination?: DestinationStream;
}

/**
 * The most log output a process holds while stdout's reader is behind (a stalled log collector, a
 * paused terminal): past it, new lines are dropped and counted instead of growing the heap until the
 * process dies. The gateway writes about 2 MB/s under full load, so this is several seconds of lines.
 */
export const LOG_BACKLOG_MAX_BYTES = 16 * 1024 * 1024;

/** How long after a first dropped line the count is logged; again, while lines are still being dropped. */
export const DROPPED_LINES_REPORT_MS = 1000;

let isoTimeMs = Number.NaN;
let isoTimeField = '';

/**
 * pino's `stdTimeFunctions.isoTime` (`,"time":"<ISO 8601>"`), formatted once per millisecond: a busy
 * service writes many lines in the same millisecond, and `toISOString` was a visible part of each.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== isoTimeMs) {
    isoTimeMs = now;
    isoTimeField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoTimeField;
}

/**
 * One JSON-lines logger per process. Secrets that may sit in logged objects are censored by
 * path, so a careless `log.info({ headers })` never writes an API key. `apiKey` and `token` one
 * level down (`log.info({ job: { token } })`, `child({ job: { token } })`) are censored by a
 * formatter and by `child` itself: pino's wildcard paths (`*.token`) would do the same but run a
 * redactor on every property of every line, the largest cost of an access-log line.
 */
export function createLogger(options: LoggerOptions): Logger {
  const stdout = options.destination === undefined ? pino.destination({ dest: 1, sync: false, maxLength: LOG_BACKLOG_MAX_BYTES }) : undefined;
  const logger = pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: isoTime,
      redact: {
        paths: ['headers.authorization', 'headers.cookie', 'headers["proxy-authorization"]', 'req.headers.authorization', 'req.headers.cookie'],
        censor: CENSOR,
      },
      formatters: { log: censorNestedSecrets },
    },
    options.destination ?? stdout!,
  );
  if (stdout) reportDroppedLines(stdout, logger);
  // pino applies no formatter to a child's bindings; every child inherits this `child` from the root.
  const prototype = Object.getPrototypeOf(logger) as { child: (this: Logger, bindings: Bindings, options?: ChildLoggerOptions) => Logger };
  logger.child = function censoredChild(this: Logger, bindings: Bindings, childOptions?: ChildLoggerOptions) {
    return prototype.child.call(this, censorNestedSecrets(bindings), childOptions);
  } as unknown as Logger['child'];
  return logger;
}

/**
 * Says how many lines the bounded stdout dropped, a moment after the first one, so the operator sees
 * the gap where it happened. A report that is dropped itself is tried again with its count kept; it
 * is not counted as a dropped line (its news is not lost, only late), so the counts add up to the
 * lines the service logged.
 */
function reportDroppedLines(stdout: ReturnType<typeof pino.destination>, logger: Logger): void {
  let dropped = 0;
  let reporting = false;
  let reportDropped = false;
  const schedule = () => setTimeout(report, DROPPED_LINES_REPORT_MS).unref();
  const report = () => {
    const count = dropped;
    dropped = 0;
    reporting = true;
    reportDropped = false;
    logger.warn({ droppedLines: count, backlogLimitBytes: LOG_BACKLOG_MAX_BYTES }, 'log lines dropped: stdout was not read fast enough');
    reporting = false;
    if (!reportDropped) return;
    // No line dropped since the report was tried had scheduled another one: this one is.
    if (dropped === 0) schedule();
    dropped += count;
  };
  stdout.on('drop', () => {
    if (reporting) {
      reportDropped = true;
      return;
    }
    dropped += 1;
    if (dropped === 1) schedule();
  });
}

/** Resolves once every queued line is written: the last closer a service registers, so it runs after the others. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
