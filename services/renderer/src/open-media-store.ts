import type { Lifecycle, Logger } from '@utility-api/infra';
import { createDiskMediaStore, createS3MediaStore, type MediaStore } from '@utility-api/media-store';
import type { RenderingSettings } from './rendering-settings.ts';

/** S3 (MinIO) when configured, else the local disk: the same choice for gateway and renderer. */
export async function openMediaStore(settings: RenderingSettings['media'], logger: Logger, lifecycle: Lifecycle): Promise<MediaStore> {
  const store = settings.s3
    ? await createS3MediaStore({ ...settings.s3, ttlDays: settings.ttlDays, logger })
    : await createDiskMediaStore({ directory: settings.directory, ttlMs: settings.ttlDays * 86_400_000, logger });
  lifecycle.add(`media store (${store.kind})`, store, (opened) => opened.close());
  return store;
}
