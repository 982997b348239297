/**
 * The render path both run modes share: the renderer service's BullMQ worker and the embedded
 * gateway call it. It loads node-canvas, so a distributed gateway never imports it.
 */
export { createRenderEngine, type RenderEngine, type RenderingSettings } from './render-engine.ts';
export { encodeCardImage } from './card-pool/card-formats.ts';
