import { type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type LookupFunction, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { type Destination } from './destination.ts';
import { type FetchBudget } from './fetch-session.ts';
import { type FetchTarget } from './fetch-target.ts';
import { ImageFetchError } from './image-fetch-error.ts';
import { sameAddress } from './address-class.ts';
import { type InspectedImage, ImageStreamInspector, tooManyBytes } from './image-stream-inspector.ts';

export type HopOutcome = { kind: 'image'; image: InspectedImage } | { kind: 'redirect'; location: string };

export interface HopOptions {
  field: string;
  maxBytes: number;
  budget: FetchBudget | undefined;
  userAgent: string;
  /** Aborts at the fetch's deadline or when it is called off; the hop then rejects with its reason. */
  signal: AbortSignal;
  trustedCertificates: readonly string[] | undefined;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'image/png, image/jpeg, image/gif, image/webp';

/**
 * One HTTP exchange with an already validated destination. The connection is pinned: the request's
 * `lookup` answers with the checked address whatever the hostname is, so DNS cannot change its
 * answer between the check and the connect (rebinding), and the socket's peer is compared with it
 * again on connect. Every request gets its own socket (`agent: false`, `Connection: close`), which
 * is destroyed the moment anything is refused; nothing is pooled or reused.
 *
 * Only GET is ever sent, so 301, 302 and 303 (which turn other methods into GET) need nothing special.
 */
export function fetchHop(target: FetchTarget, destination: Destination, options: HopOptions): Promise<HopOutcome> {
  const { field } = options;
  return new Promise<HopOutcome>((resolve, reject) => {
    let settled = false;
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(requestOptions(target, destination, options));
    const finish = (outcome: { value: HopOutcome } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', aborted);
      request.destroy();
      if ('value' in outcome) resolve(outcome.value);
      else reject(outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)));
    };
    const fail = (error: unknown) => finish({ error });
    const aborted = () => fail(options.signal.reason);

    request.on('socket', (socket: Socket) => {
      // Prepended so that it runs before the request (or the TLS handshake) is flushed onto the socket.
      socket.prependOnceListener('connect', () => {
        if (!isConnectedTo(socket, destination)) fail(unexpectedPeer(field));
      });
    });
    request.on('error', (error) => fail(connectionError(error, target, field)));
    request.on('response', (response: IncomingMessage) => {
      if (settled) return;
      if (!isConnectedTo(response.socket, destination)) return fail(unexpectedPeer(field));
      try {
        const outcome = judgeResponseHead(response, options);
        if (outcome !== undefined) return finish({ value: outcome });
      } catch (error) {
        return fail(error);
      }
      readBody(response, options, finish);
    });
    // Checked after the request exists: a deadline that has already passed destroys it at once,
    // before its socket (created on the next tick) can connect.
    if (options.signal.aborted) aborted();
    else options.signal.addEventListener('abort', aborted, { once: true });
    if (!settled) request.end();
  });
}

function requestOptions(target: FetchTarget, destination: Destination, options: HopOptions): RequestOptions & { ca?: string[]; autoSelectFamily?: boolean } {
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    process.nextTick(() => {
      if (lookupOptions.all === true) callback(null, [{ address: destination.address, family: destination.family }]);
      else callback(null, destination.address, destination.family);
    });
  };
  return {
    protocol: target.url.protocol,
    hostname: target.hostname, // still the name: it is the Host header and the TLS server name
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    method: 'GET',
    headers: { Accept: ACCEPT, 'Accept-Encoding': 'identity', 'User-Agent': options.userAgent, Connection: 'close' },
    agent: false,
    lookup: pinned,
    family: destination.family,
    autoSelectFamily: false,
    ...(target.url.protocol === 'https:' && options.trustedCertificates !== undefined && options.trustedCertificates.length > 0
      ? { ca: [...rootCertificates, ...options.trustedCertificates] }
      : {}),
  };
}

/** A redirect, a refusal (thrown), or `undefined` when the body should be read. */
function judgeResponseHead(response: IncomingMessage, options: HopOptions): HopOutcome | undefined {
  const { field } = options;
  const status = response.statusCode ?? 0;
  if (REDIRECT_STATUSES.has(status)) {
    const location = response.headers.location;
    if (location === undefined || location === '') throw new ImageFetchError('http_status', field, `the image server answered HTTP ${status} without a Location`);
    return { kind: 'redirect', location };
  }
  if (status < 200 || status > 299) throw new ImageFetchError('http_status', field, `the image server answered HTTP ${status}`);
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') {
    throw new ImageFetchError('unsupported_encoding', field, 'the image server sent a compressed response; images are fetched uncompressed');
  }
  const declaredLength = Number(response.headers['content-length'] ?? 0);
  if (declaredLength > options.maxBytes) throw tooManyBytes(field, options.maxBytes);
  // The budget only shrinks, so a body announced bigger than what is left cannot fit.
  if (options.budget !== undefined && declaredLength > options.budget.remainingBytes) throw options.budget.exceeded(field);
  return undefined;
}

function readBody(response: IncomingMessage, options: HopOptions, done: (outcome: { value: HopOutcome } | { error: unknown }) => void): void {
  const inspector = new ImageStreamInspector(options.field, options.maxBytes);
  response.on('data', (chunk: Buffer) => {
    try {
      options.budget?.charge(chunk.length, options.field);
      inspector.push(chunk);
    } catch (error) {
      done({ error });
    }
  });
  response.on('end', () => {
    try {
      done({ value: { kind: 'image', image: inspector.finish() } });
    } catch (error) {
      done({ error });
    }
  });
  // Emitted when the connection ends before the announced body; 'end' does not follow.
  response.on('error', () => done({ error: truncated(options.field) }));
  response.on('close', () => {
    if (!response.complete) done({ error: truncated(options.field) });
  });
}

/** The socket must be connected to the validated address and nothing else. */
function isConnectedTo(socket: Socket | null, destination: Destination): boolean {
  const remote = socket?.remoteAddress;
  return remote !== undefined && sameAddress(remote, destination.address);
}

function unexpectedPeer(field: string): ImageFetchError {
  return new ImageFetchError('forbidden_address', field, 'the connection did not reach the checked address');
}

function truncated(field: string): ImageFetchError {
  return new ImageFetchError('truncated', field, 'the connection closed before the image was complete');
}

/**
 * Socket, TLS and HTTP parser errors, reported without their codes or addresses. A parser error
 * (`HPE_*`) also covers a server sending more bytes than its Content-Length: they are never read
 * as part of the body.
 */
function connectionError(error: unknown, target: FetchTarget, field: string): unknown {
  if (error instanceof ImageFetchError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  let detail = `the image server ${target.hostname} could not be reached`;
  if (code.startsWith('HPE_')) detail = `the image server ${target.hostname} sent a malformed HTTP response`;
  else if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT')) {
    detail = `a secure connection to ${target.hostname} could not be established`;
  }
  return new ImageFetchError('unreachable', field, detail);
}
