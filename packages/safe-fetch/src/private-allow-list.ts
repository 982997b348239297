import ipaddr from 'ipaddr.js';
import { type IpAddress, parseAddress, unmapped } from './address-class.ts';

type Network = [IpAddress, number];

/** A DNS name as the URL parser leaves it: lower-case labels of letters, digits, `-` and `_`. */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * The operator's exceptions to the public-address rule (`allowPrivateHosts`): hostnames, IP
 * addresses and CIDR ranges an image may be fetched from even though they are not public, on any
 * port. Empty by default. A hostname entry trusts whatever that name resolves to; an address or
 * range entry trusts those addresses whatever name led to them.
 */
export class PrivateAllowList {
  readonly #hostnames: ReadonlySet<string>;
  readonly #networks: readonly Network[];

  private constructor(hostnames: ReadonlySet<string>, networks: readonly Network[]) {
    this.#hostnames = hostnames;
    this.#networks = networks;
  }

  /** Throws a RangeError naming the first entry that is neither a hostname, an IP address nor a CIDR. */
  static parse(entries: readonly string[]): PrivateAllowList {
    const hostnames = new Set<string>();
    const networks: Network[] = [];
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
      if (ipaddr.isValidCIDR(entry)) networks.push(unmapNetwork(ipaddr.parseCIDR(entry)));
      else if (parseAddress(entry) !== undefined) networks.push(singleAddress(entry));
      else if (HOSTNAME.test(withoutTrailingDot(entry))) hostnames.add(withoutTrailingDot(entry));
      else throw new RangeError(`allowPrivateHosts: "${raw}" is not a hostname, an IP address or a CIDR range`);
    }
    return new PrivateAllowList(hostnames, networks);
  }

  get isEmpty(): boolean {
    return this.#hostnames.size === 0 && this.#networks.length === 0;
  }

  /** `hostname` as the URL parser gives it (lower case; IPv6 without brackets). */
  allowsHostname(hostname: string): boolean {
    return this.#hostnames.has(withoutTrailingDot(hostname));
  }

  allowsAddress(address: string): boolean {
    const parsed = parseAddress(address);
    if (parsed === undefined) return false;
    const host = unmapped(parsed);
    return this.#networks.some(([network, bits]) => network.kind() === host.kind() && host.match(network, bits));
  }
}

function singleAddress(entry: string): Network {
  const address = unmapped(parseAddress(entry) as IpAddress);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** `::ffff:10.0.0.0/104` and `10.0.0.0/8` name the same hosts; entries and addresses are compared as IPv4. */
function unmapNetwork([network, bits]: Network): Network {
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && bits >= 96) return [network.toIPv4Address(), bits - 96];
  return [network, bits];
}

export function withoutTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}
