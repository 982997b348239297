import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type ContentEncoding = 'br' | 'gzip';

/**
 * A file the gateway serves as-is under a name that carries its content hash, so it can be cached
 * forever: a new version is a new name. The compressed forms are made on first demand (the
 * renderer's bundle takes ~0.1 s to compress, off the event loop) and kept.
 */
export class StaticAsset {
  readonly fileName: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** A strong ETag: the bytes' SHA-256, the same one the file name carries a prefix of. */
  readonly etag: string;
  readonly #encoded = new Map<ContentEncoding, Promise<Buffer>>();

  constructor(baseName: string, extension: string, contentType: string, body: Buffer) {
    const digest = createHash('sha256').update(body).digest('hex');
    this.fileName = `${baseName}.${digest.slice(0, 16)}.${extension}`;
    this.contentType = contentType;
    this.body = body;
    this.etag = `"${digest}"`;
  }

  encoded(encoding: ContentEncoding): Promise<Buffer> {
    let pending = this.#encoded.get(encoding);
    if (!pending) {
      // Brotli quality 5: within a few percent of 11 on this kind of bundle at a fraction of the time.
      pending = encoding === 'br' ? brotli(this.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipAsync(this.body, { level: 6 });
      // A failed compression is not kept: the next request tries again (and is served plain meanwhile).
      pending.catch(() => this.#encoded.delete(encoding));
      this.#encoded.set(encoding, pending);
    }
    return pending;
  }
}
