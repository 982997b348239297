import { runService } from '@utility-api/infra';
import { loadRendererConfig } from './config.ts';
import { startRenderer } from './start-renderer.ts';

await runService({ service: 'renderer', loadConfig: loadRendererConfig, start: startRenderer, shuttingDown: 'shutting down: finishing jobs in progress' });
