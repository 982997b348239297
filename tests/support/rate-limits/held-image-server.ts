import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solidPng } from '../../fixtures/images.ts';

/** Paths under this are held until `release()`: a card fetching one stays in progress until then. */
export const HELD_PREFIX = '/held/';

export interface HeldImageServer {
  url: string;
  /** Requests for held paths seen so far. */
  readonly seen: number;
  /** Held requests open right now, and the most ever open at once: the cards of the flood in progress. */
  readonly open: number;
  readonly maxOpen: number;
  /** Answers every held request (and every later one at once) with a real PNG. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A loopback image server whose `/held/<anything>.png` answers only once the test releases it, so
 * each card fetching such a background is reliably in progress (queued or drawing) until then, and
 * the number open at once is exactly the number of those cards in progress: what a key's slots bound.
 */
export async function startHeldImageServer(): Promise<HeldImageServer> {
  const background = solidPng(900, 300, '#3355cc');
  const waiting: ServerResponse[] = [];
  let released = false;
  let seen = 0;
  let open = 0;
  let maxOpen = 0;
  const answer = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': background.length });
    response.end(background);
  };
  const server = createServer((request, response) => {
    if (!(request.url ?? '').startsWith(HELD_PREFIX)) {
      response.writeHead(404).end();
      return;
    }
    seen += 1;
    if (released) return answer(response);
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    response.once('close', () => (open -= 1));
    waiting.push(response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get seen() {
      return seen;
    },
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    release() {
      released = true;
      for (const response of waiting.splice(0)) answer(response);
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
