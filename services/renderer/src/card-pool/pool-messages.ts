import type { CardInput } from '@utility-api/card';
import type { CardImageErrorReason } from '@utility-api/card/image-inspection';

/** What crosses between the pool and its threads. Buffers arrive as Uint8Array on the other side. */
export interface RenderTask {
  id: number;
  input: CardInput;
}

export type RenderTaskOutcome =
  | {
      id: number;
      ok: true;
      png: Uint8Array;
      width: number;
      height: number;
      timings: { prepare: number; draw: number; encode: number; steps: Record<string, number> };
      warnings: string[];
    }
  | { id: number; ok: false; imageError?: { reason: CardImageErrorReason; field: string; message: string }; message: string };
