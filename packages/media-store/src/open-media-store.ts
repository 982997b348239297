import type { Lifecycle, Logger } from '@utility-api/infra';
import { createDiskMediaStore } from './disk-media-store.ts';
import type { MediaStore } from './media-store.ts';
import { createS3MediaStore, type S3MediaStoreOptions } from './s3-media-store.ts';

export interface MediaSettings {
  ttlDays: number;
  directory: string;
  s3: Pick<S3MediaStoreOptions, 'endpoint' | 'accessKey' | 'secretKey' | 'bucket' | 'region'> | undefined;
}

/** S3 (MinIO) when configured, else the local disk: the same choice for gateway and renderer. */
export async function openMediaStore(settings: MediaSettings, logger: Logger, lifecycle: Lifecycle): Promise<MediaStore> {
  const store = settings.s3
    ? await createS3MediaStore({ ...settings.s3, ttlDays: settings.ttlDays, logger })
    : await createDiskMediaStore({ directory: settings.directory, ttlMs: settings.ttlDays * 86_400_000, logger });
  lifecycle.add(`media store (${store.kind})`, store, (opened) => opened.close());
  return store;
}
