import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface LoggerOptions {
  service: string;
  level: LevelWithSilent;
  /** Tests pass a stream to read what was logged; production writes JSON lines to stdout. */
  destination?: DestinationStream;
}

/**
 * One JSON-lines logger per process. Secrets that may sit in logged objects are censored by
 * path, so a careless `log.info({ headers })` never writes an API key.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'headers.authorization',
          'headers.cookie',
          'headers["proxy-authorization"]',
          'req.headers.authorization',
          'req.headers.cookie',
          '*.apiKey',
          '*.token',
        ],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}
