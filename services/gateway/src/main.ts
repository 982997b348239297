import { runService } from '@utility-api/infra';
import { loadGatewayConfig } from './config.ts';
import { systemClock } from './runtime/clock.ts';
import { cryptoRandomSource } from './runtime/random-source.ts';
import { PortTakenError, startGateway } from './server.ts';

await runService({
  service: 'gateway',
  loadConfig: loadGatewayConfig,
  start: async (config, logger, lifecycle) => {
    const gateway = await startGateway(config, { clock: systemClock, random: cryptoRandomSource() }, logger, lifecycle).catch((error: unknown) => {
      // One plain line for the person at the terminal; the JSON log still records the failure.
      if (error instanceof PortTakenError) process.stderr.write(`\n${error.hint}\n\n`);
      throw error;
    });
    gateway.backends.warmUp();
    // For the person at the terminal, on stderr: stdout stays the JSON log.
    process.stderr.write(gateway.summary);
  },
  shuttingDown: 'shutting down',
});
