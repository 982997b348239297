import type { IncomingMessage } from 'node:http';
import { solidPng, startImageServer, type ImageServer } from './image-server.ts';

export const SLOW_PATH = '/slow.png';

/**
 * A loopback image server whose `/slow.png` is a real PNG dripped in ten pieces over `dripMs`, so
 * a render that fetches it is reliably in progress for that long. `onRequest` sees each request
 * for it (its socket tells which process is fetching).
 */
export async function startSlowImageServer(dripMs = 2000, onRequest?: (request: IncomingMessage) => void): Promise<ImageServer> {
  const background = solidPng(900, 300, '#3355cc');
  return startImageServer({
    [SLOW_PATH]: (request, _respond, response) => {
      onRequest?.(request);
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': background.length });
      const pieces = 10;
      const size = Math.ceil(background.length / pieces);
      let sent = 0;
      const timer = setInterval(() => {
        if (response.destroyed) return clearInterval(timer);
        response.write(background.subarray(sent * size, (sent + 1) * size));
        sent += 1;
        if (sent === pieces) {
          clearInterval(timer);
          response.end();
        }
      }, dripMs / pieces);
    },
  });
}
