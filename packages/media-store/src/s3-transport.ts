import * as http from 'node:http';
import * as https from 'node:https';

/**
 * Pooled sockets are dropped after this long idle, shorter than the usual 5 s keep-alive of Node
 * and proxy servers, so we rarely write a request onto a socket the server is closing.
 */
const IDLE_SOCKET_MS = 4000;

/** Raised on a socket that stayed silent for the whole request timeout. */
class SocketIdleTimeoutError extends Error {
  override readonly name = 'SocketIdleTimeoutError';
  readonly code = 'ETIMEDOUT';
}

/**
 * Our own agent (destroyed on close, unlike the global one) and a transport that puts an idle
 * timeout on every socket: the minio client sets none, so a server that accepts the connection and
 * never answers would otherwise hold the request, and a streamed body, forever.
 */
export function createS3Transport(useSSL: boolean, requestTimeoutMs: number) {
  const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxSockets: 64 };
  const agent = useSSL ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const send = (options: http.RequestOptions, onResponse?: (response: http.IncomingMessage) => void): http.ClientRequest => {
    const request = useSSL ? https.request(options, onResponse) : http.request(options, onResponse);
    request.setTimeout(requestTimeoutMs, () => request.destroy(new SocketIdleTimeoutError(`no data for ${requestTimeoutMs} ms`)));
    return request;
  };
  return {
    agent,
    // What the minio client calls: `transport.request(options, onResponse)`. http.request's
    // overloads cannot be restated by a plain function; the client only uses (options, callback).
    transport: { request: send as typeof http.request },
    destroy: () => agent.destroy(),
  };
}

/**
 * `http://127.0.0.1:9000` or `https://s3.example.com` → what the minio client wants. Paths,
 * queries and inline credentials are refused: they would be silently ignored otherwise. Errors
 * never repeat the URL, which may carry a secret.
 */
export function parseS3Endpoint(endpoint: string): { host: string; port: number; useSSL: boolean } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError('S3 endpoint is not a URL (expected e.g. http://127.0.0.1:9000)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('S3 endpoint must use http or https');
  if (url.username !== '' || url.password !== '') throw new TypeError('S3 endpoint must not contain credentials; pass accessKey and secretKey');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new TypeError('S3 endpoint must be an origin only (scheme, host, port), without path or query');
  }
  const useSSL = url.protocol === 'https:';
  // URL keeps IPv6 literals bracketed; the client wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (useSSL ? 443 : 80) : Number(url.port);
  return { host, port, useSSL };
}
