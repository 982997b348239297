import { once } from 'node:events';
import { createServer } from 'node:net';

/** A TCP port that was free a moment ago on loopback. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

/** How many ports a server tries when each one chosen for it was bound by another process first. */
export const PORT_ATTEMPTS = 5;

/**
 * Whether a server failed to start because its port was taken (Node says EADDRINUSE, redis-server
 * "Address already in use"): a port free a moment ago may have gone to any outgoing connection since.
 */
export function portWasTaken(error: unknown): boolean {
  return error instanceof Error && /EADDRINUSE|Address already in use/.test(error.message);
}
