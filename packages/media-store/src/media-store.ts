import type { Readable } from 'node:stream';
import type { MediaContentType, MediaFormat } from '@utility-api/render-jobs';

export interface MediaObject {
  key: string;
  size: number;
  /** Strong, quoted entity tag (`"…"`), usable as is in an `ETag` header. */
  etag: string;
  lastModified: Date;
  format: MediaFormat;
  /** `MEDIA_FORMATS[format]`: card images are the only media we store, so callers never guess. */
  contentType: MediaContentType;
}

export interface OpenedMedia {
  object: MediaObject;
  /** The image bytes; the caller must consume or destroy it, or the file handle / socket stays open. */
  body: Readable;
}

/**
 * Where rendered card images live. Keys are lowercase UUIDs derived from the image bytes, so a
 * `put` of an existing key carries the same image and may overwrite it. One key may exist in
 * several formats (`<key>.png`, `<key>.webp`); `format` defaults to `png`, the spec's URL shape.
 */
export interface MediaStore {
  readonly kind: 'disk' | 's3';
  /**
   * Atomic: readers see the previous object or the complete new one, never part of it.
   * `contentSha256` is the SHA-256 of `bytes` when the caller already has it (the key is made from
   * it): the disk store derives its ETag from it instead of hashing the bytes a second time.
   */
  put(key: string, bytes: Buffer, format?: MediaFormat, contentSha256?: Buffer): Promise<MediaObject>;
  /** `undefined` when absent. */
  stat(key: string, format?: MediaFormat): Promise<MediaObject | undefined>;
  /** `undefined` when absent. */
  open(key: string, format?: MediaFormat): Promise<OpenedMedia | undefined>;
  /** Resolves when the store can serve requests; throws `StorageUnavailableError` otherwise. */
  ping(): Promise<void>;
  /** Stops sweepers and destroys connections; idempotent. Later calls throw `StorageUnavailableError` (`closed`). */
  close(): Promise<void>;
}
