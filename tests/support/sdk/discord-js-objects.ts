/**
 * Real discord.js structures (User, Guild, Role, GuildMember) built from Discord API payloads, as
 * discord.js builds them from gateway events, for the SDK's helper and the README's bots to read.
 * No login and no network: the Client is never connected.
 */
import { type APIGuildMember, type APIRole, type APIUser, Client, Guild, GuildMember, type RoleFlags } from 'discord.js';

/** The guild every fake member belongs to. */
export const GUILD_ID = '613425648685547541';

export interface FakeMemberOptions {
  user: APIUser;
  /** The member's own fields (nick, per-server avatar, ...); `roles` are ids of `roles`. */
  member?: Partial<APIGuildMember>;
  /** The guild's roles besides @everyone. */
  roles?: APIRole[];
  memberCount?: number;
}

/** A role as Discord sends it, with `colors` (gradient roles) and the legacy `color`. */
export function apiRole(id: string, position: number, colors: { primary_color: number; secondary_color: number | null; tertiary_color: number | null }): APIRole {
  return { id, name: `role ${id}`, color: colors.primary_color, colors, hoist: false, position, permissions: '0', managed: false, mentionable: false, flags: 0 as RoleFlags };
}

/** A connected-looking discord.js GuildMember (and its Client, to destroy when done). */
export function fakeMember({ user, member = {}, roles = [], memberCount = 42 }: FakeMemberOptions): { client: Client; guild: Guild; member: GuildMember } {
  const client = new Client({ intents: [] });
  const everyone = apiRole(GUILD_ID, 0, { primary_color: 0, secondary_color: null, tertiary_color: null });
  // discord.js builds these from gateway events; a bot never constructs them, so their constructors are private.
  const guild = Reflect.construct(Guild, [client, { id: GUILD_ID, name: 'Test Server', member_count: memberCount, roles: [everyone, ...roles], emojis: [], members: [], channels: [] }]) as Guild;
  const data = { user, roles: roles.map((role) => role.id), joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, ...member };
  return { client, guild, member: Reflect.construct(GuildMember, [client, data, guild]) as GuildMember };
}
