import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Socket } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/**
 * A local HTTP(S) server that records every connection and request it sees, so tests can assert
 * that a refused fetch never reached it. `route` picks the handler by path; unknown paths get 404.
 */
export interface RecordingServer {
  port: number;
  host: string;
  /** `http://host:port` (IPv6 hosts bracketed). */
  origin: string;
  requests: SeenRequest[];
  connections(): number;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export interface RecordingServerOptions {
  host?: string;
  port?: number;
  tls?: { key: string; cert: string };
}

export async function startRecordingServer(options: RecordingServerOptions = {}): Promise<RecordingServer> {
  const host = options.host ?? '127.0.0.1';
  const routes = new Map<string, Handler>();
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const handle: Handler = (request, response) => {
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? '', path, headers: request.headers });
    const handler = routes.get(path.split('?')[0] ?? path);
    if (handler) handler(request, response);
    else response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle);
  // TCP connections, counted before any HTTP or TLS: a refused fetch must not even connect.
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const scheme = options.tls ? 'https' : 'http';
  return {
    port,
    host,
    origin: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    connections: () => connections,
    route: (path, handler) => void routes.set(path, handler),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A TCP server speaking just enough HTTP to misbehave: it waits for the request head, then hands
 * the socket to `respond`, which writes whatever bytes it likes (lying lengths, endless bodies).
 */
export interface RawServer {
  port: number;
  origin: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startRawServer(respond: (socket: Socket) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createNetServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      respond(socket);
    };
    socket.on('data', onData);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * Writes `total` bytes of `fill` to the socket in 64 KiB pieces, respecting backpressure, until done
 * or the peer goes away. Resolves with how many bytes the kernel accepted.
 */
export async function writeUntilClosed(socket: Socket, total: number, fill = 0x41): Promise<number> {
  const piece = Buffer.alloc(64 * 1024, fill);
  let written = 0;
  while (written < total && !socket.destroyed && socket.writable) {
    const ok = socket.write(piece);
    written += piece.length;
    if (!ok && !(await drainedOrClosed(socket))) break;
  }
  return written;
}

/** `true` once the socket drains, `false` if it closes or fails first. */
function drainedOrClosed(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (drained: boolean) => () => {
      socket.off('drain', onDrain).off('close', onClose).off('error', onClose);
      resolve(drained);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    socket.on('drain', onDrain).on('close', onClose).on('error', onClose);
  });
}

/** Resolves after `ms` milliseconds. */
// sleep-ok: the fake servers' pacing (drips, delays), and poll intervals.
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
