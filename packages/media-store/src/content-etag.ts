import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

const READ_CHUNK_BYTES = 64 * 1024;

/** 128 bits of sha-256 are plenty to tell two card images apart and keep the header short. */
function quotedDigest(hash: Hash): string {
  return `"${hash.digest('hex').slice(0, 32)}"`;
}

/** A strong ETag derived from the bytes, so identical content has the same tag on every node. */
export function contentEtag(bytes: Buffer): string {
  return quotedDigest(createHash('sha256').update(bytes));
}

/** Same tag as `contentEtag`, computed from an open file with positional reads (the handle's offset is left alone). */
export async function fileContentEtag(handle: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return quotedDigest(hash);
}
