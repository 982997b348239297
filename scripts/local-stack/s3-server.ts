import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface RunningS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
}

/**
 * An S3 API on loopback (s3rver) standing in for MinIO, which has no binary here. It ignores
 * signatures, so any key pair works; it lacks lifecycle rules, which the store reports and skips.
 */
export async function startS3Server(options: { port: number }): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 'utility-api-s3-'));
  const server = new S3rver({ port: options.port, address: '127.0.0.1', silent: true, directory });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
