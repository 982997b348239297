import { z } from 'zod';
import { discordIdSchema } from './snowflake.ts';

/**
 * The Discord objects a bot already holds, taken as card input (`discordUser`, `discordMember`,
 * `discordRoleColors`): the Discord API's snake_case shape or discord.js's `toJSON()` camelCase
 * shape, each read field validated and bounded, every other field ignored. Both shapes come out as
 * one internal shape, the API's snake_case spelling of only the fields the card reads; that shape
 * parses again to itself, so a renderer re-validating a queued job gets the same object.
 */
export const DISCORD_OBJECT_LIMITS = {
  /** Discord caps usernames, display names and nicknames at 32; room for what it may allow later. */
  maxNameLength: 100,
  /** Discord's server tags are at most 4 characters. */
  maxServerTagLength: 4,
  /** CDN hashes are 32 hex digits (`a_` first when animated); longer is not a hash. */
  maxHashLength: 66,
  /** A nameplate asset is a CDN path such as `nameplates/nameplates_v3/bonsai/`. */
  maxAssetPathLength: 160,
  maxPaletteLength: 32,
  /** Display-name style colours: Discord sends one or two. */
  maxStyleColors: 4,
  maxStyleId: 1000,
  /** The JSON text of one object, unknown fields included (a discord.js member with every role id fits). */
  maxObjectBytes: 16_384,
} as const;

/**
 * Discord's nameplate palettes, each as the two colours its client paints the plate with (dark
 * end, light end), as `#rrggbb`. A palette not listed draws the nameplate's image alone (or none).
 */
export const NAMEPLATE_PALETTES: Readonly<Record<string, readonly [string, string]>> = Object.freeze({
  crimson: ['#900007', '#e7040f'],
  berry: ['#893a99', '#b11fcf'],
  sky: ['#0080b7', '#56ccff'],
  teal: ['#086460', '#7deee7'],
  forest: ['#2d5401', '#6aa624'],
  bubble_gum: ['#dc3e97', '#f957b3'],
  violet: ['#730ba9', '#972fed'],
  cobalt: ['#0131c2', '#4278ff'],
  clover: ['#047b20', '#63cd5a'],
  lemon: ['#f6cd12', '#fed400'],
  white: ['#ffffff', '#ffffff'],
});

/** Holographic role colours, as Discord sends them: the only three-colour style it allows. */
export const HOLOGRAPHIC_ROLE_COLORS = { primary_color: 11_127_295, secondary_color: 16_759_788, tertiary_color: 16_761_760 } as const;

const HASH_PATTERN = /^(a_)?[0-9a-fA-F]{1,64}$/;
export const ASSET_PATH_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/$/;
export const PALETTE_PATTERN = /^[a-z_]+$/;

const hash = (what: string) =>
  z
    .string({ error: `must be a Discord ${what} hash` })
    .max(DISCORD_OBJECT_LIMITS.maxHashLength, { error: `must be a Discord ${what} hash` })
    .regex(HASH_PATTERN, { error: `must be a Discord ${what} hash: hex digits, \`a_\` first when animated` });

const name = (what: string) =>
  z
    .string({ error: `must be text (the ${what})` })
    .max(DISCORD_OBJECT_LIMITS.maxNameLength, { error: `must be at most ${DISCORD_OBJECT_LIMITS.maxNameLength} characters` });

const integerColor = z
  .number({ error: 'must be a Discord integer color from 0 to 16777215' })
  .int({ error: 'must be a Discord integer color from 0 to 16777215' })
  .min(0, { error: 'must be a Discord integer color from 0 to 16777215' })
  .max(0xff_ff_ff, { error: 'must be a Discord integer color from 0 to 16777215' });

const flagBits = z.union(
  [
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    // discord.js's BitField#toJSON gives a string when the bits do not fit a safe integer.
    z.string().regex(/^\d{1,20}$/),
  ],
  { error: 'must be a whole number of flag bits (or its digits)' },
);

const bool = z.boolean({ error: 'must be true or false' });

/** Internal shapes: what the card reads, in the API's spelling. */
interface DiscordDecorationData {
  asset: string;
}
export interface DiscordNameplate {
  asset?: string | undefined;
  palette?: string | undefined;
}
export interface DiscordCollectibles {
  nameplate?: DiscordNameplate | null | undefined;
}
export interface DiscordPrimaryGuild {
  identity_guild_id?: string | null | undefined;
  identity_enabled?: boolean | null | undefined;
  tag?: string | null | undefined;
  badge?: string | null | undefined;
}
export interface DiscordDisplayNameStyles {
  font_id: number;
  effect_id: number;
  colors: number[];
}
export interface DiscordUserObject {
  id: string;
  username?: string | undefined;
  global_name?: string | null | undefined;
  bot?: boolean | undefined;
  avatar?: string | null | undefined;
  banner?: string | null | undefined;
  accent_color?: number | null | undefined;
  public_flags?: number | undefined;
  avatar_decoration_data?: DiscordDecorationData | null | undefined;
  collectibles?: DiscordCollectibles | null | undefined;
  primary_guild?: DiscordPrimaryGuild | null | undefined;
  display_name_styles?: DiscordDisplayNameStyles | null | undefined;
}
export interface DiscordMemberObject {
  guild_id?: string | undefined;
  /** discord.js's member JSON names its user by id only (`userId`). */
  user_id?: string | undefined;
  nick?: string | null | undefined;
  avatar?: string | null | undefined;
  banner?: string | null | undefined;
  avatar_decoration_data?: DiscordDecorationData | null | undefined;
  collectibles?: DiscordCollectibles | null | undefined;
  user?: DiscordUserObject | undefined;
}
export interface DiscordRoleColorsObject {
  primary_color: number;
  secondary_color?: number | null | undefined;
  tertiary_color?: number | null | undefined;
}

/** Object keys dropped when undefined, so the internal shape has no `key: undefined` (the render key hashes JSON). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** Either spelling of a field; the API's wins when both are given. */
const either = <T>(snake: T | undefined, camel: T | undefined): T | undefined => (snake === undefined ? camel : snake);

/** The whole object's JSON text, unknown fields included, is bounded: they are ignored, not free. */
function boundedSize(value: unknown, context: z.RefinementCtx): void {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > DISCORD_OBJECT_LIMITS.maxObjectBytes) {
    context.addIssue({ code: 'custom', message: `must be at most ${DISCORD_OBJECT_LIMITS.maxObjectBytes} bytes of JSON (unknown fields included); it has ${bytes}` });
  }
}

const decorationSchema = z
  .looseObject({ asset: hash('avatar decoration') }, { error: 'must be an object with asset' })
  .transform(({ asset }): DiscordDecorationData => ({ asset }))
  // Named: one schema in the document for both spellings of the field (see the gateway's openapi-document.ts).
  .meta({ id: 'DiscordAvatarDecoration' });

const nameplateSchema = z
  .looseObject(
    {
      asset: z
        .string({ error: 'must be a nameplate asset path' })
        .max(DISCORD_OBJECT_LIMITS.maxAssetPathLength, { error: `must be at most ${DISCORD_OBJECT_LIMITS.maxAssetPathLength} characters` })
        .regex(ASSET_PATH_PATTERN, { error: 'must be a nameplate asset path such as nameplates/nameplates_v3/bonsai/' })
        .optional(),
      palette: z
        .string({ error: 'must be a nameplate palette name' })
        .max(DISCORD_OBJECT_LIMITS.maxPaletteLength, { error: `must be at most ${DISCORD_OBJECT_LIMITS.maxPaletteLength} characters` })
        .regex(PALETTE_PATTERN, { error: 'must be a nameplate palette name such as crimson or bubble_gum' })
        .optional(),
    },
    { error: 'must be an object' },
  )
  .transform(({ asset, palette }): DiscordNameplate => defined({ asset, palette }));

const collectiblesSchema = z
  .looseObject({ nameplate: nameplateSchema.nullish() }, { error: 'must be an object' })
  .transform(({ nameplate }): DiscordCollectibles => defined({ nameplate: nameplate ?? undefined }));

const snowflakeOrNull = discordIdSchema('server').nullish();

const primaryGuildSchema = z
  .looseObject(
    {
      identity_guild_id: snowflakeOrNull,
      identityGuildId: snowflakeOrNull,
      identity_enabled: bool.nullish(),
      identityEnabled: bool.nullish(),
      tag: z
        .string({ error: 'must be text (the server tag)' })
        .max(DISCORD_OBJECT_LIMITS.maxServerTagLength, { error: `must be at most ${DISCORD_OBJECT_LIMITS.maxServerTagLength} characters` })
        .nullish(),
      badge: hash('server tag badge').nullish(),
    },
    { error: 'must be an object' },
  )
  .transform(
    (guild): DiscordPrimaryGuild =>
      defined({
        identity_guild_id: either(guild.identity_guild_id, guild.identityGuildId),
        identity_enabled: either(guild.identity_enabled, guild.identityEnabled),
        tag: guild.tag,
        badge: guild.badge,
      }),
  )
  .meta({ id: 'DiscordPrimaryGuild' });

const styleId = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be 0 or more' })
  .max(DISCORD_OBJECT_LIMITS.maxStyleId, { error: `must be at most ${DISCORD_OBJECT_LIMITS.maxStyleId}` });
const styleColors = z
  .array(integerColor, { error: 'must be an array of Discord integer colors' })
  .max(DISCORD_OBJECT_LIMITS.maxStyleColors, { error: `must have at most ${DISCORD_OBJECT_LIMITS.maxStyleColors} colors` });

const displayNameStylesSchema = z
  .looseObject(
    { font_id: styleId.optional(), fontId: styleId.optional(), effect_id: styleId.optional(), effectId: styleId.optional(), colors: styleColors.optional() },
    { error: 'must be an object' },
  )
  .transform((styles): DiscordDisplayNameStyles => ({ font_id: either(styles.font_id, styles.fontId) ?? 0, effect_id: either(styles.effect_id, styles.effectId) ?? 0, colors: styles.colors ?? [] }))
  .meta({ id: 'DiscordDisplayNameStyles' });

/** The user fields in both spellings: one object schema, so a bad field is named in the spelling it came in. */
const userShape = {
  id: discordIdSchema('user'),
  username: name('username').min(1, { error: 'must not be empty' }).optional(),
  global_name: name('display name').nullish(),
  globalName: name('display name').nullish(),
  bot: bool.optional(),
  avatar: hash('avatar').nullish(),
  banner: hash('banner').nullish(),
  accent_color: integerColor.nullish(),
  accentColor: integerColor.nullish(),
  // discord.js's `User#toJSON()` says `flags: null` for a user whose payload had no public_flags (a gateway member's).
  public_flags: flagBits.nullish(),
  flags: flagBits.nullish(),
  avatar_decoration_data: decorationSchema.nullish(),
  avatarDecorationData: decorationSchema.nullish(),
  collectibles: collectiblesSchema.nullish(),
  primary_guild: primaryGuildSchema.nullish(),
  primaryGuild: primaryGuildSchema.nullish(),
  display_name_styles: displayNameStylesSchema.nullish(),
  displayNameStyles: displayNameStylesSchema.nullish(),
};

type ParsedUser = z.output<z.ZodObject<typeof userShape>>;

/** Bits as a number: a digit string beyond 2^53 keeps its low 32 bits, where every badge bit lives. */
const flagNumber = (bits: number | string | undefined): number | undefined =>
  bits === undefined ? undefined : typeof bits === 'number' ? bits : Number(BigInt(bits) & 0xff_ff_ff_ffn);

function normaliseUser(user: ParsedUser): DiscordUserObject {
  return defined({
    id: user.id,
    username: user.username,
    global_name: either(user.global_name, user.globalName),
    bot: user.bot,
    avatar: user.avatar,
    banner: user.banner,
    accent_color: either(user.accent_color, user.accentColor),
    public_flags: flagNumber(either(user.public_flags, user.flags) ?? undefined),
    avatar_decoration_data: either(user.avatar_decoration_data, user.avatarDecorationData),
    collectibles: user.collectibles,
    primary_guild: either(user.primary_guild, user.primaryGuild),
    display_name_styles: either(user.display_name_styles, user.displayNameStyles),
  });
}

/** The fields read, for the document (one list, written once). */
const PALETTE_LIST = Object.keys(NAMEPLATE_PALETTES).map((palette) => `\`${palette}\``).join(', ');
const USER_FIELDS_READ = `\`id\` (required; must equal the card's user id), \`username\`, \`global_name\`/\`globalName\`, \`bot\`, \`avatar\`, \`banner\`, \`accent_color\`/\`accentColor\`, \`public_flags\`/\`flags\` (badges), \`avatar_decoration_data.asset\`/\`avatarDecorationData.asset\`, \`collectibles.nameplate.asset\` (its still image, \`static.png\`) and \`.palette\` (one of ${PALETTE_LIST}; another name draws no palette), \`primary_guild\`/\`primaryGuild\` (\`identity_guild_id\`/\`identityGuildId\`, \`identity_enabled\`/\`identityEnabled\`, \`tag\`, \`badge\`; the tag and its badge are drawn only when \`identity_enabled\` is true) and \`display_name_styles\`/\`displayNameStyles\` (\`font_id\`/\`fontId\`, \`effect_id\`/\`effectId\`, \`colors\`; drawn only with \`experimentalDisplayNameStyles\`)`;

const SHAPES_TEXT = `Every other field (discord.js's \`avatarURL\`, \`displayAvatarURL\`, \`createdTimestamp\`, \`tag\`, ...) is ignored, but the object's whole JSON text is at most ${DISCORD_OBJECT_LIMITS.maxObjectBytes} bytes. When a field comes in both spellings the API's wins. Names are at most ${DISCORD_OBJECT_LIMITS.maxNameLength} characters, the server tag ${DISCORD_OBJECT_LIMITS.maxServerTagLength}, hashes are hex (\`a_\` first when animated), colours 0-16777215; a field of the wrong type or out of bounds is a 400 naming it. The answer echoes it as the fields read, in the API's snake_case spelling.`;

export const discordUserSchema = z
  .looseObject(userShape, { error: 'must be a Discord user object' })
  .superRefine(boundedSize)
  .transform(normaliseUser)
  .meta({
    description: `Extension: the Discord user the card is about, as the bot holds it: the API's user object (snake_case) or discord.js \`User#toJSON()\` (camelCase). Read: ${USER_FIELDS_READ}. ${SHAPES_TEXT} Its images come from Discord's CDN (avatar, banner, decoration, nameplate, tag badge) without any bot token; one that cannot be fetched is left out of the card, never an error. Explicit fields (\`customUsername\`, \`customAvatar\`, \`usernameColor\`, ...) win over it.`,
    examples: [{ id: '302050872383242240', username: 'ada', global_name: 'Ada Lovelace', avatar: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', primary_guild: { identity_guild_id: '613425648685547541', identity_enabled: true, tag: 'ADA', badge: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' } }],
  });

const memberShape = {
  guild_id: discordIdSchema('server').optional(),
  guildId: discordIdSchema('server').optional(),
  userId: discordIdSchema('user').optional(),
  // The internal spelling of `userId` (the API's member has none: its `user` says who).
  user_id: discordIdSchema('user').optional(),
  nick: name('nickname').nullish(),
  nickname: name('nickname').nullish(),
  avatar: hash('server avatar').nullish(),
  banner: hash('server banner').nullish(),
  avatar_decoration_data: decorationSchema.nullish(),
  avatarDecorationData: decorationSchema.nullish(),
  collectibles: collectiblesSchema.nullish(),
  user: z.looseObject(userShape, { error: 'must be a Discord user object' }).transform(normaliseUser).optional(),
};

export const discordMemberSchema = z
  .looseObject(memberShape, { error: 'must be a Discord guild member object' })
  .superRefine(boundedSize)
  .superRefine((member, context) => {
    const named = either(member.user_id, member.userId);
    if (member.user !== undefined && named !== undefined && member.user.id !== named) {
      context.addIssue({ code: 'custom', path: [member.user_id === undefined ? 'userId' : 'user_id'], message: `is ${named} but user.id is ${member.user.id}` });
    }
  })
  .transform(
    (member): DiscordMemberObject =>
      defined({
        guild_id: either(member.guild_id, member.guildId),
        user_id: either(member.user_id, member.userId) ?? member.user?.id,
        nick: either(member.nick, member.nickname),
        avatar: member.avatar,
        banner: member.banner,
        avatar_decoration_data: either(member.avatar_decoration_data, member.avatarDecorationData),
        collectibles: member.collectibles,
        user: member.user,
      }),
  )
  .meta({
    description: `Extension: the guild member the card is about: the API's guild member object (snake_case, with its nested \`user\`, read as \`discordUser\` is) or discord.js \`GuildMember#toJSON()\` (camelCase; it names the user only by \`userId\`, so send \`user.toJSON()\` as \`discordUser\` beside it). Read: \`guild_id\`/\`guildId\` (must equal \`guildId\` when both are given; the server of a per-server avatar and banner), \`userId\`/\`user.id\` (must equal the card's user id), \`nick\`/\`nickname\`, \`avatar\` (the per-server avatar, drawn over the user's own), \`banner\`, \`avatar_decoration_data\`/\`avatarDecorationData\`, \`collectibles.nameplate\` (over the user's own), \`user\`. Display name: \`nick\`, else the user's \`global_name\`, else \`username\`. ${SHAPES_TEXT}`,
    examples: [{ guild_id: '613425648685547541', nick: 'Ada', avatar: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', user: { id: '302050872383242240', username: 'ada', global_name: 'Ada Lovelace' } }],
  });

const nullableColor = integerColor.nullish();

export const discordRoleColorsSchema = z
  .looseObject(
    { primary_color: integerColor.optional(), primaryColor: integerColor.optional(), secondary_color: nullableColor, secondaryColor: nullableColor, tertiary_color: nullableColor, tertiaryColor: nullableColor },
    { error: 'must be a role colors object' },
  )
  .superRefine(boundedSize)
  .superRefine((colors, context) => {
    if (colors.primary_color === undefined && colors.primaryColor === undefined) context.addIssue({ code: 'custom', path: ['primary_color'], message: 'is required (primary_color or primaryColor)' });
  })
  .transform(
    (colors): DiscordRoleColorsObject =>
      defined({
        primary_color: either(colors.primary_color, colors.primaryColor) ?? 0,
        secondary_color: either(colors.secondary_color, colors.secondaryColor),
        tertiary_color: either(colors.tertiary_color, colors.tertiaryColor),
      }),
  )
  .meta({
    description: `Extension: the colours of the member's top coloured role, as the API's role \`colors\` (\`primary_color\`, \`secondary_color\`, \`tertiary_color\`) or discord.js \`Role#colors\` (\`primaryColor\`, \`secondaryColor\`, \`tertiaryColor\`): integers 0-16777215, the second and third null when unused. One colour is the name's colour; two are a gradient across the name; Discord's holographic style (${HOLOGRAPHIC_ROLE_COLORS.primary_color} / ${HOLOGRAPHIC_ROLE_COLORS.secondary_color} / ${HOLOGRAPHIC_ROLE_COLORS.tertiary_color}) is drawn as its three-colour sheen. Primary 0 (a role without colour) draws the default name colour. Colours too dark or too light for the card's panel are lifted to keep the name's contrast. \`usernameColor\` wins over it. Other fields are ignored; at most ${DISCORD_OBJECT_LIMITS.maxObjectBytes} bytes of JSON.`,
    examples: [{ primary_color: 15_277_667, secondary_color: 5_793_266, tertiary_color: null }],
  });

/** The ids the objects carry, each with the field path it came from, for checking against the request's own. */
function discordObjectIds(options: { discordUser?: DiscordUserObject | undefined; discordMember?: DiscordMemberObject | undefined }): { users: [string, PropertyKey[]][]; guilds: [string, PropertyKey[]][] } {
  const users: [string, PropertyKey[]][] = [];
  const guilds: [string, PropertyKey[]][] = [];
  if (options.discordUser) users.push([options.discordUser.id, ['discordUser', 'id']]);
  const member = options.discordMember;
  if (member?.user) users.push([member.user.id, ['discordMember', 'user', 'id']]);
  else if (member?.user_id) users.push([member.user_id, ['discordMember', 'userId']]);
  if (member?.guild_id) guilds.push([member.guild_id, ['discordMember', 'guild_id']]);
  return { users, guilds };
}

/**
 * What is wrong when objects are about someone else than the card: the user id of the path or query
 * must be every object's id, and a member's server the `guildId` when both are given. A mismatch is
 * the caller's mistake (the wrong member passed), never something to draw. Empty when all agree.
 */
export function discordIdMismatches(
  userId: string,
  options: { guildId?: string | undefined; discordUser?: DiscordUserObject | undefined; discordMember?: DiscordMemberObject | undefined },
): { path: PropertyKey[]; message: string }[] {
  const { users, guilds } = discordObjectIds(options);
  const problems: { path: PropertyKey[]; message: string }[] = [];
  for (const [id, path] of users) {
    if (id !== userId) problems.push({ path, message: `is ${id}, not the card's user id ${userId}` });
  }
  for (const [id, path] of guilds) {
    if (options.guildId !== undefined && id !== options.guildId) problems.push({ path, message: `is ${id}, not guildId ${options.guildId}` });
  }
  return problems;
}
