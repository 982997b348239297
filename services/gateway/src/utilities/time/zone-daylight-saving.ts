import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether daylight saving time is in force, as the time zone database says: its `isdst` flag for
 * the local time type in use. JavaScript's Intl and Temporal give offsets but not that flag, and
 * offsets alone cannot tell: New York kept +1 h all year from 1942 to 1945 (war time), Paris was on
 * summer time all year in 1941-42 and on its standard +0:09:21 (Paris Mean Time) until March 1911.
 * The flag is read from the system's compiled zone files (TZif, RFC 8536; Debian's `tzdata`, a
 * required package), once per zone.
 */
const ZONEINFO = '/usr/share/zoneinfo';

interface ZoneRules {
  /** Transition instants (seconds since the epoch), ascending. */
  transitions: number[];
  /** For each transition, whether the local time type it switches to is daylight saving time. */
  daylightAfter: boolean[];
  /** The type in use before the first transition (RFC 8536: time type 0). */
  daylightBefore: boolean;
  /** Seconds east of UTC of standard time in the footer's rule, for instants after the last transition. */
  footerStandardOffset: number | undefined;
}

const rulesByZone = new Map<string, ZoneRules>();

class ZoneFileError extends Error {
  constructor(zone: string, problem: string) {
    super(`time zone data for ${zone} (${join(ZONEINFO, zone)}): ${problem}; install the tzdata package`);
    this.name = 'ZoneFileError';
  }
}

/** The standard offset of a POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3` (`-1` means 1 h east). */
function standardOffsetOf(tz: string): number | undefined {
  const match = /^(?:<[^>]*>|[A-Za-z]{3,})([+-]?)(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?/.exec(tz);
  if (!match) return undefined;
  const [, sign, hours = '0', minutes = '0', seconds = '0'] = match;
  const westOfUtc = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return sign === '-' ? westOfUtc : -westOfUtc;
}

function parseZoneFile(zone: string, bytes: Buffer): ZoneRules {
  if (bytes.toString('latin1', 0, 4) !== 'TZif') throw new ZoneFileError(zone, 'not a TZif file');
  const counts = (offset: number) => ({
    isutcnt: bytes.readUInt32BE(offset + 20),
    isstdcnt: bytes.readUInt32BE(offset + 24),
    leapcnt: bytes.readUInt32BE(offset + 28),
    timecnt: bytes.readUInt32BE(offset + 32),
    typecnt: bytes.readUInt32BE(offset + 36),
    charcnt: bytes.readUInt32BE(offset + 40),
  });
  const v1 = counts(0);
  const v1Size = v1.timecnt * 5 + v1.typecnt * 6 + v1.charcnt + v1.leapcnt * 8 + v1.isstdcnt + v1.isutcnt;
  // Version 2 and later repeat the data with 64-bit times after the version 1 block; use those.
  const header = bytes.toString('latin1', 4, 5) === '\0' ? 0 : 44 + v1Size;
  const { timecnt, typecnt, charcnt, leapcnt, isstdcnt, isutcnt } = counts(header);
  const timeSize = header === 0 ? 4 : 8;
  let cursor = header + 44;
  const transitions: number[] = [];
  for (let index = 0; index < timecnt; index += 1, cursor += timeSize) {
    transitions.push(timeSize === 8 ? Number(bytes.readBigInt64BE(cursor)) : bytes.readInt32BE(cursor));
  }
  const typeIndexes = [...bytes.subarray(cursor, cursor + timecnt)];
  cursor += timecnt;
  const daylight: boolean[] = [];
  for (let index = 0; index < typecnt; index += 1, cursor += 6) daylight.push(bytes[cursor + 4] === 1);
  cursor += charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt;
  const footer = header === 0 ? '' : bytes.toString('latin1', cursor).split('\n')[1] ?? '';
  return {
    transitions,
    daylightAfter: typeIndexes.map((type) => daylight[type] ?? false),
    daylightBefore: daylight[0] ?? false,
    footerStandardOffset: footer === '' ? undefined : standardOffsetOf(footer),
  };
}

/** Reads a zone's rules (once); throws naming the package to install when the files are missing. */
export function loadZoneRules(zone: string): void {
  if (rulesByZone.has(zone)) return;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(ZONEINFO, zone));
  } catch (error) {
    throw new ZoneFileError(zone, (error as Error).message);
  }
  rulesByZone.set(zone, parseZoneFile(zone, bytes));
}

/**
 * The database's daylight saving flag at `epochSeconds` in `zone`. Past the last listed transition
 * (zone files stop where a rule takes over), daylight saving is an offset other than the rule's
 * standard one; `offsetSeconds` is the offset in force there (from Temporal).
 */
export function isDaylightSavingAt(zone: string, epochSeconds: number, offsetSeconds: number): boolean {
  loadZoneRules(zone);
  const rules = rulesByZone.get(zone) as ZoneRules;
  const { transitions } = rules;
  if (transitions.length === 0 || epochSeconds < (transitions[0] as number)) return rules.daylightBefore;
  if (epochSeconds >= (transitions.at(-1) as number) && rules.footerStandardOffset !== undefined) return offsetSeconds !== rules.footerStandardOffset;
  // The last transition at or before the instant.
  let [low, high] = [0, transitions.length - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((transitions[middle] as number) <= epochSeconds) low = middle;
    else high = middle - 1;
  }
  return rules.daylightAfter[low] ?? false;
}
