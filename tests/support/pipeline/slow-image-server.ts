import type { IncomingMessage } from 'node:http';
import { dripPng } from '../../../scripts/docker-test/background-server.ts';
import { startImageServer, type ImageServer } from './image-server.ts';
import { solidPng } from '../../fixtures/images.ts';

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
      dripPng(response, background, dripMs);
    },
  });
}
