export type { MediaObject, MediaStore, OpenedMedia } from './media-store.ts';
export { openMediaStore } from './open-media-store.ts';
export { InvalidMediaKeyError, StorageUnavailableError } from './storage-errors.ts';
export { createDiskMediaStore, type DiskMediaStore } from './disk-media-store.ts';
export { createS3MediaStore, type S3MediaStore, type S3MediaStoreOptions } from './s3-media-store.ts';
export { EXPIRY_RULE_ID } from './s3-bucket-setup.ts';
