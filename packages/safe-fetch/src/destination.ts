import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from './address-class.ts';
import { type FetchTarget } from './fetch-target.ts';
import { ImageFetchError } from './image-fetch-error.ts';
import { type PrivateAllowList } from './private-allow-list.ts';

/** The one address a hop connects to: every other answer DNS gave was checked and is discarded. */
export type Destination = { address: string; family: 4 | 6 };

export type DestinationRules = { field: string; allowList: PrivateAllowList; allowedPorts: readonly number[] };

/**
 * Resolves the target's host (all answers) and applies the address and port rules to them. DNS
 * failures are `unreachable`; a lookup still running when `signal` aborts rejects with its reason.
 */
export async function resolveDestination(target: FetchTarget, rules: DestinationRules, lookup: LookupFunction | undefined, signal: AbortSignal): Promise<Destination> {
  const addresses = target.literalAddress ? [target.hostname] : await lookupAll(lookup ?? dnsLookup, target.hostname, rules.field, signal);
  return chooseDestination(target, addresses, rules);
}

/**
 * The address rule and the port rule, given DNS's answers:
 * - EVERY answer must be public or allow-listed, not just the one used: with mixed answers the
 *   address a client ends up on is the attacker's choice (ordering, happy eyeballs, retries);
 * - the port must be in `allowedPorts`, unless the host is allow-listed (by name, or all its addresses).
 * Returns the first answer, which is then the only address connected to.
 */
export function chooseDestination(target: FetchTarget, addresses: readonly string[], rules: DestinationRules): Destination {
  const { field, allowList } = rules;
  const first = addresses[0];
  if (first === undefined) throw new ImageFetchError('unreachable', field, noPublicAddress(target.hostname));
  const nameAllowed = allowList.allowsHostname(target.hostname);
  if (!nameAllowed) {
    for (const address of addresses) {
      if (classifyAddress(address) !== 'public' && !allowList.allowsAddress(address)) throw nonPublic(target, field);
    }
  }
  const portExempt = nameAllowed || addresses.every((address) => allowList.allowsAddress(address));
  if (!rules.allowedPorts.includes(target.port) && !portExempt) {
    throw new ImageFetchError('forbidden_port', field, `port ${target.port} is not allowed; images are fetched from ports ${rules.allowedPorts.join(', ')}`);
  }
  const family = isIP(first);
  if (family !== 4 && family !== 6) throw nonPublic(target, field); // unreachable: classified above unless allow-listed by name
  return { address: first, family };
}

/**
 * What a caller is told about a hostname that cannot be fetched from: the same words whether it
 * does not resolve at all or resolves to a private address, so the API cannot be used to learn
 * which internal DNS names exist. The reasons stay apart in logs and metrics.
 */
const noPublicAddress = (hostname: string) => `the host ${hostname} has no public address`;

/**
 * A literal address is the user's own input and may be quoted; what a hostname resolved to is not
 * repeated, so the API cannot be used to map internal DNS names to internal addresses.
 */
function nonPublic(target: FetchTarget, field: string): ImageFetchError {
  const detail = target.literalAddress ? `the address ${target.hostname} is not public` : noPublicAddress(target.hostname);
  return new ImageFetchError('forbidden_address', field, detail);
}

function lookupAll(lookup: LookupFunction, hostname: string, field: string, signal: AbortSignal): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const unreachable = () => new ImageFetchError('unreachable', field, noPublicAddress(hostname));
    const aborted = () => reject(signal.reason as Error);
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    try {
      lookup(hostname, { all: true, verbatim: true }, (error, answer) => {
        signal.removeEventListener('abort', aborted);
        if (error) reject(unreachable());
        else resolve(typeof answer === 'string' ? [answer] : answer.map((entry: LookupAddress) => entry.address));
      });
    } catch {
      reject(unreachable());
    }
  });
}
