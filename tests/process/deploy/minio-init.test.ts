import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { EXPIRY_RULE_ID } from '@utility-api/media-store';
import { REPO_ROOT } from '../../helpers/processes.ts';

const run = promisify(execFile);
const SCRIPT = join(REPO_ROOT, 'docker/minio-init.sh');
const folders: string[] = [];

test.after.always(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A stand-in for MinIO's `mc`: logs each call, keeps what `ilm rule import` reads on stdin and the
 * policy file `admin policy create` gets, and answers `admin policy attach` as ATTACH_REPLY says.
 */
const FAKE_MC = `#!/bin/sh
echo "$*" >> "$MC_LOG/calls"
case "$1 $2 $3" in
  "ilm rule import") cat > "$MC_LOG/lifecycle.json" ;;
  "admin policy create") cp "$6" "$MC_LOG/policy.json" ;;
  "admin policy attach")
    case "$ATTACH_REPLY" in
      ok) ;;
      *) echo "mc: <ERROR> $ATTACH_REPLY" >&2; exit 1 ;;
    esac ;;
esac
`;

interface InitRun {
  code: number;
  stdout: string;
  stderr: string;
  calls: string[];
  read(file: string): unknown;
}

async function runInit(env: Record<string, string>, attachReply = 'ok'): Promise<InitRun> {
  const folder = mkdtempSync(join(tmpdir(), 'minio-init-'));
  folders.push(folder);
  writeFileSync(join(folder, 'mc'), FAKE_MC);
  chmodSync(join(folder, 'mc'), 0o755);
  const base = {
    PATH: `${folder}:${process.env.PATH ?? ''}`,
    MC_LOG: folder,
    ATTACH_REPLY: attachReply,
    MINIO_ROOT_USER: 'root-user',
    MINIO_ROOT_PASSWORD: 'root-password',
    S3_ACCESS_KEY: 'utility-api',
    S3_SECRET_KEY: 'service-secret',
  };
  const result = await run('sh', [SCRIPT], { env: { ...base, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  const read = (file: string): unknown => JSON.parse(readFileSync(join(folder, file), 'utf8'));
  let calls: string[] = [];
  try {
    calls = readFileSync(join(folder, 'calls'), 'utf8').trim().split('\n');
  } catch {
    // no mc call at all
  }
  return { ...result, calls, read };
}

test('creates the bucket, the expiry rule the services use, and a bucket-only user', async (t) => {
  const init = await runInit({ S3_BUCKET: 'media-cards', MEDIA_TTL_DAYS: '7' });
  t.is(init.code, 0, init.stderr);
  t.deepEqual(init.calls, [
    'alias set local http://minio:9000 root-user root-password',
    'mb --ignore-existing local/media-cards',
    'ilm rule import local/media-cards',
    'admin user add local utility-api service-secret',
    `admin policy create local utility-api-media-cards ${init.calls[4]?.split(' ').at(-1)}`,
    'admin policy attach local utility-api-media-cards --user utility-api',
  ]);
  t.deepEqual(init.read('lifecycle.json'), {
    Rules: [{ ID: EXPIRY_RULE_ID, Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 7 } }],
  });
  const policy = init.read('policy.json') as { Statement: { Effect: string; Action: string[]; Resource: string[] }[] };
  const resources = policy.Statement.flatMap((statement) => statement.Resource);
  t.deepEqual(resources.sort(), ['arn:aws:s3:::media-cards', 'arn:aws:s3:::media-cards/*']);
  const actions = policy.Statement.flatMap((statement) => statement.Action);
  t.false(actions.some((action) => action.includes('*')), 'no wildcard actions');
  for (const needed of ['s3:ListBucket', 's3:PutLifecycleConfiguration', 's3:GetObject', 's3:PutObject']) t.true(actions.includes(needed), needed);
  t.regex(init.stdout, /objects expire after 7 days/);
});

test('defaults: bucket "cards", 30 days, as the services default', async (t) => {
  const init = await runInit({});
  t.is(init.code, 0, init.stderr);
  t.true(init.calls.includes('mb --ignore-existing local/cards'));
  t.like(init.read('lifecycle.json'), { Rules: [{ Expiration: { Days: 30 } }] });
});

test('a rerun whose policy is already attached succeeds; any other attach error fails', async (t) => {
  const rerun = await runInit({}, 'Unable to make user/group policy association. The specified policy change is already in effect.');
  t.is(rerun.code, 0, rerun.stderr);
  const broken = await runInit({}, 'Access Denied.');
  t.is(broken.code, 1);
  t.regex(broken.stderr, /Access Denied/);
});

test('services on the root credentials: no extra user or policy', async (t) => {
  const init = await runInit({ S3_ACCESS_KEY: 'root-user', S3_SECRET_KEY: 'root-password' });
  t.is(init.code, 0, init.stderr);
  t.false(init.calls.some((call) => call.startsWith('admin ')));
  t.regex(init.stdout, /root credentials/);
});

test('refuses a TTL that is not a whole number of days, and missing credentials, before calling mc', async (t) => {
  for (const ttl of ['abc', '7d', '-1', '1.5']) {
    const init = await runInit({ MEDIA_TTL_DAYS: ttl });
    t.is(init.code, 1, ttl);
    t.deepEqual(init.calls, [], ttl);
  }
  const noPassword = await runInit({ MINIO_ROOT_PASSWORD: '' });
  t.not(noPassword.code, 0);
  t.deepEqual(noPassword.calls, []);
});
