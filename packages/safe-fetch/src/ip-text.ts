import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

const DOTTED_SUFFIX = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/;

/**
 * Parses an address in canonical text only: dotted-decimal IPv4 without leading zeros or short
 * forms, or IPv6 (a dotted IPv4 tail allowed), no brackets, no zone. Anything else is `undefined`.
 *
 * The dotted tail of an IPv6 address is converted here rather than by ipaddr.js, which reads
 * `::a.b.c.d` (IPv4-compatible, and what glibc prints for it) as `::ffff:a.b.c.d` (IPv4-mapped).
 */
export function parseAddress(text: string): IpAddress | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  let ipv6 = text;
  const dotted = DOTTED_SUFFIX.exec(text);
  if (dotted !== null) {
    const [, head = '', tail = ''] = dotted;
    if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
    ipv6 = `${head}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (ipv6.includes('%') || !ipaddr.IPv6.isValid(ipv6)) return undefined;
  return ipaddr.IPv6.parse(ipv6);
}

/** IPv4-mapped IPv6 addresses as the IPv4 address they stand for; others unchanged. */
export function unmapped(address: IpAddress): IpAddress {
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) return address.toIPv4Address();
  return address;
}

/** Same host, whatever the spelling (`::ffff:127.0.0.1` is `127.0.0.1`). */
export function sameAddress(left: string, right: string): boolean {
  const a = parseAddress(left);
  const b = parseAddress(right);
  return a !== undefined && b !== undefined && unmapped(a).toNormalizedString() === unmapped(b).toNormalizedString();
}
