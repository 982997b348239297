/**
 * The render path the gateway runs in embedded mode (without BullMQ). It loads node-canvas: the
 * canvas-free part every gateway needs is `@utility-api/renderer/shared`.
 */
export { createRenderingCore, type RenderingCore } from './rendering-core.ts';
export type { RenderJobProcessor } from './render-job-processor.ts';
