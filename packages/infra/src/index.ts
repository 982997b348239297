/** What every service process needs around its real work: environment, lifecycle, logging. Redis connections are `@utility-api/infra/redis`, so a package that only logs never loads ioredis. */
export { ConfigurationError, parseEnvironment } from './parse-environment.ts';
export { envBoolean, envCommaList, envInteger, envOptionalInteger, envUrl } from './env-fields.ts';
export { Lifecycle } from './lifecycle.ts';
export type { ShutdownReport } from './lifecycle.ts';
export { runService } from './run-service.ts';
export { checkReadiness, DeadlineError, withDeadline } from './deadline.ts';
export { createLogger, DROPPED_LINES_REPORT_MS, flushLogger, LOG_BACKLOG_MAX_BYTES, LOG_LEVELS, type Logger } from './logging.ts';
export { templateLineWriter } from './template-line.ts';
export { storedDisplayName, terminalSafe } from './display-text.ts';
export { serviceEnvironmentShape } from './service-environment.ts';
export { checkRedisAtBoot } from './redis-boot-check.ts';
export {
  describeRedisTarget,
  redisEnvironmentShape,
  refineRedisEnvironment,
  toRedisTarget,
  type ClusterNodeAddress,
  type RedisTarget,
} from './redis-environment.ts';
