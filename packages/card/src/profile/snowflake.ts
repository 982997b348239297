/** Discord's epoch: the first second of 2015, in milliseconds since the UNIX epoch. */
export const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** A Discord id (snowflake) carries its creation time in its top 42 bits. */
export function snowflakeCreatedAt(id: string): Date {
  if (!/^\d{1,20}$/.test(id)) throw new RangeError(`not a snowflake: ${id}`);
  return new Date(Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/** A stable 32-bit number from an id, for the colors and shapes of generated art. */
export function idHash(id: string): number {
  let hash = 2166136261;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}
