// The stand-in for minio-init: creates the bucket (S3_BUCKET) on the stand-in S3 server and
// exits 0. s3rver has no users, policies or lifecycle rules, so that is all there is to set up.
import { request } from 'node:http';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

const bucket = process.env.S3_BUCKET || 'cards';

/** PUT /<bucket>; resolves with the status code. */
function createBucket() {
  return new Promise((resolve, reject) => {
    const put = request({ host: 'minio', port: 9000, method: 'PUT', path: `/${bucket}`, timeout: 5000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    put.on('timeout', () => put.destroy(new Error('timed out')));
    put.on('error', reject);
    put.end();
  });
}

for (let attempt = 1; ; attempt += 1) {
  const outcome = await createBucket().then((status) => status, (error) => error.message);
  // 409 BucketAlreadyExists: a rerun, the bucket is there.
  if (outcome === 200 || outcome === 409) break;
  if (attempt >= 10) {
    process.stderr.write(`s3rver-create-bucket: PUT http://minio:9000/${bucket} failed: ${outcome}\n`);
    process.exit(1);
  }
  await sleep(2000);
}
process.stdout.write(`s3rver-create-bucket: bucket ${bucket} ready (the stand-in has no expiry rules or users)\n`);
