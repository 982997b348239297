import type { IncomingMessage } from 'node:http';

/**
 * How much of a refused body (over the size limit, badly encoded, not JSON) the gateway still reads
 * and throws away before it answers: 32 MB, 32 times the 1 MB limit. Most clients (Python's
 * http.client and requests, curl, many SDKs) write the whole body before they read the answer; a
 * server that answers and closes with their bytes unread makes the kernel reset the connection, so
 * such a client sees EPIPE or ECONNRESET instead of the 413. Reading costs bandwidth, not memory
 * (nothing is kept), and happens within the request timeout (REQUEST_TIMEOUT_MS), which still ends
 * a slow body. A body longer than this, or one that declares a longer Content-Length, is answered
 * at once with `Connection: close`, and the connection is closed: such a client may see a reset.
 */
export const REFUSED_BODY_DRAIN_BYTES = 32 * 1024 * 1024;

/**
 * Reads and discards what is left of `request`'s body, up to `maxBytes`, so the answer to a refused
 * body reaches a client that is still sending it. Resolves true once the body has been read to its
 * end, false when it goes on past `maxBytes`, declares more than that, or the connection ends first.
 * Either way the caller answers with `Connection: close`: a connection whose body a parser gave up
 * on is not reused (its stream was paused and unpiped mid-body), and once the body is read the
 * close loses nothing.
 */
export function drainRefusedBody(request: IncomingMessage, maxBytes = REFUSED_BODY_DRAIN_BYTES): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  if (request.destroyed) return Promise.resolve(false);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(false);
  // A parser that gave up may have left the body piped into a decompressor: draining must not
  // inflate the rest (a compression bomb), only read the wire bytes.
  request.unpipe();
  return new Promise((resolve) => {
    let drained = 0;
    const finish = (complete: boolean) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      request.off('error', onError);
      if (!complete) request.pause();
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(request.complete);
    const onError = () => finish(false);
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('close', onClose);
    request.once('error', onError);
    request.resume();
  });
}
