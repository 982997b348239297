/**
 * The discord.js helper, its own entry point (`@utility-api/client/discord.js`) so the core client
 * never loads discord.js: it is an optional peer dependency, needed only by bots importing this.
 */
import { AttachmentBuilder, type APIInteractionGuildMember, type GuildMember, type User } from 'discord.js';
import type { UtilityApiClient } from './client.ts';
import { cardComponents, type CardComponents } from './components-v2.ts';
import type { CardOptions, DiscordMemberObject, DiscordUserObject } from './types.ts';

/**
 * Whom a card is for: a member (`GuildMemberAdd`), a user, or an interaction (its `member` when in a
 * server, else its `user`), as discord.js hands them to a bot.
 */
export type CardSubject = GuildMember | User | { member: GuildMember | APIInteractionGuildMember | null; user: User };

/** The raw Discord objects `POST /v1/profile-image` reads. */
export type DiscordObjectFields = Pick<CardOptions, 'discordUser' | 'discordMember' | 'discordRoleColors'>;

/**
 * The `User#toJSON()` fields the API reads; the rest (URLs, timestamps, the tag) is derived from
 * these or not drawn, and stays out of the body.
 */
const USER_FIELDS = ['id', 'username', 'globalName', 'avatar', 'banner', 'accentColor', 'flags', 'bot', 'avatarDecorationData', 'collectibles', 'primaryGuild'] as const;
/** The `GuildMember#toJSON()` fields the API reads: not `roles` (up to 250 ids the card never draws; the top role's colours travel as `discordRoleColors`). */
const MEMBER_FIELDS = ['guildId', 'userId', 'nickname', 'avatar', 'banner', 'avatarDecorationData', 'collectibles'] as const;
/** The same of a raw API member (an interaction in a server the bot has not cached). */
const API_MEMBER_FIELDS = ['nick', 'avatar', 'banner', 'avatar_decoration_data', 'collectibles'] as const;

/** The named fields of `source` that are set: `null` says "none", as leaving the field out does, so neither is sent. */
function pick<T>(source: Record<string, unknown>, fields: readonly string[]): T {
  return Object.fromEntries(fields.flatMap((field) => (source[field] === undefined || source[field] === null ? [] : [[field, source[field]]]))) as T;
}

/** Duck-typed, not `instanceof`: a bot and this package may each resolve their own copy of discord.js. */
function isGuildMember(who: CardSubject): who is GuildMember {
  return 'guild' in who && 'roles' in who && 'user' in who && !('member' in who);
}

function isInteraction(who: CardSubject): who is Extract<CardSubject, { member: unknown }> {
  return 'member' in who && 'user' in who && !('guild' in who && 'roles' in who);
}

/**
 * The colours of the member's top coloured role, as discord.js reads them: `Role#colors` (gradient
 * and holographic roles), or the single `Role#color` of a discord.js before role gradients.
 */
function roleColors(member: GuildMember): { primaryColor: number; secondaryColor: number | null; tertiaryColor: number | null } | undefined {
  let role: GuildMember['roles']['color'];
  try {
    role = member.roles.color;
  } catch {
    // A guild whose roles are not cached (not even @everyone) makes discord.js throw here: the card is drawn without role colours.
    return undefined;
  }
  if (role === null) return undefined;
  // `colors` came with discord.js 14.22; the peer range starts at 14.0, where a role has one `color`.
  const colors = (role.colors as typeof role.colors | undefined) ?? { primaryColor: role.hexColor === '#000000' ? 0 : Number.parseInt(role.hexColor.slice(1), 16), secondaryColor: null, tertiaryColor: null };
  if (!colors.primaryColor) return undefined;
  return { primaryColor: colors.primaryColor, secondaryColor: colors.secondaryColor ?? null, tertiaryColor: colors.tertiaryColor ?? null };
}

/**
 * What the API reads of a member, user or interaction: `discordUser` (`user.toJSON()`),
 * `discordMember` (`member.toJSON()`, or the raw member of an interaction) and `discordRoleColors`,
 * each with only the fields the API reads. With them, the card draws the member's display name,
 * avatars, decoration, banner and role colours without a bot token on the server.
 */
export function discordObjects(who: CardSubject): DiscordObjectFields {
  if (isGuildMember(who)) {
    const discordRoleColors = roleColors(who);
    return {
      discordUser: pick<DiscordUserObject>(who.user.toJSON() as Record<string, unknown>, USER_FIELDS),
      discordMember: pick<DiscordMemberObject>(who.toJSON() as Record<string, unknown>, MEMBER_FIELDS),
      ...(discordRoleColors && { discordRoleColors }),
    };
  }
  if (isInteraction(who)) {
    const { member, user } = who;
    if (member === null) return discordObjects(user);
    // A cached member is discord.js's GuildMember; the raw one has no `guild`.
    if ('guild' in member) return discordObjects(member);
    // The raw API member of a server the bot has not cached: its own fields, the user beside it.
    const guildId = (who as { guildId?: string | null }).guildId;
    return {
      discordUser: pick<DiscordUserObject>(user.toJSON() as Record<string, unknown>, USER_FIELDS),
      discordMember: { ...pick<DiscordMemberObject>(member as unknown as Record<string, unknown>, API_MEMBER_FIELDS), ...(guildId ? { guild_id: guildId } : {}) },
    };
  }
  return { discordUser: pick<DiscordUserObject>(who.toJSON() as Record<string, unknown>, USER_FIELDS) };
}

function subjectId(who: CardSubject): string {
  return isInteraction(who) ? who.user.id : who.id;
}

/** Draws the card with the member's objects under the caller's options (an explicit option wins over what the objects say). */
async function drawCard(client: UtilityApiClient, who: CardSubject, card: CardOptions) {
  const body: CardOptions = { ...discordObjects(who), ...card };
  const image = await client.profileImageBytes(subjectId(who), body);
  const extension = image.contentType.replace(/^image\//, '').replace(/;.*$/, '');
  return { image, name: `card.${extension}` };
}

/**
 * Draws the card of a member, user or interaction and wraps it for `channel.send({ files: [...] })`,
 * with the card's alt text as the attachment's description (what Discord shows to screen readers).
 * The member's own objects go with the request (`discordObjects`): its display name, avatar and
 * colours are drawn unless `card` says otherwise (`customUsername`, `customAvatar`, ...).
 */
export async function cardAttachment(client: UtilityApiClient, who: CardSubject, card: CardOptions = {}): Promise<AttachmentBuilder> {
  const { image, name } = await drawCard(client, who, card);
  return new AttachmentBuilder(Buffer.from(image.bytes), { name, description: image.altText });
}

/** A ready Components V2 message: `channel.send(message)`, `interaction.editReply(message)`. */
export interface CardMessage extends CardComponents {
  files: [AttachmentBuilder];
}

/**
 * The card as a Components V2 message: in a media gallery with its alt text, inside a container
 * tinted with the card's accent colour (`X-Card-Accent`), `text` (markdown: a greeting, a mention)
 * above it, the `IS_COMPONENTS_V2` flag set and the attachment the gallery refers to. Such a message
 * has no `content` or embeds: put words in `text`.
 */
export async function cardMessage(client: UtilityApiClient, who: CardSubject, card: CardOptions = {}, options: { text?: string } = {}): Promise<CardMessage> {
  const { image, name } = await drawCard(client, who, card);
  const attachment = new AttachmentBuilder(Buffer.from(image.bytes), { name, description: image.altText });
  return { ...cardComponents({ fileName: name, altText: image.altText, accentColor: image.accentColor, text: options.text }), files: [attachment] };
}
