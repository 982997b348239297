import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import {
  createS3MediaStore,
  EXPIRY_RULE_ID,
  StorageUnavailableError,
  type S3MediaStore,
  type S3MediaStoreOptions,
} from '@utility-api/media-store';
import test, { type ExecutionContext } from 'ava';
import { startFaultProxy, type FaultProxy } from '../../support/media-store/fault-proxy.ts';
import { captureLogger, newKey, PINO_WARN, readAll, timed } from '../../support/media-store/fixtures.ts';
import { noisePng } from '../../fixtures/images.ts';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY, startS3rver, type RunningS3rver } from '../../support/media-store/s3rver-server.ts';

/** Deadline given to stores in failure tests, and the bound they must fail within (generous for a loaded CI box). */
const DEADLINE_MS = 2000;
const PROMPT_MS = 10_000;

let s3rver: RunningS3rver;
const stores: S3MediaStore[] = [];
const proxies: FaultProxy[] = [];

test.before(async () => {
  s3rver = await startS3rver();
});

test.after.always(async () => {
  for (const store of stores) await store.close();
  for (const proxy of proxies) await proxy.stop();
  await s3rver?.stop();
});

const uniqueBucket = () => `media-${randomUUID().slice(0, 8)}`;

function options(overrides: Partial<S3MediaStoreOptions> = {}): S3MediaStoreOptions {
  return {
    endpoint: s3rver.endpoint,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
    bucket: uniqueBucket(),
    ttlDays: 30,
    requestTimeoutMs: DEADLINE_MS,
    ...overrides,
  };
}

async function boot(overrides: Partial<S3MediaStoreOptions> = {}): Promise<S3MediaStore> {
  const store = await createS3MediaStore(options(overrides));
  stores.push(store);
  return store;
}

async function proxyToS3rver(): Promise<FaultProxy> {
  const proxy = await startFaultProxy(s3rver.port);
  proxies.push(proxy);
  return proxy;
}

/** A StorageUnavailableError with the expected reason, within the bound, whose message names no host, port or secret. */
async function assertUnavailable(
  t: ExecutionContext,
  label: string,
  work: Promise<unknown>,
  reasons: readonly string[],
  endpoint: string,
): Promise<number> {
  const outcome = await timed(work);
  t.true(outcome.error instanceof StorageUnavailableError, `${label}: StorageUnavailableError, got ${String(outcome.error)}`);
  const error = outcome.error as StorageUnavailableError;
  t.true(reasons.includes(error.reason), `${label}: reason ${error.reason} not in ${reasons.join('/')}`);
  t.true(outcome.ms < PROMPT_MS, `${label}: took ${Math.round(outcome.ms)} ms`);
  const { port } = new URL(endpoint);
  for (const secret of ['127.0.0.1', port, S3RVER_SECRET_KEY, S3RVER_ACCESS_KEY]) {
    t.false(error.message.includes(secret), `${label}: message "${error.message}" leaks ${secret}`);
  }
  t.truthy(error.cause, `${label}: cause kept for logs`);
  return outcome.ms;
}

test('boot creates the bucket, and lifecycle degrades to unsupported with one warning on s3rver', async (t) => {
  const bucket = uniqueBucket();
  const raw = s3rver.rawClient();
  t.false(await raw.bucketExists(bucket));
  const captured = captureLogger();
  const store = await boot({ bucket, logger: captured.logger });
  t.true(await raw.bucketExists(bucket));
  t.is(store.kind, 's3');
  t.is(store.bucket, bucket);
  t.is(store.lifecycle, 'unsupported');
  const warnings = captured.lines().filter((line) => line.level === PINO_WARN);
  t.is(warnings.length, 1);
  t.regex(warnings[0]!.msg, /lifecycle/);
});

test('two stores booting at once on the same new bucket both succeed and share objects', async (t) => {
  const bucket = uniqueBucket();
  const [first, second] = await Promise.all([boot({ bucket }), boot({ bucket })]);
  const key = newKey();
  const png = noisePng(32);
  await first.put(key, png);
  t.true((await readAll((await second.open(key))!.body)).equals(png));
  await t.notThrowsAsync(boot({ bucket }), 'booting on an existing bucket is fine too');
});

test('objects are stored as <key>.png with Content-Type image/png', async (t) => {
  const store = await boot();
  const key = newKey();
  const png = noisePng(16);
  const put = await store.put(key, png);
  const stat = await s3rver.rawClient().statObject(store.bucket, `${key}.png`);
  t.is(stat.metaData['content-type'], 'image/png');
  t.is(stat.size, png.length);
  t.is(`"${stat.etag}"`, put.etag);
});

test('the expiry rule is sent as a lifecycle configuration when the server supports it', async (t) => {
  const bucket = uniqueBucket();
  const received: string[] = [];
  const removeInterceptor = s3rver.intercept((request, response) => {
    if (request.method !== 'PUT' || !request.url?.startsWith(`/${bucket}?lifecycle`)) return false;
    void text(request).then((body) => {
      received.push(body);
      response.end();
    });
    return true;
  });
  try {
    const store = await boot({ bucket, ttlDays: 7 });
    t.is(store.lifecycle, 'applied');
  } finally {
    removeInterceptor();
  }
  t.is(received.length, 1);
  const xml = received[0]!;
  t.regex(xml, /^<LifecycleConfiguration>/);
  t.true(xml.includes(`<ID>${EXPIRY_RULE_ID}</ID>`));
  t.true(xml.includes('<Status>Enabled</Status>'));
  t.true(xml.includes('<Expiration><Days>7</Days></Expiration>'));
  t.regex(xml, /<Filter><Prefix(\/>|><\/Prefix>)<\/Filter>/, 'applies to every object');
});

test('lifecycle refused with AccessDenied degrades to denied, with a warning', async (t) => {
  const bucket = uniqueBucket();
  const removeInterceptor = s3rver.intercept((request, response) => {
    if (request.method !== 'PUT' || !request.url?.startsWith(`/${bucket}?lifecycle`)) return false;
    response.writeHead(403, { 'content-type': 'application/xml' });
    response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
    return true;
  });
  const captured = captureLogger();
  try {
    const store = await boot({ bucket, logger: captured.logger });
    t.is(store.lifecycle, 'denied');
  } finally {
    removeInterceptor();
  }
  t.is(captured.lines().filter((line) => line.level === PINO_WARN).length, 1);
});

test('with the server stopped, boot, ping, put, stat and open fail promptly as unavailable', async (t) => {
  const own = await startS3rver();
  // Stopped here even when an assertion fails first: a server left listening keeps the worker alive.
  t.teardown(() => own.stop());
  const store = await createS3MediaStore(options({ endpoint: own.endpoint }));
  stores.push(store);
  const key = newKey();
  await store.put(key, noisePng(16));
  await own.stop();

  const reasons = ['unreachable'];
  const times = [
    await assertUnavailable(t, 'ping', store.ping(), reasons, own.endpoint),
    await assertUnavailable(t, 'put', store.put(newKey(), noisePng(16)), reasons, own.endpoint),
    await assertUnavailable(t, 'stat', store.stat(key), reasons, own.endpoint),
    await assertUnavailable(t, 'open', store.open(key), reasons, own.endpoint),
    await assertUnavailable(t, 'boot', createS3MediaStore(options({ endpoint: own.endpoint })), reasons, own.endpoint),
  ];
  t.log(`refused in ${times.map((ms) => Math.round(ms)).join(' / ')} ms (ping/put/stat/open/boot)`);
});

test('a server that accepts connections and never answers hits the deadline instead of hanging', async (t) => {
  const proxy = await proxyToS3rver();
  const store = await boot({ endpoint: proxy.endpoint });
  const key = newKey();
  const png = noisePng(200);
  await store.put(key, png);
  await proxy.setMode('blackhole');

  const reasons = ['timeout'];
  const times = [
    await assertUnavailable(t, 'ping', store.ping(), reasons, proxy.endpoint),
    await assertUnavailable(t, 'put', store.put(newKey(), png), reasons, proxy.endpoint),
    await assertUnavailable(t, 'stat', store.stat(key), reasons, proxy.endpoint),
    await assertUnavailable(t, 'open', store.open(key), reasons, proxy.endpoint),
    await assertUnavailable(t, 'boot', createS3MediaStore(options({ endpoint: proxy.endpoint })), reasons, proxy.endpoint),
  ];
  for (const ms of times) t.true(ms >= DEADLINE_MS * 0.9, `waited for the deadline (${Math.round(ms)} ms), so it is the deadline that fired`);
  t.log(`timed out in ${times.map((ms) => Math.round(ms)).join(' / ')} ms (ping/put/stat/open/boot), deadline ${DEADLINE_MS} ms`);

  await proxy.setMode('forward');
  t.truthy(await store.stat(key), 'the store recovers once the server answers again');
});

test('a server answering 503 is unavailable at once, without the client retrying or logging to the console', async (t) => {
  const proxy = await proxyToS3rver();
  const store = await boot({ endpoint: proxy.endpoint });
  const key = newKey();
  await store.put(key, noisePng(16));
  await proxy.setMode('unavailable');

  // minio's own retry loop announces itself with console.warn; with it disabled nothing may print.
  const warned: unknown[] = [];
  /* eslint-disable no-console -- watching what the client writes to the console */
  const originalWarn = console.warn;
  console.warn = (...args: unknown[]) => void warned.push(args);
  /* eslint-enable no-console */
  try {
    const reasons = ['server_error'];
    await assertUnavailable(t, 'ping', store.ping(), reasons, proxy.endpoint);
    await assertUnavailable(t, 'put', store.put(newKey(), noisePng(16)), reasons, proxy.endpoint);
    await assertUnavailable(t, 'stat', store.stat(key), reasons, proxy.endpoint);
    await assertUnavailable(t, 'open', store.open(key), reasons, proxy.endpoint);
    await assertUnavailable(t, 'boot', createS3MediaStore(options({ endpoint: proxy.endpoint })), reasons, proxy.endpoint);
  } finally {
    // eslint-disable-next-line no-console -- restoring the original
    console.warn = originalWarn;
  }
  t.deepEqual(warned, []);
});

test('a body that stalls mid-stream errors after the idle limit instead of hanging the reader', async (t) => {
  const store = await boot();
  const key = newKey();
  const png = noisePng(300);
  await store.put(key, png);
  // Headers and half the bytes, then silence with the connection left open.
  const removeInterceptor = s3rver.intercept((request, response) => {
    if (request.method !== 'GET' || !request.url?.startsWith(`/${store.bucket}/${key}.png`)) return false;
    response.writeHead(200, {
      'content-type': 'image/png',
      'content-length': String(png.length),
      etag: '"stalled"',
      'last-modified': new Date().toUTCString(),
    });
    response.write(png.subarray(0, png.length / 2));
    return true;
  });
  try {
    const opened = await store.open(key);
    t.is(opened?.object.size, png.length);
    const outcome = await timed(readAll(opened!.body));
    t.truthy(outcome.error, 'the stalled body errors');
    t.true(outcome.ms >= DEADLINE_MS * 0.9 && outcome.ms < PROMPT_MS, `failed after ${Math.round(outcome.ms)} ms idle`);
    t.log(`stalled body failed after ${Math.round(outcome.ms)} ms (idle limit ${DEADLINE_MS} ms)`);
  } finally {
    removeInterceptor();
  }
});

test('wrong credentials fail boot as rejected', async (t) => {
  const removeInterceptor = s3rver.intercept((request, response) => {
    if (!String(request.headers.authorization ?? '').includes('Credential=WRONG/')) return false;
    response.writeHead(403, { 'content-type': 'application/xml' });
    response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>no</Message></Error>');
    return true;
  });
  try {
    await assertUnavailable(t, 'boot', createS3MediaStore(options({ accessKey: 'WRONG' })), ['rejected'], s3rver.endpoint);
  } finally {
    removeInterceptor();
  }
});

test('endpoint and option mistakes are refused at boot without echoing the URL', async (t) => {
  for (const endpoint of ['not a url', 'ftp://127.0.0.1:21', 'http://user:hunter2@127.0.0.1:9000', 'http://127.0.0.1:9000/bucket']) {
    const error = await t.throwsAsync(createS3MediaStore(options({ endpoint })), { instanceOf: TypeError }, endpoint);
    t.false(error.message.includes('hunter2'));
  }
  await t.throwsAsync(createS3MediaStore(options({ ttlDays: 0 })), { instanceOf: RangeError });
  await t.throwsAsync(createS3MediaStore(options({ ttlDays: 1.5 })), { instanceOf: RangeError });
  await t.throwsAsync(createS3MediaStore(options({ requestTimeoutMs: 0 })), { instanceOf: RangeError });
});
