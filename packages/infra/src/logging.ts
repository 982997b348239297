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
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
  // pino applies no formatter to a child's bindings; every child inherits this `child` from the root.
  const prototype = Object.getPrototypeOf(logger) as { child: (this: Logger, bindings: Bindings, options?: ChildLoggerOptions) => Logger };
  logger.child = function censoredChild(this: Logger, bindings: Bindings, childOptions?: ChildLoggerOptions) {
    return prototype.child.call(this, censorNestedSecrets(bindings), childOptions);
  } as unknown as Logger['child'];
  return logger;
}

/** Resolves once every queued line is written: the last closer a service registers, so it runs after the others. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
