import { z } from 'zod';

/**
 * Why a render failed, as the client should hear it. BullMQ carries a failure as a single string
 * (`failedReason`), so the renderer encodes this object into the error message and the gateway
 * decodes it; a reason that does not decode (a crash, a stalled job) becomes `render_failed`.
 */
export const RENDER_FAILURE_CODES = {
  /** Discord has no user with this id. */
  unknown_user: 404,
  /** A custom or profile image could not be fetched or used (refused address, too large, corrupt...). */
  image_unusable: 422,
  /** Discord's API failed or rate-limited us. */
  discord_unavailable: 502,
  /** The media store could not take the PNG. */
  storage_unavailable: 503,
  /** A renderer died or gave up on the job (retries exhausted), or its render worker crashed or ran over budget. */
  render_failed: 503,
  /** The embedded gateway already has RENDER_QUEUE_LIMIT distinct cards waiting or drawing. */
  overloaded: 503,
} as const;

export type RenderFailureCode = keyof typeof RENDER_FAILURE_CODES;

const renderFailureSchema = z.object({
  code: z.enum(Object.keys(RENDER_FAILURE_CODES) as [RenderFailureCode, ...RenderFailureCode[]]),
  status: z.number().int().min(400).max(599),
  /** Public-safe sentence for the API user. */
  message: z.string(),
  /** The request field at fault, such as `customBackground` or `customBadges.2`. */
  field: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});

export type RenderFailure = z.output<typeof renderFailureSchema>;

const PREFIX = 'render-failure:';

export function encodeRenderFailure(failure: RenderFailure): string {
  return PREFIX + JSON.stringify(failure);
}

export function decodeRenderFailure(failedReason: string | undefined): RenderFailure {
  if (failedReason?.startsWith(PREFIX)) {
    try {
      const parsed = renderFailureSchema.safeParse(JSON.parse(failedReason.slice(PREFIX.length)));
      if (parsed.success) return parsed.data;
    } catch {
      // Falls through to the generic failure below.
    }
  }
  return {
    code: 'render_failed',
    status: RENDER_FAILURE_CODES.render_failed,
    message: 'The card could not be rendered. Please retry.',
    retryAfterSeconds: 1,
  };
}

/** Thrown by renderers for a failure the client caused or must hear about as is. */
export class RenderFailureError extends Error {
  override readonly name = 'RenderFailureError';
  readonly failure: RenderFailure;
  /** Retrying cannot help (bad input, unknown user): fail the job at once. */
  readonly permanent: boolean;

  constructor(failure: RenderFailure, options: { permanent: boolean; cause?: unknown }) {
    super(encodeRenderFailure(failure), { cause: options.cause });
    this.failure = failure;
    this.permanent = options.permanent;
  }
}
