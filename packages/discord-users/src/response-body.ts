/** Discord's user objects and error bodies are a few hundred bytes; anything near this is not one. */
export const MAX_API_BODY_BYTES = 256 * 1024;

export class OversizedBodyError extends Error {
  override readonly name = 'OversizedBodyError';
}

/** The body as text, refusing to buffer more than `maxBytes` whatever Content-Length claimed. */
export async function readBodyText(response: Response, maxBytes = MAX_API_BODY_BYTES): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new OversizedBodyError(`body of ${declared} bytes is over ${maxBytes}`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  // Node types fetch bodies as streams of `any`; they carry bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw new OversizedBodyError(`body is over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** JSON, or `undefined` for an empty or non-JSON body (an HTML error page from a proxy, say). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
