/** What every service process needs around its real work: environment, lifecycle, logging. Redis connections are `@utility-api/infra/redis`, so a package that only logs never loads ioredis. */
export { ConfigurationError, parseEnvironment } from './parse-environment.ts';
export type { ConfigurationProblem } from './parse-environment.ts';
export { envBoolean, envCommaList, envInteger, envUrl } from './env-fields.ts';
export { Lifecycle } from './lifecycle.ts';
export type { Closer, ShutdownReport } from './lifecycle.ts';
export { runService } from './signals.ts';
export { checkReadiness, DeadlineError, withDeadline } from './deadline.ts';
export { createLogger, deferredBindings, deferredChild, flushLogger, LOG_LEVELS, type Bindings, type Logger, type LoggerOptions } from './logging.ts';
export { FETCH_DEFAULTS, redisUrlField, refineServiceEnvironment, serviceEnvironmentShape, toRenderingSettings, type RenderingSettings } from './service-environment.ts';
export { checkRedisAtBoot } from './redis-boot-check.ts';
