/** What the gateway reuses in embedded mode: the same render path, without BullMQ. */
export { createRenderingCore, type RenderingCore } from './rendering-core.ts';
export { openMediaStore } from './open-media-store.ts';
export { renderingEnvironmentShape, refineRenderingEnvironment, toRenderingSettings, type RenderingSettings } from './rendering-settings.ts';
export type { RenderJobProcessor } from './render-job-processor.ts';
