import { type AddressClass, classifyAddress } from '@utility-api/safe-fetch';
import test from 'ava';

/** Classification only: nothing here opens a connection. */
const TABLE: readonly (readonly [string, AddressClass])[] = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrier_grade_nat'],
  ['100.127.255.255', 'carrier_grade_nat'],
  ['169.254.169.254', 'link_local'],
  ['169.254.0.1', 'link_local'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['192.0.0.8', 'reserved'],
  ['192.88.99.1', 'reserved'],
  // IPv6
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'unique_local'],
  ['fd12:3456:789a::1', 'unique_local'],
  ['fe80::1', 'link_local'],
  ['febf:ffff::1', 'link_local'],
  ['fec0::1', 'site_local'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['100::1', 'reserved'],
  ['2001:10::1', 'reserved'],
  ['4000::1', 'reserved'], // outside global unicast 2000::/3
  ['64:ff9b:1::a00:1', 'local_nat64'],
  ['64:ff9b:1::808:808', 'local_nat64'],
  // IPv4 inside IPv6: judged by the embedded address
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'link_local'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::127.0.0.1', 'loopback'], // IPv4-compatible
  ['::10.0.0.1', 'private'],
  ['::8.8.8.8', 'ipv4_compatible'], // deprecated form: refused even with a public address inside
  ['::808:808', 'ipv4_compatible'],
  ['64:ff9b::7f00:1', 'loopback'], // NAT64
  ['64:ff9b::169.254.169.254', 'link_local'],
  ['64:ff9b::c0a8:101', 'private'],
  ['2002:7f00:1::1', 'loopback'], // 6to4
  ['2002:a9fe:a9fe::', 'link_local'],
  ['2002:c0a8:101::1', 'private'],
  ['2001:0:7f00:1::1', 'loopback'], // Teredo server 127.0.0.1
  ['2001:0:808:808:0:0:80ff:fffe', 'loopback'], // Teredo client ~0x80fffffe = 127.0.0.1
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'documentation'], // RFC 4380's example: client 192.0.2.45
  // Not addresses at all (DNS and sockets never produce these; URLs are normalised first)
  ['0177.0.0.1', 'not_an_ip'],
  ['2130706433', 'not_an_ip'],
  ['0x7f000001', 'not_an_ip'],
  ['127.1', 'not_an_ip'],
  ['[::1]', 'not_an_ip'],
  ['localhost', 'not_an_ip'],
  ['', 'not_an_ip'],
  ['fe80::1%eth0', 'not_an_ip'],
  // Public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.215.14', 'public'],
  ['172.32.0.1', 'public'], // just past 172.16/12
  ['100.128.0.1', 'public'], // just past 100.64/10
  ['198.20.0.1', 'public'], // just past 198.18/15
  ['169.255.0.1', 'public'],
  ['2606:4700::1111', 'public'],
  ['2a00:1450:4001:80b::200e', 'public'],
  ['::ffff:8.8.8.8', 'public'], // mapped: packets go to 8.8.8.8
  ['64:ff9b::808:808', 'public'], // NAT64 of 8.8.8.8
  ['2002:808:808::1', 'public'], // 6to4 of 8.8.8.8
  ['2001:0:808:808:0:0:f7f7:f7f7', 'public'], // Teredo, server and client 8.8.8.8
];

for (const [address, expected] of TABLE) {
  test(`classifyAddress(${JSON.stringify(address)}) is ${expected}`, (t) => {
    t.is(classifyAddress(address), expected);
  });
}

test('a Teredo address is refused for its client address alone (the server part is public)', (t) => {
  // client 169.254.169.254 stored inverted: 0x56 0x01 0x56 0x01
  t.is(classifyAddress('2001:0:808:808:0:0:5601:5601'), 'link_local');
});

test('every address in the non-public IPv4 blocks classifies as non-public at the block edges', (t) => {
  const edges: [string, string][] = [
    ['10.0.0.0', '10.255.255.255'],
    ['127.0.0.0', '127.255.255.255'],
    ['172.16.0.0', '172.31.255.255'],
    ['192.168.0.0', '192.168.255.255'],
    ['100.64.0.0', '100.127.255.255'],
    ['169.254.0.0', '169.254.255.255'],
    ['224.0.0.0', '255.255.255.254'],
  ];
  for (const [first, last] of edges) {
    t.not(classifyAddress(first), 'public', first);
    t.not(classifyAddress(last), 'public', last);
  }
  t.is(classifyAddress('9.255.255.255'), 'public');
  t.is(classifyAddress('11.0.0.0'), 'public');
  t.is(classifyAddress('172.15.255.255'), 'public');
  t.is(classifyAddress('192.167.255.255'), 'public');
  t.is(classifyAddress('223.255.255.255'), 'public');
});
