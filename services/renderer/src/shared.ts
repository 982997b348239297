/**
 * The canvas-free part of the renderer the gateway needs in every mode (settings, the media store,
 * the Redis boot check). A distributed gateway imports only this, so it never loads node-canvas;
 * the render path itself (`@utility-api/renderer`) is imported only in embedded mode.
 */
export { openMediaStore } from './open-media-store.ts';
export { renderingEnvironmentShape, refineRenderingEnvironment, toRenderingSettings, type RenderingSettings } from './rendering-settings.ts';
export { checkRedisEvictionPolicy, RedisEvictionPolicyError, type EvictionPolicyCheck } from './redis-eviction-policy.ts';
export { redisUrlField, serviceEnvironmentShape } from './service-environment.ts';
