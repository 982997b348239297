import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * A `lookup` answering from a table (names not in it go to the system resolver, as `localhost`
 * should). Answers may change from call to call: pass a function to play DNS rebinding.
 * `calls` records every name asked for.
 */
export function fakeDns(table: Record<string, string[] | (() => string[])>): { lookup: LookupFunction; calls: string[] } {
  const calls: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (options.all === true) callback(error, addresses);
        else callback(error, addresses[0]?.address ?? '', addresses[0]?.family);
      });
      return;
    }
    const addresses: LookupAddress[] = (typeof entry === 'function' ? entry() : entry).map((address) => ({ address, family: isIP(address) }));
    setImmediate(() => {
      if (addresses.length === 0) callback(Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      else if (options.all === true) callback(null, addresses);
      else callback(null, addresses[0]?.address ?? '', addresses[0]?.family);
    });
  };
  return { lookup, calls };
}
