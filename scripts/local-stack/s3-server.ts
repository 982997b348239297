import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface RunningS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** Where the objects are kept; pass it to a later `startS3Server` to bring the same store back. */
  directory: string;
  stop(): Promise<void>;
}

/**
 * An S3 API on loopback (s3rver) standing in for MinIO, which has no binary here. It ignores
 * signatures, so any key pair works; it lacks lifecycle rules, which the store reports and skips.
 * Its objects live in a temporary directory removed on `stop()`, unless `directory` was given:
 * then that directory is used and kept, so an outage can be staged by stopping and restarting,
 * and `./run stack` keeps its cards across runs.
 */
export async function startS3Server(options: { port?: number; directory?: string }): Promise<RunningS3> {
  const keepDirectory = options.directory !== undefined;
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'utility-api-s3-'));
  if (keepDirectory) mkdirSync(directory, { recursive: true });
  // Without a port it binds one the system picks: a port chosen beforehand could be taken before the bind.
  const server = new S3rver({ port: options.port ?? 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    directory,
    async stop() {
      await server.close();
      if (!keepDirectory) rmSync(directory, { recursive: true, force: true });
    },
  };
}
