import { ConfigurationError, createLogger, flushLogger, Lifecycle, runUntilSignalled } from '@utility-api/infra';
import { loadGatewayConfig } from './config.ts';
import { systemClock } from './runtime/clock.ts';
import { cryptoRandomSource } from './runtime/random-source.ts';
import { startGateway } from './server.ts';

let config;
try {
  config = loadGatewayConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG
}

const logger = createLogger({ service: 'gateway', level: config.logLevel });
const lifecycle = new Lifecycle();
// Registered first, so it closes last: the log lines of every other closer are written too.
lifecycle.onClose('log', () => flushLogger(logger));
runUntilSignalled(lifecycle, {
  deadlineMs: config.shutdownTimeoutMs,
  onSignal: (signal) => logger.info({ signal }, 'shutting down'),
  onDone: (report) => logger.info(report, 'shutdown complete'),
});

try {
  const gateway = await startGateway(config, { clock: systemClock, random: cryptoRandomSource() }, logger, lifecycle);
  gateway.backends.warmUp();
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  await lifecycle.shutdown(config.shutdownTimeoutMs);
  process.exit(1);
}
