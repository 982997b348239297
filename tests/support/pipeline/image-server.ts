import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface ImageServer {
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** Resolves when the next request for `path` arrives. */
  nextRequest(path: string): Promise<void>;
  close(): Promise<void>;
}

type Route = (request: IncomingMessage, respond: (status: number, type: string, body: Buffer) => void, raw: ServerResponse) => void;

/** A loopback server for card images, recording every request it sees. */
export async function startImageServer(routes: Record<string, Route>): Promise<ImageServer> {
  const requests: string[] = [];
  const waiting = new Map<string, (() => void)[]>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    for (const notify of waiting.get(path) ?? []) notify();
    waiting.delete(path);
    const route = routes[path];
    const respond = (status: number, type: string, body: Buffer) => {
      response.writeHead(status, { 'content-type': type, 'content-length': body.length });
      response.end(body);
    };
    if (!route) return respond(404, 'text/plain', Buffer.from('not found'));
    route(request, respond, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    nextRequest: (path) =>
      new Promise((resolve) => {
        waiting.set(path, [...(waiting.get(path) ?? []), resolve]);
      }),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Serves bytes as a PNG. */
export const png = (bytes: Buffer): Route => (_request, respond) => respond(200, 'image/png', bytes);
