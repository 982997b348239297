/** What the gateway reuses: the render path (embedded mode, without BullMQ) and the Redis boot check. */
export { createRenderingCore, type RenderingCore } from './rendering-core.ts';
export { openMediaStore } from './open-media-store.ts';
export { renderingEnvironmentShape, refineRenderingEnvironment, toRenderingSettings, type RenderingSettings } from './rendering-settings.ts';
export type { RenderJobProcessor } from './render-job-processor.ts';
export { checkRedisEvictionPolicy, RedisEvictionPolicyError, type EvictionPolicyCheck } from './redis-eviction-policy.ts';
