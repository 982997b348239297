/**
 * The checks a hop passes before it may connect, tested as pure functions: no DNS, no sockets.
 * This is where public addresses can appear safely (the fetch-level tests only ever use loopback).
 */
import {
  checkFetchTarget,
  chooseDestination,
  createImageFetcher,
  type DestinationRules,
  ImageFetchError,
  type ImageFetchRefusal,
  PrivateAllowList,
} from '@utility-api/safe-fetch';
import test, { type ExecutionContext } from 'ava';

const FIELD = 'customBackground';

function refusal(t: ExecutionContext, run: () => unknown, reason: ImageFetchRefusal): ImageFetchError | undefined {
  const error = t.throws(run, { instanceOf: ImageFetchError });
  t.is(error?.reason, reason);
  t.is(error?.field, FIELD);
  t.true(error?.message.startsWith(`${FIELD}: `));
  return error;
}

test('every spelling of a loopback literal is normalised to 127.0.0.1 and marked literal', (t) => {
  for (const spelling of ['127.0.0.1', '127.1', '0x7f000001', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '127.0.0.1.', '127.000.000.001']) {
    const target = checkFetchTarget(`http://${spelling}/a.png`, { field: FIELD });
    t.is(target.hostname, '127.0.0.1', spelling);
    t.true(target.literalAddress, spelling);
  }
  t.is(checkFetchTarget('http://[::ffff:127.0.0.1]/', { field: FIELD }).hostname, '::ffff:7f00:1');
  t.is(checkFetchTarget('http://[0:0:0:0:0:0:0:1]/', { field: FIELD }).hostname, '::1');
  t.is(checkFetchTarget('http://0/', { field: FIELD }).hostname, '0.0.0.0');
  t.false(checkFetchTarget('http://localhost/', { field: FIELD }).literalAddress);
});

test('only http and https are fetched', (t) => {
  for (const url of ['ftp://example.com/a.png', 'file:///etc/passwd', 'gopher://example.com/', 'data:image/png;base64,AAAA', 'javascript:alert(1)', 'ws://example.com/']) {
    refusal(t, () => checkFetchTarget(url, { field: FIELD }), 'forbidden_scheme');
  }
  t.is(checkFetchTarget('HTTPS://Example.COM/a.png', { field: FIELD }).hostname, 'example.com');
});

test('URLs with credentials are refused', (t) => {
  refusal(t, () => checkFetchTarget('http://user:pass@example.com/a.png', { field: FIELD }), 'userinfo');
  refusal(t, () => checkFetchTarget('http://user@example.com/a.png', { field: FIELD }), 'userinfo');
  refusal(t, () => checkFetchTarget('http://:pass@example.com/a.png', { field: FIELD }), 'userinfo');
});

test('unparseable or oversized URLs are invalid_url', (t) => {
  for (const url of ['', 'not a url', 'http://', 'http://exa mple.com/', '//example.com/a.png', `http://example.com/${'a'.repeat(2100)}`]) {
    refusal(t, () => checkFetchTarget(url, { field: FIELD }), 'invalid_url');
  }
});

test('onlyHost pins the hostname, on the first hop and after redirects', (t) => {
  const rules = { field: FIELD, onlyHost: 'cdn.discordapp.com' };
  t.is(checkFetchTarget('https://cdn.discordapp.com/avatars/1/a.png', rules).hostname, 'cdn.discordapp.com');
  t.is(checkFetchTarget('https://CDN.discordapp.com./avatars/1/a.png', rules).hostname, 'cdn.discordapp.com.');
  for (const url of ['https://media.discordapp.net/a.png', 'https://cdn.discordapp.com.evil.test/a.png', 'https://evil.test/cdn.discordapp.com/a.png', 'https://127.0.0.1/']) {
    refusal(t, () => checkFetchTarget(url, rules), 'forbidden_host');
  }
  const redirected = refusal(t, () => checkFetchTarget(new URL('https://evil.test/'), { ...rules, redirectedFrom: new URL('https://cdn.discordapp.com/a.png') }), 'forbidden_host');
  t.regex(redirected?.message ?? '', /after a redirect/);
});

test('a redirect from https to http is refused; http to https and same-scheme hops are fine', (t) => {
  const https = new URL('https://images.test/a.png');
  const http = new URL('http://images.test/a.png');
  refusal(t, () => checkFetchTarget(new URL('http://images.test/b.png'), { field: FIELD, redirectedFrom: https }), 'insecure_redirect');
  t.notThrows(() => checkFetchTarget(new URL('https://images.test/b.png'), { field: FIELD, redirectedFrom: http }));
  t.notThrows(() => checkFetchTarget(new URL('https://other.test/b.png'), { field: FIELD, redirectedFrom: https }));
  t.notThrows(() => checkFetchTarget(new URL('http://other.test/b.png'), { field: FIELD, redirectedFrom: http }));
});

const noAllowList: DestinationRules = { field: FIELD, allowList: PrivateAllowList.parse([]), allowedPorts: [80, 443] };
const target = (url: string) => checkFetchTarget(url, { field: FIELD });

test('a destination is refused when ANY DNS answer is not public, whatever the order', (t) => {
  for (const answers of [['93.184.215.14', '127.0.0.1'], ['127.0.0.1', '93.184.215.14'], ['2606:4700::1111', '::1'], ['93.184.215.14', '169.254.169.254'], ['8.8.8.8', '::ffff:10.0.0.1']]) {
    const error = refusal(t, () => chooseDestination(target('http://images.test/a.png'), answers, noAllowList), 'forbidden_address');
    // The resolved address is not echoed back: the API must not map internal names to addresses.
    t.is(error?.message, `${FIELD}: the host images.test has no public address`);
  }
  t.deepEqual(chooseDestination(target('http://images.test/a.png'), ['93.184.215.14', '2606:4700::1111'], noAllowList), { address: '93.184.215.14', family: 4 });
  t.deepEqual(chooseDestination(target('http://images.test/a.png'), ['2606:4700::1111'], noAllowList), { address: '2606:4700::1111', family: 6 });
});

test('a literal non-public address is refused with the address quoted; an empty answer is unreachable', (t) => {
  const error = refusal(t, () => chooseDestination(target('http://127.1/a.png'), ['127.0.0.1'], noAllowList), 'forbidden_address');
  t.is(error?.message, `${FIELD}: the address 127.0.0.1 is not public`);
  refusal(t, () => chooseDestination(target('http://images.test/a.png'), [], noAllowList), 'unreachable');
  refusal(t, () => chooseDestination(target('http://images.test/a.png'), ['not-an-address'], noAllowList), 'forbidden_address');
});

test('the port rule: 80 and 443 by default, others refused for public hosts', (t) => {
  t.notThrows(() => chooseDestination(target('http://images.test/a.png'), ['93.184.215.14'], noAllowList));
  t.notThrows(() => chooseDestination(target('https://images.test/a.png'), ['93.184.215.14'], noAllowList));
  t.notThrows(() => chooseDestination(target('https://images.test:80/a.png'), ['93.184.215.14'], noAllowList));
  for (const url of ['http://images.test:8080/a.png', 'https://images.test:22/a.png', 'http://images.test:6379/', 'http://93.184.215.14:25/']) {
    refusal(t, () => chooseDestination(target(url), ['93.184.215.14'], noAllowList), 'forbidden_port');
  }
  const custom = { ...noAllowList, allowedPorts: [8443] };
  t.notThrows(() => chooseDestination(target('https://images.test:8443/a.png'), ['93.184.215.14'], custom));
  refusal(t, () => chooseDestination(target('https://images.test/a.png'), ['93.184.215.14'], custom), 'forbidden_port');
});

test('the allow-list admits named hosts, addresses and ranges on any port, and nothing else', (t) => {
  const rules: DestinationRules = { field: FIELD, allowList: PrivateAllowList.parse(['minio', '10.1.0.0/16', '127.0.0.1', '[::1]']), allowedPorts: [80, 443] };
  t.deepEqual(chooseDestination(target('http://minio:9000/a.png'), ['172.18.0.5'], rules), { address: '172.18.0.5', family: 4 });
  t.notThrows(() => chooseDestination(target('http://storage.internal:9000/a.png'), ['10.1.2.3'], rules));
  t.notThrows(() => chooseDestination(target('http://127.0.0.1:3000/a.png'), ['127.0.0.1'], rules));
  t.notThrows(() => chooseDestination(target('http://[::1]:3000/a.png'), ['::1'], rules));
  t.notThrows(() => chooseDestination(target('http://[::ffff:127.0.0.1]:3000/a.png'), ['::ffff:7f00:1'], rules));
  refusal(t, () => chooseDestination(target('http://127.0.0.2:3000/a.png'), ['127.0.0.2'], rules), 'forbidden_address');
  refusal(t, () => chooseDestination(target('http://storage.internal/a.png'), ['10.2.0.1'], rules), 'forbidden_address');
  refusal(t, () => chooseDestination(target('http://storage.internal/a.png'), ['10.1.0.1', '10.2.0.1'], rules), 'forbidden_address');
  refusal(t, () => chooseDestination(target('http://miniox:9000/a.png'), ['172.18.0.5'], rules), 'forbidden_address');
  refusal(t, () => chooseDestination(target('http://169.254.169.254/latest/meta-data/'), ['169.254.169.254'], rules), 'forbidden_address');
  // A public host resolving partly into an allowed range keeps the port rule.
  refusal(t, () => chooseDestination(target('http://images.test:9000/a.png'), ['93.184.215.14', '10.1.0.1'], rules), 'forbidden_port');
});

test('the allow-list is empty by default, and bad entries or settings fail at creation', (t) => {
  t.true(PrivateAllowList.parse([]).isEmpty);
  t.throws(() => PrivateAllowList.parse(['http://minio:9000']), { instanceOf: RangeError });
  t.throws(() => PrivateAllowList.parse(['10.0.0.0/33']), { instanceOf: RangeError });
  t.throws(() => createImageFetcher({ allowPrivateHosts: ['not a host'] }), { instanceOf: RangeError });
  t.throws(() => createImageFetcher({ maxBytes: 0 }), { instanceOf: RangeError });
  t.throws(() => createImageFetcher({ deadlineMs: Number.NaN }), { instanceOf: RangeError });
  t.throws(() => createImageFetcher({ maxRedirects: -1 }), { instanceOf: RangeError });
  t.throws(() => createImageFetcher({ allowedPorts: [0] }), { instanceOf: RangeError });
  t.notThrows(() => createImageFetcher());
});
