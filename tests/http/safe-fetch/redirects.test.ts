/**
 * Redirects, with loopback allow-listed (127.0.0.1 only): each hop is checked again before it
 * connects. Targets that must not be reached are recording servers on 127.0.0.2 and ::1, which
 * must see zero connections.
 */
import { createImageFetcher, ImageFetchError, type ImageFetchRefusal } from '@utility-api/safe-fetch';
import test from 'ava';
import { fakeDns } from '../../support/safe-fetch/fake-dns.ts';
import { pngImage } from '../../fixtures/images.ts';
import { type RecordingServer, startRecordingServer } from '../../support/safe-fetch/recording-server.ts';

const PNG = pngImage(6, 2);
let origin: RecordingServer;
let otherLoopback: RecordingServer;
let otherPort: RecordingServer;
let ipv6: RecordingServer | undefined;

test.before(async () => {
  origin = await startRecordingServer();
  otherLoopback = await startRecordingServer({ host: '127.0.0.2' });
  otherPort = await startRecordingServer();
  try {
    ipv6 = await startRecordingServer({ host: '::1' });
  } catch {
    ipv6 = undefined;
  }
  origin.route('/image.png', (_request, response) => void response.writeHead(200).end(PNG));
  for (const server of [otherLoopback, otherPort, ipv6]) server?.route('/image.png', (_request, response) => void response.writeHead(200).end(PNG));
  const redirect = (path: string, location: string, status = 302) =>
    origin.route(path, (_request, response) => void response.writeHead(status, { Location: location }).end());
  // A chain hop1 -> hop2 -> hop3 -> image (3 redirects) and hop0 -> hop1 (4 redirects).
  redirect('/hop0', '/hop1');
  redirect('/hop1', '/hop2', 301);
  redirect('/hop2', `${origin.origin}/hop3`, 303);
  redirect('/hop3', 'image.png', 307);
  redirect('/loop', '/loop', 308);
  redirect('/to-other-loopback', `${otherLoopback.origin}/image.png`);
  redirect('/to-ipv6', `http://[::1]:${ipv6?.port ?? 1}/image.png`);
  redirect('/to-other-port', `http://cdn.test:${otherPort.port}/image.png`);
  redirect('/to-file', 'file:///etc/passwd');
  redirect('/to-userinfo', `http://user:secret@127.0.0.1:${origin.port}/image.png`);
  redirect('/to-garbage', 'http://[oops/');
  redirect('/to-cdn', `http://cdn.test:${origin.port}/image.png`);
  redirect('/to-evil', `http://evil.test:${origin.port}/image.png`);
  origin.route('/no-location', (_request, response) => void response.writeHead(302).end());
});

test.after.always(async () => {
  await Promise.all([origin.close(), otherLoopback.close(), otherPort.close(), ipv6?.close()]);
});

const dns = fakeDns({ 'cdn.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'] });
const fetcher = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'], lookup: dns.lookup });

function requestsTo(path: string): number {
  return origin.requests.filter((request) => request.path === path).length;
}

test.serial('three redirects (relative, absolute, 301/303/307) are followed to the image', async (t) => {
  origin.requests.length = 0;
  const image = await fetcher.fetchImage(`${origin.origin}/hop1`, 'customBackground');
  t.deepEqual([image.format, image.width, image.height], ['png', 6, 2]);
  t.is(image.url, `${origin.origin}/image.png`);
  t.deepEqual(
    origin.requests.map((request) => `${request.method} ${request.path}`),
    ['GET /hop1', 'GET /hop2', 'GET /hop3', 'GET /image.png'],
  );
});

test.serial('a fourth redirect is refused without being followed', async (t) => {
  origin.requests.length = 0;
  const error = await t.throwsAsync(fetcher.fetchImage(`${origin.origin}/hop0`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_many_redirects');
  t.deepEqual(origin.requests.map((request) => request.path), ['/hop0', '/hop1', '/hop2', '/hop3']);
  t.is(requestsTo('/image.png'), 0);
});

test.serial('maxRedirects is configurable, down to zero', async (t) => {
  const strict = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'], maxRedirects: 0 });
  origin.requests.length = 0;
  const error = await t.throwsAsync(strict.fetchImage(`${origin.origin}/hop3`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'too_many_redirects');
  t.is(requestsTo('/image.png'), 0);
  const loop = await t.throwsAsync(fetcher.fetchImage(`${origin.origin}/loop`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(loop?.reason, 'too_many_redirects');
});

test.serial('a redirect to a loopback address that is not allow-listed is refused before connecting', async (t) => {
  const error = await t.throwsAsync(fetcher.fetchImage(`${origin.origin}/to-other-loopback`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'forbidden_address');
  t.is(error?.message, 'customBackground: the address 127.0.0.2 is not public');
  t.is(otherLoopback.connections(), 0);
});

test.serial('a redirect to ::1 is refused when only 127.0.0.1 is allow-listed', async (t) => {
  const error = await t.throwsAsync(fetcher.fetchImage(`${origin.origin}/to-ipv6`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'forbidden_address');
  t.is(ipv6?.connections() ?? 0, 0);
});

test.serial('a redirect to another port of an allow-listed address is followed: the allow-list exempts it from the port rule', async (t) => {
  const image = await fetcher.fetchImage(`${origin.origin}/to-other-port`, 'customBackground');
  t.is(image.url, `http://cdn.test:${otherPort.port}/image.png`);
  t.is(otherPort.requests.length, 1);
});

test.serial('every hop is checked for scheme, credentials and a parseable Location', async (t) => {
  const cases: [string, ImageFetchRefusal][] = [
    ['/to-file', 'forbidden_scheme'],
    ['/to-userinfo', 'userinfo'],
    ['/to-garbage', 'invalid_url'],
    ['/no-location', 'http_status'],
  ];
  for (const [path, reason] of cases) {
    const error = await t.throwsAsync(fetcher.fetchImage(`${origin.origin}${path}`, 'customBackground'), { instanceOf: ImageFetchError }, path);
    t.is(error?.reason, reason, path);
  }
});

test.serial('onlyHost is enforced on every hop: a pinned host cannot redirect elsewhere', async (t) => {
  origin.requests.length = 0;
  const pinned = { onlyHost: 'cdn.test' };
  const direct = await t.throwsAsync(fetcher.fetchImage(`http://evil.test:${origin.port}/image.png`, 'avatar', pinned), { instanceOf: ImageFetchError });
  t.is(direct?.reason, 'forbidden_host');
  t.is(direct?.message, 'avatar: only images from cdn.test are accepted here');
  t.is(origin.requests.length, 0);

  const viaRedirect = await t.throwsAsync(fetcher.fetchImage(`http://cdn.test:${origin.port}/to-evil`, 'avatar', pinned), { instanceOf: ImageFetchError });
  t.is(viaRedirect?.reason, 'forbidden_host');
  t.deepEqual(origin.requests.map((request) => `${request.headers.host} ${request.path}`), [`cdn.test:${origin.port} /to-evil`]);

  origin.requests.length = 0;
  const image = await fetcher.fetchImage(`http://cdn.test:${origin.port}/to-cdn`, 'avatar', pinned);
  t.is(image.url, `http://cdn.test:${origin.port}/image.png`);
  t.deepEqual(dns.calls.filter((name) => name === 'evil.test'), []);
});
