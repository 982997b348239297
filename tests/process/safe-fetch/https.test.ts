/**
 * https through the pinned connection: the certificate is checked against the hostname (the TLS
 * server name) although the socket goes to the pre-checked address, and https never redirects to
 * http. The certificate is made for this run with openssl in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createImageFetcher, ImageFetchError } from '@utility-api/safe-fetch';
import test from 'ava';
import { fakeDns } from '../../support/safe-fetch/fake-dns.ts';
import { pngImage } from '../../fixtures/images.ts';
import { type RecordingServer, startRecordingServer } from '../../support/safe-fetch/recording-server.ts';

const PNG = pngImage(12, 8);
let secure: RecordingServer;
let plain: RecordingServer;
let certificate: string;

test.before(async () => {
  const directory = mkdtempSync(join(tmpdir(), 'safe-fetch-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=images.test',
      '-addext', 'subjectAltName=DNS:images.test',
      '-keyout', join(directory, 'key.pem'), '-out', join(directory, 'cert.pem'),
    ], { stdio: 'ignore' });
    certificate = readFileSync(join(directory, 'cert.pem'), 'utf8');
    secure = await startRecordingServer({ tls: { key: readFileSync(join(directory, 'key.pem'), 'utf8'), cert: certificate } });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  plain = await startRecordingServer();
  plain.route('/image.png', (_request, response) => void response.writeHead(200).end(PNG));
  secure.route('/image.png', (_request, response) => void response.writeHead(200).end(PNG));
  secure.route('/downgrade', (_request, response) => void response.writeHead(302, { Location: `http://images.test:${plain.port}/image.png` }).end());
  secure.route('/same-scheme', (_request, response) => void response.writeHead(301, { Location: '/image.png' }).end());
});

test.after.always(async () => {
  await Promise.all([secure.close(), plain.close()]);
});

const dns = fakeDns({ 'images.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
const settings = { lookup: dns.lookup, allowPrivateHosts: ['images.test', 'other.test'] };

test.serial('an https image is fetched through the pinned address, with the certificate checked for the hostname', async (t) => {
  const fetcher = createImageFetcher({ ...settings, trustedCertificates: [certificate] });
  const image = await fetcher.fetchImage(`https://images.test:${secure.port}/same-scheme`, 'customBackground');
  t.deepEqual([image.format, image.width, image.height], ['png', 12, 8]);
  t.is(image.url, `https://images.test:${secure.port}/image.png`);
  t.deepEqual(secure.requests.map((request) => request.path), ['/same-scheme', '/image.png']);
});

test.serial('a certificate for another name, or from an untrusted issuer, is unreachable', async (t) => {
  const wrongName = await t.throwsAsync(
    createImageFetcher({ ...settings, trustedCertificates: [certificate] }).fetchImage(`https://other.test:${secure.port}/image.png`, 'customBackground'),
    { instanceOf: ImageFetchError },
  );
  t.is(wrongName?.reason, 'unreachable');
  t.is(wrongName?.message, 'customBackground: a secure connection to other.test could not be established');
  const untrusted = await t.throwsAsync(createImageFetcher(settings).fetchImage(`https://images.test:${secure.port}/image.png`, 'customBackground'), {
    instanceOf: ImageFetchError,
  });
  t.is(untrusted?.reason, 'unreachable');
});

test.serial('an https page redirecting to http is refused and the http server sees nothing', async (t) => {
  const fetcher = createImageFetcher({ ...settings, trustedCertificates: [certificate] });
  const error = await t.throwsAsync(fetcher.fetchImage(`https://images.test:${secure.port}/downgrade`, 'customBackground'), { instanceOf: ImageFetchError });
  t.is(error?.reason, 'insecure_redirect');
  t.is(error?.message, 'customBackground: the image server redirected from https to plain http');
  t.is(plain.connections(), 0);
});
