/** What every service process needs around its real work: environment, lifecycle, logging, Redis. */
export { ConfigurationError, parseEnvironment } from './parse-environment.ts';
export type { ConfigurationProblem } from './parse-environment.ts';
export { envBoolean, envCommaList, envInteger, envUrl } from './env-fields.ts';
export { Lifecycle } from './lifecycle.ts';
export type { Closer, ShutdownReport } from './lifecycle.ts';
export { runUntilSignalled } from './signals.ts';
export { checkReadiness, DeadlineError, withDeadline } from './deadline.ts';
export { createLogger, deferredBindings, flushLogger, deferredChild, LOG_LEVELS, type Bindings, type Logger, type LoggerOptions } from './logging.ts';
export { createRedisConnection, waitUntilRedisReady, type RedisRole } from './redis-connection.ts';
