// The stand-in S3 server: s3rver on 0.0.0.0:9000 keeping its objects in /data (a volume).
// vhostBuckets off: the services call it as http://minio:9000/<bucket>/... (path style), and
// s3rver would otherwise read the host name `minio` as a bucket name.
import { createRequire } from 'node:module';
import process from 'node:process';

const S3rver = createRequire(import.meta.url)('s3rver');
const server = new S3rver({ address: '0.0.0.0', port: 9000, directory: '/data', silent: false, vhostBuckets: false });
const { address, port } = await server.run();
process.stdout.write(`s3rver stand-in listening on ${address}:${port}\n`);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => void server.close().then(() => process.exit(0)));
