import type { Readable } from 'node:stream';

/** Card images are the only media we store; the type is a literal so callers never guess. */
export const MEDIA_CONTENT_TYPE = 'image/png';

export interface MediaObject {
  key: string;
  size: number;
  /** Strong, quoted entity tag (`"…"`), usable as is in an `ETag` header. */
  etag: string;
  lastModified: Date;
  contentType: typeof MEDIA_CONTENT_TYPE;
}

export interface OpenedMedia {
  object: MediaObject;
  /** The PNG bytes; the caller must consume or destroy it, or the file handle / socket stays open. */
  body: Readable;
}

/**
 * Where rendered card images live. Keys are lowercase UUIDs derived from the render request, so a
 * `put` of an existing key carries the same image and may overwrite it.
 */
export interface MediaStore {
  readonly kind: 'disk' | 's3';
  /** Atomic: readers see the previous object or the complete new one, never part of it. */
  put(key: string, png: Buffer): Promise<MediaObject>;
  /** `undefined` when absent. */
  stat(key: string): Promise<MediaObject | undefined>;
  /** `undefined` when absent. */
  open(key: string): Promise<OpenedMedia | undefined>;
  /** Resolves when the store can serve requests; throws `StorageUnavailableError` otherwise. */
  ping(): Promise<void>;
  /** Stops sweepers and destroys connections; idempotent. Later calls throw `StorageUnavailableError` (`closed`). */
  close(): Promise<void>;
}
