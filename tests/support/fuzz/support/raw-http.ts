import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent exactly as given: the request target, with its query string and any percent garbage. */
  path: string;
  /** An array value sends the header once per element (duplicated headers, Authorization too). */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Sends the body chunked instead of with a Content-Length. */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** No request in these tests should come near this; hitting it means the gateway hung. */
const REQUEST_DEADLINE_MS = 30_000;

/**
 * Requests through node:http rather than fetch: fetch normalizes paths, refuses some header values
 * and cannot send a header twice. Keep-alive sockets make thousands of requests cheap.
 */
export class RawHttpClient {
  readonly #base: URL;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(baseUrl: string) {
    this.#base = new URL(baseUrl);
  }

  send(request: RawRequest): Promise<RawResponse> {
    // node:http types some headers as single strings, but sends any of them once per array element.
    const headers = { ...request.headers } as OutgoingHttpHeaders;
    // Always framed: a body with neither header on DELETE would be read as the next request.
    if (request.body !== undefined) {
      if (request.chunked) headers['transfer-encoding'] = 'chunked';
      else headers['content-length'] = String(Buffer.byteLength(request.body));
    }
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: this.#base.hostname,
          port: this.#base.port,
          path: request.path,
          method: request.method,
          headers,
          agent: this.#agent,
          timeout: REQUEST_DEADLINE_MS,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${REQUEST_DEADLINE_MS} ms`)));
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
