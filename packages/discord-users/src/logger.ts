/**
 * The slice of a pino logger this package writes to. Declared here rather than imported so the
 * package needs no logging dependency; a pino `Logger` (as `@utility-api/infra` creates) fits.
 */
export interface Logger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export const SILENT_LOGGER: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};
