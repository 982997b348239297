import test from 'ava';
import { clientAddressKey } from '../../../services/gateway/src/auth/rate-limits.ts';

test('IPv4 addresses count alone, IPv4-mapped IPv6 as their IPv4 address', (t) => {
  t.is(clientAddressKey('203.0.113.7'), '203.0.113.7');
  t.is(clientAddressKey('::ffff:203.0.113.7'), '203.0.113.7');
  t.is(clientAddressKey('::FFFF:127.0.0.1'), '127.0.0.1');
});

test('IPv6 addresses count by their /64, however they are written', (t) => {
  const key = '2001:db8:1:2::/64';
  for (const address of ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9', '2001:db8:1:2::1.2.3.4', '2001:db8:1:2::1%eth0']) {
    t.is(clientAddressKey(address), key, address);
  }
  t.is(clientAddressKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
  t.is(clientAddressKey('::1'), '0:0:0:0::/64');
  t.is(clientAddressKey('2001:db8::'), '2001:db8:0:0::/64');
});

test('anything else is used as it is', (t) => {
  t.is(clientAddressKey(''), 'unknown');
  t.is(clientAddressKey('not-an-ip'), 'not-an-ip');
});
