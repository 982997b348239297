import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface BackgroundRequest {
  path: string;
  /** The container that asked (its address on the compose network). */
  remoteAddress: string;
}

export interface BackgroundServer {
  /** Base URL as the containers reach it. */
  url: string;
  requests: BackgroundRequest[];
  /** Resolves with the next request whose path starts with `prefix`. */
  nextRequest(prefix: string): Promise<BackgroundRequest>;
  close(): Promise<void>;
}

/**
 * Sends a PNG in ten pieces spread over `durationMs`, so whoever fetches it (a renderer drawing a
 * card) is certainly busy for that long. Stops when the client goes away. The pipeline tests' slow
 * image server drips the same way.
 */
export function dripPng(response: ServerResponse, png: Buffer, durationMs: number): void {
  response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
  const pieces = 10;
  const size = Math.ceil(png.length / pieces);
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer);
    response.write(png.subarray(sent * size, (sent + 1) * size));
    sent += 1;
    if (sent === pieces) {
      clearInterval(timer);
      response.end();
    }
  }, durationMs / pieces);
}

/**
 * Card backgrounds for the renderers to fetch, served on the host's address on the compose network
 * (only the containers reach it). `/slow/<anything>?ms=N` drips a real PNG in ten pieces over N ms,
 * so the card that fetches it is certainly being rendered for that long; each request records
 * which container made it.
 */
export async function startBackgroundServer(host: string): Promise<BackgroundServer> {
  const background = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#3355cc' } }).png().toBuffer();
  const requests: BackgroundRequest[] = [];
  const waiting: { prefix: string; resolve: (request: BackgroundRequest) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://background');
    const seen = { path: url.pathname, remoteAddress: (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') };
    requests.push(seen);
    for (const waiter of waiting.filter((candidate) => seen.path.startsWith(candidate.prefix))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(seen);
    }
    if (!url.pathname.startsWith('/slow/')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const dripMs = Math.min(Number(url.searchParams.get('ms') ?? '0') || 0, 30_000);
    dripPng(response, background, dripMs);
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    nextRequest: (prefix) => new Promise((resolve) => waiting.push({ prefix, resolve })),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
