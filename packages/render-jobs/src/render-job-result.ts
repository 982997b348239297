import { z } from 'zod';

/** What a finished render hands back: where the PNG is stored, and facts for logs and metrics. */
export const renderJobResultSchema = z.object({
  /** Lowercase UUID naming the stored PNG (`/media/<mediaKey>.png`), derived from the PNG bytes. */
  mediaKey: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  /** Milliseconds per phase: profile, images (fetch), draw, encode, store. */
  timings: z.record(z.string(), z.number()),
  warnings: z.array(z.string()),
});

export type RenderJobResult = z.output<typeof renderJobResultSchema>;
