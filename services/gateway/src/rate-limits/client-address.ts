import { isIPv4, isIPv6 } from 'node:net';

/**
 * What auth failures are counted by: the IPv4 address, or the /64 network of an IPv6 address
 * (one host usually holds a whole /64, so counting single addresses would be no limit at all).
 * IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address || 'unknown';
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lowercase hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const parts = (text: string) => (text === '' ? [] : text.split(':').flatMap(embeddedIpv4));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}

/** `1.2.3.4` at the end of an IPv6 address is its last two groups. */
function embeddedIpv4(part: string): string[] {
  if (!part.includes('.')) return [part];
  const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
