import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** The named ranges an image may never be fetched from (unless the operator allow-lists them). */
type NonPublicRange =
  | 'unspecified' | 'loopback' | 'private' | 'carrier_grade_nat' | 'link_local' | 'multicast' | 'broadcast' | 'reserved'
  | 'benchmarking' | 'documentation' | 'unique_local' | 'site_local'
  /** `::a.b.c.d`, deprecated since 2006 (RFC 4291); refused even when the embedded address is public. */
  | 'ipv4_compatible'
  /** 64:ff9b:1::/48 (RFC 8215): a network's own NAT64 prefix, which may embed IPv4 anywhere. */
  | 'local_nat64'
  /** Not an IP address in canonical form: whatever it is, nothing may connect to it. */
  | 'not_an_ip';

export type AddressClass = 'public' | NonPublicRange;

type RangeTable<T> = readonly (readonly [T, number, NonPublicRange])[];

function rangeTable<T>(parseCIDR: (cidr: string) => [T, number], rows: readonly (readonly [string, NonPublicRange])[]): RangeTable<T> {
  return rows.map(([cidr, name]) => [...parseCIDR(cidr), name] as const);
}

/** IANA IPv4 special-purpose registry, minus nothing: every range that is not globally reachable unicast. */
const IPV4_RANGES = rangeTable((cidr) => ipaddr.IPv4.parseCIDR(cidr), [
  ['255.255.255.255/32', 'broadcast'], // before 240/4, which contains it
  ['0.0.0.0/8', 'unspecified'], // "this network": 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier_grade_nat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'], // includes the cloud metadata service 169.254.169.254
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

/**
 * IPv6 ranges that are refused outright. Ranges embedding an IPv4 address (mapped, NAT64, 6to4,
 * Teredo) are handled in code before this table; anything outside 2000::/3 (global unicast) that
 * is not named here is `reserved`.
 */
const IPV6_RANGES = rangeTable((cidr) => ipaddr.IPv6.parseCIDR(cidr), [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'local_nat64'],
  ['fc00::/7', 'unique_local'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'site_local'],
  ['ff00::/8', 'multicast'],
  ['100::/64', 'reserved'], // discard-only
  ['2001:2::/48', 'benchmarking'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['2001::/23', 'reserved'], // IETF protocol assignments (ORCHID, PCP...); Teredo is handled before
  ['5f00::/16', 'reserved'], // SRv6 SIDs
]);
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV4_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');

/**
 * Whether an address is public, or the name of the non-public range it lies in. Only canonical
 * forms count as addresses (dotted decimal IPv4 with no leading zeros, IPv6 as RFC 4291 text):
 * `0177.0.0.1` or `2130706433` are `not_an_ip` here, because this classifies what DNS answered and
 * what a socket reports, never what a user typed (the URL parser normalises those spellings first).
 *
 * IPv6 forms that carry an IPv4 address are judged by that address, since that is where packets
 * go: IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::` and Teredo
 * (server and client addresses, the client's stored inverted).
 */
export function classifyAddress(address: string): AddressClass {
  const parsed = parseAddress(address);
  if (parsed === undefined) return 'not_an_ip';
  return parsed instanceof ipaddr.IPv4 ? classifyIPv4(parsed) : classifyIPv6(parsed);
}

function classifyIPv4(address: IPv4): AddressClass {
  return lookupRange(address, IPV4_RANGES) ?? 'public';
}

function classifyIPv6(address: IPv6): AddressClass {
  if (address.match(IPV4_MAPPED)) return classifyIPv4(address.toIPv4Address());
  if (address.match(NAT64_WELL_KNOWN)) return classifyIPv4(embeddedIPv4(address, 6));
  if (address.match(SIX_TO_FOUR)) return classifyIPv4(embeddedIPv4(address, 1));
  if (address.match(TEREDO)) return classifyTeredo(address);
  const named = lookupRange(address, IPV6_RANGES);
  if (named !== undefined) return named;
  if (address.match(IPV4_COMPATIBLE)) {
    const embedded = classifyIPv4(embeddedIPv4(address, 6));
    return embedded === 'public' ? 'ipv4_compatible' : embedded;
  }
  return address.match(GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/** Teredo (RFC 4380): `2001:0 | server IPv4 | flags | port | client IPv4`, port and client inverted. */
function classifyTeredo(address: IPv6): AddressClass {
  const server = classifyIPv4(embeddedIPv4(address, 2));
  if (server !== 'public') return server;
  const [high = 0, low = 0] = address.parts.slice(6);
  return classifyIPv4(ipv4FromParts(high ^ 0xffff, low ^ 0xffff));
}

/** The IPv4 address stored in the two 16-bit groups starting at `group`. */
function embeddedIPv4(address: IPv6, group: number): IPv4 {
  return ipv4FromParts(address.parts[group] ?? 0, address.parts[group + 1] ?? 0);
}

function ipv4FromParts(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function lookupRange<T extends IPv4 | IPv6>(address: T, table: RangeTable<T>): NonPublicRange | undefined {
  for (const [network, bits, name] of table) {
    if (address.match(network, bits)) return name;
  }
  return undefined;
}

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
