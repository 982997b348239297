import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import createWebpDecoderModule from '@jsquash/webp/codec/dec/webp_dec.js';

/**
 * libwebp compiled to WebAssembly (from @jsquash/webp), because node-canvas cannot decode WebP.
 *
 * We call the Emscripten factory directly instead of the package's `init()`/`decode()` wrapper:
 * the wrapper defers a failed start-up to the first `decode()`, where it would look like a corrupt
 * image, and it throws one generic error for every failure. Here start-up failures reject
 * {@link loadWebpDecoder} (a server fault), and a decoder that gives up returns `undefined`.
 *
 * Note: the Emscripten glue defines a minimal `globalThis.ImageData` when none exists (its C++ side
 * constructs results with it). node-canvas does not define that global, so this is the only one.
 */

/** The RGBA pixels of a decoded still (straight alpha, row-major), as the wasm module returns them. */
export interface RgbaPixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** The part of the Emscripten module we use. */
interface WebpDecoderModule {
  decode(data: Uint8Array): unknown;
}

// The project's TypeScript libraries (ES2023, no DOM) carry no WebAssembly types, and the package's
// declarations describe the factory loosely; these are the few shapes this file relies on.
interface WasmInstance {
  exports: unknown;
}
interface WasmModule {
  readonly compiled: unique symbol;
}
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Instance: new (module: WasmModule, imports: unknown) => WasmInstance;
}
type WebpDecoderFactory = (options: {
  noInitialRun: boolean;
  instantiateWasm: (imports: unknown, receiveInstance: (instance: WasmInstance) => void) => unknown;
}) => Promise<WebpDecoderModule>;

const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WebAssemblyApi };
const createDecoder = createWebpDecoderModule as unknown as WebpDecoderFactory;

/** One decoder per process (or per worker thread: each has its own module scope), started on first use. */
let decoder: Promise<WebpDecoderModule> | undefined;

async function startDecoder(): Promise<WebpDecoderModule> {
  const wasmPath = createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
  const compiled = await wasm.compile(await readFile(wasmPath));
  return createDecoder({
    noInitialRun: true,
    // Instantiate from the module compiled above, so Emscripten never fetches or locates the file itself.
    instantiateWasm(imports, receiveInstance) {
      const instance = new wasm.Instance(compiled, imports);
      receiveInstance(instance);
      return instance.exports;
    },
  });
}

/** The shared decoder, compiled and instantiated on first call. A failed start is retried next time. */
export function loadWebpDecoder(): Promise<WebpDecoderModule> {
  decoder ??= startDecoder().catch((error: unknown) => {
    decoder = undefined;
    throw error;
  });
  return decoder;
}

function isRgbaPixels(value: unknown): value is RgbaPixels {
  if (typeof value !== 'object' || value === null) return false;
  const { width, height, data } = value as Partial<RgbaPixels>;
  return (
    typeof width === 'number' &&
    typeof height === 'number' &&
    data instanceof Uint8ClampedArray &&
    data.length === width * height * 4
  );
}

/**
 * Decodes a still WebP (simple or extended, not animated) to RGBA with a decoder from
 * {@link loadWebpDecoder}. Returns `undefined` when libwebp refuses the bytes. If the module itself
 * fails (an Emscripten abort leaves it unusable), it is dropped so the next call starts afresh.
 */
export function decodeWebpStill(module: WebpDecoderModule, bytes: Buffer): RgbaPixels | undefined {
  let result: unknown;
  try {
    // Embind copies the view's bytes (not its whole underlying ArrayBuffer) into wasm memory.
    result = module.decode(bytes);
  } catch {
    decoder = undefined;
    return undefined;
  }
  return isRgbaPixels(result) ? result : undefined;
}
