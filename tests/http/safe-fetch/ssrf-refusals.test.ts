/**
 * With no allow-list, nothing on this machine may be fetched, however the address is spelled or
 * reached. The recording servers listen on 127.0.0.1 and ::1 (same port) and must see zero
 * connections. Every answer the fake DNS gives is loopback or at least contains loopback; no
 * request ever leaves for another address.
 */
import { createImageFetcher, ImageFetchError } from '@utility-api/safe-fetch';
import test from 'ava';
import { fakeDns } from '../../support/safe-fetch/fake-dns.ts';
import { pngImage } from '../../fixtures/images.ts';
import { type RecordingServer, startRecordingServer } from '../../support/safe-fetch/recording-server.ts';

let ipv4: RecordingServer;
let ipv6: RecordingServer | undefined;
const PNG = pngImage(4, 4);

test.before(async () => {
  ipv4 = await startRecordingServer();
  try {
    ipv6 = await startRecordingServer({ host: '::1', port: ipv4.port });
  } catch {
    ipv6 = undefined; // no IPv6 loopback on this machine: the IPv4 server still records
  }
  for (const server of [ipv4, ipv6]) server?.route('/a.png', (_request, response) => void response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG));
});

test.after.always(async () => {
  await ipv4.close();
  await ipv6?.close();
});

const seen = () => ipv4.connections() + (ipv6?.connections() ?? 0);

const dns = fakeDns({
  'loopback.test': ['127.0.0.1'],
  'loopback6.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'mixed.test': ['127.0.0.1', '93.184.215.14'],
  'mixed6.test': ['::1', '2606:4700::1111'],
  'zero.test': ['0.0.0.0'],
});

test.serial('every loopback spelling is refused as forbidden_address and the server sees nothing', async (t) => {
  // The port is allowed so that the address rule, not the port rule, is what refuses.
  const fetcher = createImageFetcher({ allowedPorts: [ipv4.port], lookup: dns.lookup, deadlineMs: 3000 });
  const hosts = [
    '127.0.0.1',
    '127.1',
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '127.0.0.1.',
    '[::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[0:0:0:0:0:0:0:1]',
    '0.0.0.0',
    '0',
    '[::]',
    'localhost',
    'LOCALHOST',
    'loopback.test',
    'loopback6.test',
    'mapped.test',
    'mixed.test',
    'mixed6.test',
    'zero.test',
  ];
  for (const host of hosts) {
    const error = await t.throwsAsync(fetcher.fetchImage(`http://${host}:${ipv4.port}/a.png`, 'customBackground'), { instanceOf: ImageFetchError }, host);
    t.is(error?.reason, 'forbidden_address', host);
    t.regex(error?.message ?? '', /^customBackground: the (address .* is not public|host .* has no public address)$/, host);
  }
  // Whether the system resolver knows `localhost.` varies; either way nothing may connect.
  const trailingDot = await t.throwsAsync(fetcher.fetchImage(`http://localhost.:${ipv4.port}/a.png`, 'customBackground'), { instanceOf: ImageFetchError });
  t.true(trailingDot?.reason === 'forbidden_address' || trailingDot?.reason === 'unreachable');
  t.is(seen(), 0);
  t.deepEqual(ipv4.requests, []);
});

test.serial('loopback is refused on the default ports too, and a literal address is quoted, a resolved one is not', async (t) => {
  const fetcher = createImageFetcher({ lookup: dns.lookup });
  const literal = await t.throwsAsync(fetcher.fetchImage('http://127.1/a.png', 'customBadges.0'), { instanceOf: ImageFetchError });
  t.is(literal?.message, 'customBadges.0: the address 127.0.0.1 is not public');
  const named = await t.throwsAsync(fetcher.fetchImage('https://loopback.test/a.png', 'customBadges.1'), { instanceOf: ImageFetchError });
  t.is(named?.message, 'customBadges.1: the host loopback.test has no public address');
  t.is(seen(), 0);
});

test.serial('the same fetcher works once the host is allow-listed (the refusals above are not an unreachable server)', async (t) => {
  const fetcher = createImageFetcher({ lookup: dns.lookup, allowPrivateHosts: ['127.0.0.1'] });
  const image = await fetcher.fetchImage(`http://loopback.test:${ipv4.port}/a.png`, 'customBackground');
  t.deepEqual([image.format, image.width, image.height], ['png', 4, 4]);
  t.true(image.bytes.equals(PNG));
  t.is(ipv4.requests.length, 1);
  t.is(ipv4.requests[0]?.headers['accept-encoding'], 'identity');
  ipv4.requests.length = 0;
});

test.serial('DNS rebinding: the address connected to is the one checked, even when DNS changes its answer', async (t) => {
  // First answer: the allowed 127.0.0.1; any later answer: ::1, which is not allowed. The fetcher
  // must ask once and connect to what it checked; the ::1 server must see nothing.
  let answers = 0;
  const rebinding = fakeDns({ 'rebind.test': () => (answers++ === 0 ? ['127.0.0.1'] : ['::1']) });
  const fetcher = createImageFetcher({ lookup: rebinding.lookup, allowPrivateHosts: ['127.0.0.1'] });
  const image = await fetcher.fetchImage(`http://rebind.test:${ipv4.port}/a.png`, 'customBackground');
  t.is(image.width, 4);
  t.deepEqual(rebinding.calls, ['rebind.test']);
  t.is(ipv6?.connections() ?? 0, 0);
  t.is(ipv4.requests.length, 1);
  t.is(ipv4.requests[0]?.headers.host, `rebind.test:${ipv4.port}`);
  ipv4.requests.length = 0;
});

test.serial('a DNS failure is unreachable', async (t) => {
  const fetcher = createImageFetcher({ lookup: fakeDns({ 'nowhere.test': [] }).lookup });
  const error = await t.throwsAsync(fetcher.fetchImage('https://nowhere.test/a.png', 'avatar'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'unreachable');
  // Told in the same words as a host that resolves to a private address (above): no probing of internal names.
  t.is(error?.message, 'avatar: the host nowhere.test has no public address');
});

test.serial('errors about the bytes are ImageFetchError too, naming the field', async (t) => {
  const fetcher = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'] });
  ipv4.route('/page.html', (_request, response) => void response.writeHead(200, { 'Content-Type': 'image/png' }).end('<!doctype html><html><body>hi</body></html>'));
  const error = await t.throwsAsync(fetcher.fetchImage(`${ipv4.origin}/page.html`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'unsupported_format');
  t.is(error?.field, 'customBackground');
  ipv4.requests.length = 0;
});
