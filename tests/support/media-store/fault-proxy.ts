import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

/**
 * - `forward`: a transparent TCP proxy to the upstream server;
 * - `blackhole`: accepts connections and never answers (a hung server or a dropped route);
 * - `unavailable`: answers every request with HTTP 503;
 * - `refuse`: stops listening, so connections are refused.
 */
export type FaultMode = 'forward' | 'blackhole' | 'unavailable' | 'refuse';

export interface FaultProxy {
  endpoint: string;
  setMode(mode: FaultMode): Promise<void>;
  stop(): Promise<void>;
}

const UNAVAILABLE_RESPONSE = 'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

/** A loopback proxy in front of `upstreamPort` whose failure mode a test switches at will. */
export async function startFaultProxy(upstreamPort: number): Promise<FaultProxy> {
  let mode: FaultMode = 'forward';
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (mode === 'blackhole') return;
    if (mode === 'unavailable') {
      client.once('data', () => client.end(UNAVAILABLE_RESPONSE));
      return;
    }
    const upstream = connect(upstreamPort, '127.0.0.1');
    track(upstream);
    client.pipe(upstream).pipe(client);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async setMode(next) {
      // Pooled keep-alive connections were set up under the old mode; the new one starts clean.
      dropConnections();
      if (next === 'refuse' && server.listening) {
        server.close();
        await once(server, 'close');
      } else if (next !== 'refuse' && !server.listening) {
        server.listen(port, '127.0.0.1');
        await once(server, 'listening');
      }
      mode = next;
    },
    async stop() {
      dropConnections();
      if (server.listening) {
        server.close();
        await once(server, 'close');
      }
    },
  };
}
