import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'minio';

/** The part of s3rver (CommonJS, no typings) these tests use. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: { port: number; address: string; silent: boolean; directory: string }) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export const S3RVER_ACCESS_KEY = 'S3RVER';
export const S3RVER_SECRET_KEY = 'S3RVER-secret-never-shown';

/** Answers a request itself instead of s3rver (return true), e.g. to emulate a call s3rver lacks. */
export type Interceptor = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface RunningS3rver {
  endpoint: string;
  port: number;
  /** Requests received so far (to prove an operation made none). */
  requestCount(): number;
  /** Installs an interceptor (tests run concurrently: scope it to your own bucket); returns its removal. */
  intercept(interceptor: Interceptor): () => void;
  /** A plain minio client on the same server, to look behind the store's back. */
  rawClient(): Client;
  stop(): Promise<void>;
}

/** s3rver on a free loopback port with its own temp directory, removed on stop. */
export async function startS3rver(): Promise<RunningS3rver> {
  const directory = await mkdtemp(join(tmpdir(), 'media-store-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const httpServer = server.httpServer;
  if (!httpServer) throw new Error('s3rver did not expose its http server');

  let requests = 0;
  const interceptors = new Set<Interceptor>();
  // Put a counting, optionally intercepting, listener in front of s3rver's own request handler.
  const handlers = httpServer.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  httpServer.removeAllListeners('request');
  httpServer.on('request', (request: IncomingMessage, response: ServerResponse) => {
    requests += 1;
    for (const interceptor of interceptors) if (interceptor(request, response)) return;
    for (const handler of handlers) handler(request, response);
  });

  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    requestCount: () => requests,
    intercept(interceptor) {
      interceptors.add(interceptor);
      return () => interceptors.delete(interceptor);
    },
    rawClient: () =>
      new Client({
        endPoint: '127.0.0.1',
        port,
        useSSL: false,
        accessKey: S3RVER_ACCESS_KEY,
        secretKey: S3RVER_SECRET_KEY,
        region: 'us-east-1',
        pathStyle: true,
      }),
    async stop() {
      if (stopped) return;
      stopped = true;
      httpServer.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
