import { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Client, type BucketItemStat } from 'minio';
import { DeadlineError, type Logger, withDeadline } from '@utility-api/infra';
import { DEFAULT_MEDIA_FORMAT, MEDIA_FORMATS, mediaObjectName, type MediaFormat } from '@utility-api/render-jobs';
import { assertMediaKey } from './media-key.ts';
import { type MediaObject, type MediaStore, type OpenedMedia } from './media-store.ts';
import { applyExpiryRule, ensureBucket, type LifecycleStatus } from './s3-bucket-setup.ts';
import { isObjectNotFound, isStaleConnection, toStorageError } from './s3-errors.ts';
import { createS3Transport, parseS3Endpoint } from './s3-transport.ts';
import { StorageUnavailableError } from './storage-errors.ts';

const DEFAULT_S3_REQUEST_TIMEOUT_MS = 5000;
const DEFAULT_REGION = 'us-east-1';

export interface S3MediaStoreOptions {
  /** Origin of the S3 API, e.g. `http://127.0.0.1:9000` or `https://s3.eu-west-1.amazonaws.com`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** Dedicated to card images: its lifecycle configuration is replaced at boot. */
  bucket: string;
  /** Defaults to us-east-1; set so the client never spends a request looking the region up. */
  region?: string;
  /** Objects expire this many days after upload, through a bucket lifecycle rule. */
  ttlDays: number;
  /** Deadline of every storage call, and idle limit of a streamed body. Default 5000. */
  requestTimeoutMs?: number;
  logger?: Logger;
}

export interface S3MediaStore extends MediaStore {
  readonly kind: 's3';
  readonly bucket: string;
  /** Whether the expiry rule is in place; see `LifecycleStatus`. */
  readonly lifecycle: LifecycleStatus;
}

/**
 * Media in an S3-compatible bucket for the distributed mode. Boot creates the bucket if needed and
 * applies the expiry rule; a store that cannot be reached fails boot with `StorageUnavailableError`.
 */
export async function createS3MediaStore(options: S3MediaStoreOptions): Promise<S3MediaStore> {
  if (!Number.isInteger(options.ttlDays) || options.ttlDays < 1) throw new RangeError('ttlDays must be a whole number of days, at least 1');
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_S3_REQUEST_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('requestTimeoutMs must be a positive number');
  const { host, port, useSSL } = parseS3Endpoint(options.endpoint);
  const region = options.region ?? DEFAULT_REGION;
  const { bucket, logger } = options;

  const connection = createS3Transport(useSSL, timeoutMs);
  const client = new Client({
    endPoint: host, port, useSSL, accessKey: options.accessKey, secretKey: options.secretKey, region,
    // MinIO and most look-alikes serve path-style; virtual hosts would need DNS per bucket.
    pathStyle: true,
    transport: connection.transport,
    transportAgent: connection.agent,
    // Its retry sleeps with console.warn and knows no deadline; `run` retries the one safe case.
    retryOptions: { disableRetry: true },
  });
  /**
   * One storage call under one deadline, whatever the client does inside (region look-ups, a
   * server that accepts and never answers). A call that fails on a stale keep-alive socket is tried
   * once more within the same deadline: every call we make is idempotent. `discardLate` releases a
   * result that arrives after the deadline (a response stream nobody will read).
   */
  const run = async <T>(attempt: () => Promise<T>, discardLate?: (value: T) => void): Promise<T> => {
    const startedAt = Date.now();
    const work = attempt().catch((error: unknown) => {
      if (isStaleConnection(error) && Date.now() - startedAt < timeoutMs) return attempt();
      throw error;
    });
    try {
      return await withDeadline(work, timeoutMs, 'storage call');
    } catch (error) {
      if (!(error instanceof DeadlineError)) throw error;
      void work.then(discardLate, () => undefined);
      throw new StorageUnavailableError('timeout', { cause: error });
    }
  };

  let lifecycle: LifecycleStatus;
  try {
    const bucketState = await ensureBucket(client, bucket, region, run);
    lifecycle = await applyExpiryRule(client, bucket, options.ttlDays, run, logger);
    logger?.info({ bucket, bucketState, lifecycle, ttlDays: options.ttlDays }, 'S3 media store ready');
  } catch (error) {
    connection.destroy();
    throw error;
  }

  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new StorageUnavailableError('closed');
  };
  // The client strips the quotes; an ETag header needs them.
  const describe = (key: string, format: MediaFormat, stat: Pick<BucketItemStat, 'size' | 'etag' | 'lastModified'>): MediaObject => {
    return { key, size: stat.size, etag: `"${stat.etag}"`, lastModified: stat.lastModified, format, contentType: MEDIA_FORMATS[format] };
  };
  const statObject = async (key: string, format: MediaFormat): Promise<MediaObject | undefined> => {
    try {
      return describe(key, format, await run(() => client.statObject(bucket, mediaObjectName(key, format))));
    } catch (error) {
      if (isObjectNotFound(error)) return undefined;
      throw toStorageError(error);
    }
  };

  return {
    kind: 's3',
    bucket,
    lifecycle,

    async put(key, bytes, format = DEFAULT_MEDIA_FORMAT) {
      assertMediaKey(key);
      ensureOpen();
      try {
        // A single PUT (the client only goes multipart above 5 MiB) is atomic on every S3 implementation.
        const uploaded = await run(() => client.putObject(bucket, mediaObjectName(key, format), bytes, bytes.length, { 'Content-Type': MEDIA_FORMATS[format] }));
        // The PUT response carries no date; the local clock is close enough, `stat` has the store's.
        return describe(key, format, { size: bytes.length, etag: uploaded.etag, lastModified: new Date() });
      } catch (error) {
        throw toStorageError(error);
      }
    },

    async stat(key, format = DEFAULT_MEDIA_FORMAT) {
      assertMediaKey(key);
      ensureOpen();
      return statObject(key, format);
    },

    async open(key, format = DEFAULT_MEDIA_FORMAT): Promise<OpenedMedia | undefined> {
      assertMediaKey(key);
      ensureOpen();
      let body: Readable;
      try {
        body = await run(() => client.getObject(bucket, mediaObjectName(key, format)), (late) => late.destroy());
      } catch (error) {
        if (isObjectNotFound(error)) return undefined;
        throw toStorageError(error);
      }
      const object = objectFromResponse(key, format, body);
      if (object) return { object, body };
      // Not the raw response (a client change): ask separately. Keys are content-derived, so both describe the same bytes.
      try {
        const stated = await statObject(key, format);
        if (!stated) {
          body.destroy();
          return undefined;
        }
        return { object: stated, body };
      } catch (error) {
        body.destroy();
        throw error;
      }
    },

    async ping() {
      ensureOpen();
      let exists: boolean;
      try {
        exists = await run(() => client.bucketExists(bucket));
      } catch (error) {
        throw toStorageError(error);
      }
      if (!exists) throw new StorageUnavailableError('rejected', { cause: new Error('the media bucket no longer exists') });
    },

    async close() {
      if (closed) return;
      closed = true;
      connection.destroy();
    },
  };
}

/** The client hands back the HTTP response itself, whose headers already describe the object. */
function objectFromResponse(key: string, format: MediaFormat, body: Readable): MediaObject | undefined {
  if (!(body instanceof IncomingMessage)) return undefined;
  const { etag } = body.headers;
  const size = Number(body.headers['content-length']);
  const lastModified = new Date(body.headers['last-modified'] ?? Number.NaN);
  if (etag === undefined || !Number.isSafeInteger(size) || Number.isNaN(lastModified.getTime())) return undefined;
  const quoted = etag.startsWith('"') ? etag : `"${etag}"`;
  return { key, size, etag: quoted, lastModified, format, contentType: MEDIA_FORMATS[format] };
}
