import { envInteger, envUrl } from '@utility-api/infra';
import { z } from 'zod';
import type { MediaSettings } from './open-media-store.ts';

/**
 * The media store's environment variables (MEDIA_*, S3_*): their defaults and limits, the check
 * that they hold together and the settings openMediaStore takes. A service spreads the shape into
 * its one schema.
 */
export const mediaEnvironmentShape = {
  MEDIA_TTL_DAYS: envInteger({ min: 1, max: 3650, default: 30 }),
  /** The disk store's folder, when no S3 is configured (embedded mode). */
  MEDIA_DIR: z.string().min(1).default('.data/media'),
  S3_ENDPOINT: envUrl(['http', 'https']).optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be a valid S3 bucket name' })
    .default('cards'),
  S3_REGION: z.string().default('us-east-1'),
};

type MediaEnvironment = z.output<z.ZodObject<typeof mediaEnvironmentShape>>;

const S3_CREDENTIALS = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const;

/** S3 settings come as a set: naming some but not all is a configuration mistake worth stopping for. */
export function refineMediaEnvironment(env: MediaEnvironment, context: z.RefinementCtx): void {
  if (S3_CREDENTIALS.some((name) => env[name] !== undefined) && S3_CREDENTIALS.some((name) => env[name] === undefined)) {
    for (const name of S3_CREDENTIALS) {
      if (env[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required when any S3_* variable is set' });
    }
  }
}

/** S3 when its three variables are set (refineMediaEnvironment refuses fewer), else the disk. */
export function toMediaSettings(env: MediaEnvironment): MediaSettings {
  return {
    ttlDays: env.MEDIA_TTL_DAYS,
    directory: env.MEDIA_DIR,
    s3:
      env.S3_ENDPOINT && env.S3_ACCESS_KEY && env.S3_SECRET_KEY
        ? { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY, bucket: env.S3_BUCKET, region: env.S3_REGION }
        : undefined,
  };
}
