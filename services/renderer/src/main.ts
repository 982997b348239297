import { ConfigurationError, createLogger, Lifecycle, runUntilSignalled } from '@utility-api/infra';
import { loadRendererConfig } from './config.ts';
import { startRenderer } from './start-renderer.ts';

let config;
try {
  config = loadRendererConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG
}

const logger = createLogger({ service: 'renderer', level: config.logLevel });
const lifecycle = new Lifecycle();
runUntilSignalled(lifecycle, {
  deadlineMs: config.shutdownTimeoutMs,
  onSignal: (signal) => logger.info({ signal }, 'shutting down: finishing jobs in progress'),
  onDone: (report) => logger.info(report, 'shutdown complete'),
});

try {
  await startRenderer(config, logger, lifecycle);
} catch (error) {
  logger.fatal({ err: error }, 'renderer failed to start');
  await lifecycle.shutdown(config.shutdownTimeoutMs);
  process.exit(1);
}
