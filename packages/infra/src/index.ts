/** What every service process needs around its real work: environment, lifecycle, logging. Redis connections are `@utility-api/infra/redis`, so a package that only logs never loads ioredis. */
export { ConfigurationError, parseEnvironment } from './parse-environment.ts';
export { envBoolean, envCommaList, envInteger, envUrl } from './env-fields.ts';
export { Lifecycle } from './lifecycle.ts';
export { runUntilSignalled } from './signals.ts';
export { checkReadiness, DeadlineError, withDeadline } from './deadline.ts';
export { deferredBindings, deferredChild } from './deferred-child.ts';
export { createLogger, LOG_LEVELS, type Logger } from './logging.ts';
