import type { LeaderboardGuild, LeaderboardOptions } from '@utility-api/render-jobs';

/** What the Discord lookup gives for a server header: undefined when the bot cannot read the server. */
export type LeaderboardGuildLookup = (guildId: string) => Promise<{ name: string; memberCount: number | undefined; icon: Buffer | undefined; iconHash: string | undefined } | undefined>;

/** The header the card draws: always a name (without one there is no header), the rest optional. */
export interface DrawnGuildHeader {
  guild: { name: string; memberCount?: number } | undefined;
  /** The icon's bytes: the caller's `iconUrl` when given, else the server's own from the CDN. */
  icon: Buffer | undefined;
  warnings: string[];
}

/**
 * A leaderboard's server header from what the caller gave and, for `guild.id`, what Discord says of
 * the server (`lookup`, undefined without a bot token). The caller's fields win over Discord's.
 * Nothing here fails the board: a server that cannot be read (no token, unknown, Discord failing or
 * slow) is a warning, and the header is drawn from the fields given, or left out (the title alone)
 * when that leaves no name. `fetchGivenIcon` fetches the caller's `iconUrl` (its own warning when
 * it cannot); a cancelled board's error passes through it and `lookup` untouched.
 */
export async function resolveLeaderboardGuild(
  given: LeaderboardGuild | undefined,
  lookup: LeaderboardGuildLookup | undefined,
  fetchGivenIcon: (url: string | undefined) => Promise<{ bytes: Buffer | undefined; warnings: string[] }>,
  isCancelled: (error: unknown) => boolean,
): Promise<DrawnGuildHeader> {
  if (given === undefined) return { guild: undefined, icon: undefined, warnings: [] };
  const warnings: string[] = [];
  const [givenIcon, fetched] = await Promise.all([
    fetchGivenIcon(given.iconUrl),
    (async () => {
      if (given.id === undefined) return undefined;
      if (lookup === undefined) {
        warnings.push('guild.id: no Discord bot token is configured, so the server was not looked up; drawn from the fields given');
        return undefined;
      }
      try {
        const server = await lookup(given.id);
        if (server === undefined) warnings.push('guild.id: the bot cannot read this server (unknown, or the bot is not in it); drawn from the fields given');
        return server;
      } catch (error) {
        if (isCancelled(error)) throw error;
        warnings.push(`guild.id: the server could not be looked up (${error instanceof Error ? error.message : 'unknown error'}); drawn from the fields given`);
        return undefined;
      }
    })(),
  ]);
  warnings.push(...givenIcon.warnings);
  const name = given.name ?? fetched?.name;
  if (name === undefined || name.trim().length === 0) {
    warnings.push('guild: no server name (none given, and the server could not be looked up), so the server header is left out');
    return { guild: undefined, icon: undefined, warnings };
  }
  const memberCount = given.memberCount ?? fetched?.memberCount;
  // A caller's `iconUrl` that failed is the initials, not Discord's icon: the caller chose that image.
  let icon = given.iconUrl === undefined ? fetched?.icon : givenIcon.bytes;
  if (given.iconUrl === undefined && fetched?.iconHash !== undefined && fetched.icon === undefined) {
    warnings.push("guild.id: the server's icon could not be fetched from Discord's CDN; its initials are drawn");
    icon = undefined;
  }
  return { guild: { name, ...(memberCount !== undefined && { memberCount }) }, icon, warnings };
}

/** The board the card draws: the header as resolved (the caller's fields over Discord's), or none without a name. */
export function boardWithResolvedGuild(board: LeaderboardOptions, header: DrawnGuildHeader): LeaderboardOptions {
  const { guild: _asked, ...rest } = board;
  return header.guild === undefined ? rest : { ...rest, guild: header.guild };
}
