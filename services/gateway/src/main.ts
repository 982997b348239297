import { runService, withDeadline } from '@utility-api/infra';
import { loadGatewayConfig } from './config.ts';
import { systemClock } from './runtime/clock.ts';
import { cryptoRandomSource } from './runtime/random-source.ts';
import { PortTakenError, startGateway } from './server.ts';

/** How long the start-up summary waits for a render worker before it is printed anyway. */
const RENDER_WORKER_WAIT_MS = 60_000;

await runService({
  service: 'gateway',
  loadConfig: loadGatewayConfig,
  start: async (config, logger, lifecycle) => {
    const gateway = await startGateway(config, { clock: systemClock, random: cryptoRandomSource() }, logger, lifecycle).catch((error: unknown) => {
      // One plain line for the person at the terminal; the JSON log still records the failure.
      if (error instanceof PortTakenError) process.stderr.write(`\n${error.hint}\n\n`);
      throw error;
    });
    // "Ready" means a card can be drawn: the summary waits for the first render worker (embedded
    // mode; ~0.5-2 s), and says so if none could start in time rather than hold the terminal.
    const drawing = await withDeadline(gateway.backends.warmUp(), RENDER_WORKER_WAIT_MS, 'a render worker').then(
      () => true,
      () => false,
    );
    logger.info({ renderWorkerReady: drawing }, 'gateway ready');
    // For the person at the terminal, on stderr: stdout stays the JSON log.
    process.stderr.write(drawing ? gateway.summary : `${gateway.summary}  Cards       no render worker is ready yet (see the log): cards answer 503 until one is\n\n`);
  },
  shuttingDown: 'shutting down',
});
