import { checkRedisAtBoot, type Lifecycle, type Logger } from '@utility-api/infra';
import { createRedisConnection, type RedisClient } from '@utility-api/infra/redis';
import { openMediaStore, type MediaStore } from '@utility-api/media-store';
import { claimRenderQueueShards } from '@utility-api/render-jobs';
import type { Registry } from 'prom-client';
import type { GatewayConfig } from '../../config.ts';
import { inMemoryBackingStore, type BackingStore } from '../../runtime/backing-store.ts';
import { createBullmqBackend } from './bullmq-backend.ts';
import { createEmbeddedBackend } from './embedded-backend.ts';
import { createRenderQueue, type RenderQueue } from './render-queue.ts';

interface RenderBackends {
  mode: 'embedded' | 'distributed';
  queue: RenderQueue;
  media: MediaStore;
  /** Redis in distributed mode, process memory in embedded mode. */
  backingStore: BackingStore;
  redis: RedisClient | undefined;
  /**
   * Starts render workers ahead of the first card and resolves when one can draw (embedded mode;
   * distributed, the renderers are other processes and it resolves at once).
   */
  warmUp(): Promise<void>;
}

/**
 * The two run modes behind the same two interfaces: with Redis (`REDIS_URL` or `REDIS_CLUSTER_NODES`), BullMQ and remote renderers;
 * without, an in-process render pool and the disk store. Created before the HTTP server, so on
 * shutdown they close after it has drained its requests.
 */
export async function openRenderBackends(config: GatewayConfig, logger: Logger, lifecycle: Lifecycle, registry: Registry): Promise<RenderBackends> {
  const media = await openMediaStore(config.rendering.media, logger, lifecycle);
  if (config.redis === undefined) {
    // Loaded only here: node-canvas and the fonts stay out of a distributed gateway's memory.
    const { createRenderEngine } = await import('@utility-api/render-engine');
    const engine = createRenderEngine(config.rendering, { store: media, logger, lifecycle, registry });
    logger.info({ workers: engine.pool.size, mediaDir: config.rendering.media.directory }, 'embedded mode: rendering in this process');
    return {
      mode: 'embedded',
      queue: createRenderQueue(createEmbeddedBackend({ engine, limit: config.renderQueueLimit, logger })),
      media,
      backingStore: inMemoryBackingStore,
      redis: undefined,
      warmUp: () => engine.pool.warmUp(),
    };
  }
  const producer = lifecycle.add('redis (producer)', createRedisConnection(config.redis, 'producer', 'gateway'), (redis) => void redis.disconnect());
  producer.on('error', (error) => logger.debug({ err: error }, 'redis connection error'));
  const events = lifecycle.add('redis (events)', createRedisConnection(config.redis, 'blocking', 'gateway-events'), (redis) => void redis.disconnect());
  events.on('error', (error) => logger.debug({ err: error }, 'redis events connection error'));
  await checkRedisAtBoot(producer, { allowEviction: config.allowRedisEviction, logger });
  // Before any card is queued: a gateway on another shard count would queue cards in shards no renderer reads.
  await claimRenderQueueShards(producer, config.renderQueueShards);
  const bullmq = lifecycle.add('render queue', await createBullmqBackend({ producer, events, logger, registry, shards: config.renderQueueShards }), (opened) => opened.close());
  if (media.kind === 'disk') logger.warn('distributed mode with a disk media store: renderers must share MEDIA_DIR with this gateway');
  logger.info({ store: media.kind, redis: config.redis.kind }, 'distributed mode: rendering through BullMQ');
  return {
    mode: 'distributed',
    queue: createRenderQueue(bullmq),
    media,
    backingStore: { kind: 'redis', ping: async () => void (await producer.ping()) },
    redis: producer,
    warmUp: async () => {},
  };
}
