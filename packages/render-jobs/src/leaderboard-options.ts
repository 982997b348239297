import { z } from 'zod';
import { CARD_LIMITS, flag, mediaUrl, scaleField, text, wholeNumber, xp } from './card-options.ts';
import { discordUserSchema } from './discord-objects.ts';
import { hexColorField } from './hex-color.ts';
import { discordIdSchema, snowflakeSchema } from './snowflake.ts';

/**
 * Limits of `POST /v1/leaderboard-image`. `maxRows` is canvacord's top 10; one more avatar may come
 * with the highlighted member, so a board fetches at most `maxRows + 1` avatars (`maxAvatars`).
 */
export const LEADERBOARD_LIMITS = {
  maxRows: 10,
  maxAvatars: 11,
  maxTitleLength: 48,
  maxNameLength: CARD_LIMITS.maxUsernameLength,
  maxScoreLabelLength: 12,
  maxRank: 1e12,
  maxLevel: 1e9,
  /** Discord's own limit on a server name. */
  maxGuildNameLength: 100,
  /** Discord's largest servers hold a few million members; a billion leaves room and keeps "1B" short. */
  maxMemberCount: 1e9,
} as const;

/** The ranks a `podium` header draws, in the order they stand on it (second, first, third). */
export const PODIUM_RANKS = [2, 1, 3] as const;

export const DEFAULT_LEADERBOARD_TITLE = 'Leaderboard';
export const DEFAULT_SCORE_LABEL = 'XP';

const guildSchema = z
  .strictObject(
    {
      id: discordIdSchema('server')
        .meta({
          description:
            'Discord server id. With a bot token configured the server is looked up (`GET /guilds/{id}?with_counts=true`, cached a few minutes like users) and its name, icon and approximate member count fill the fields not given here; the fields given here win. Without a token, or when the server cannot be read (unknown, the bot not in it, Discord failing), the header is drawn from the fields given, with a warning; with no `name` either the header is left out (the `title` alone). Never an error.',
          examples: ['613425648685547541'],
        })
        .optional(),
      name: text(LEADERBOARD_LIMITS.maxGuildNameLength, 'Server name, not blank: the header\'s big line (the board\'s `title` goes under it). Cut with "…" when it does not fit. Required unless `id` is given (then the server\'s own name is drawn when not given).')
        .refine((value) => value.trim().length > 0, { error: 'must not be blank' })
        .meta({ pattern: '\\S' })
        .optional(),
      iconUrl: mediaUrl(
        'Server icon URL (PNG, JPEG, GIF or WebP; first frame), fetched and bounded like the rows\' avatars, drawn round left of the name. One that cannot be used is drawn as the server\'s initials, as Discord shows a server without an icon, with a warning; never an error. Default: with `id`, the server\'s own icon from Discord\'s CDN.',
      ).optional(),
      memberCount: wholeNumber(0, LEADERBOARD_LIMITS.maxMemberCount, 'Member count, drawn under the name as `1.2K members` (rounded down). Default: with `id`, the server\'s approximate member count; else not drawn.').optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object with a name or an id' : undefined) },
  )
  .refine((guild) => guild.name !== undefined || guild.id !== undefined, { error: 'give a name or an id (or both)', path: ['name'] })
  // The same rule for the document, inside `allOf`: a bare `anyOf` beside the properties made the
  // generated SDK type `unknown`, this leaves it the object's (an intersection with `unknown`).
  .meta({
    allOf: [{ anyOf: [{ required: ['name'] }, { required: ['id'] }] }],
    description: 'A server header above the rows: the icon (or the initials), the server name, then the `title` and the member count. Give `name`, `id` or both. Default: no server header, the `title` alone.',
  });

/** The server header as the request gave it: `name` or `id` (or both), the rest optional. */
export type LeaderboardGuild = z.output<typeof guildSchema>;

const rowSchema = z
  .strictObject(
    {
      rank: wholeNumber(1, LEADERBOARD_LIMITS.maxRank, 'Position on the board, drawn as `#<rank>`.'),
      name: text(LEADERBOARD_LIMITS.maxNameLength, 'Member name, not blank. Cut with "…" when it does not fit the row.')
        .refine((value) => value.trim().length > 0, { error: 'must not be blank' })
        // The same rule for the document: at least one character that is not white space.
        .meta({ pattern: '\\S' }),
      avatarUrl: mediaUrl(
        'Avatar image URL (PNG, JPEG, GIF or WebP; first frame), fetched and bounded like a profile card\'s images. One that cannot be used (unreachable, refused address, not an image, over a budget) is drawn as the default avatar, never an error.',
      ).optional(),
      userId: snowflakeSchema
        .meta({ description: 'Discord user id whose avatar is drawn (with a bot token configured; without one, or for an unknown user, the default avatar). Give `avatarUrl` or `userId`, not both.', examples: ['302050872383242240'] })
        .optional(),
      discordUser: discordUserSchema
        .meta({
          description:
            "Extension: the member's Discord user object (the API's, or discord.js `user.toJSON()`), read as `POST /v1/profile-image`'s `discordUser` is, of which the row draws the avatar (from Discord's CDN, no bot token needed; one that cannot be fetched is the default avatar). `name` stays the row's name. Not with `avatarUrl`; with `userId`, its `id` must be the same.",
        })
        .optional(),
      level: wholeNumber(0, LEADERBOARD_LIMITS.maxLevel, 'Level, drawn as `LVL <level>`. Default: not drawn.').optional(),
      score: xp('XP or score, drawn abbreviated (`12.3K`) and rounded down, followed by `scoreLabel`. Default: not drawn.').optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object with rank and name' : undefined) },
  )
  .refine((row) => row.avatarUrl === undefined || row.userId === undefined, { error: 'give avatarUrl or userId, not both', path: ['avatarUrl'] })
  .refine((row) => row.avatarUrl === undefined || row.discordUser === undefined, { error: 'give avatarUrl or discordUser, not both', path: ['discordUser'] })
  .refine((row) => row.userId === undefined || row.discordUser === undefined || row.discordUser.id === row.userId, { error: 'must have the row\'s userId as its id', path: ['discordUser', 'id'] })
  // The same rules for the document (the ids' equality it cannot state: its description says it).
  .meta({
    allOf: [
      { not: { properties: { avatarUrl: {}, userId: {} }, required: ['avatarUrl', 'userId'] } },
      { not: { properties: { avatarUrl: {}, discordUser: {} }, required: ['avatarUrl', 'discordUser'] } },
    ],
  });

export type LeaderboardRow = z.output<typeof rowSchema>;

/**
 * Everything `POST /v1/leaderboard-image` draws. Unknown fields are refused (a typo is a 400 naming
 * it). Ranks need not be consecutive (a filtered board), but each appears once.
 */
export const leaderboardOptionsSchema = z
  .strictObject(
    {
      title: text(LEADERBOARD_LIMITS.maxTitleLength, `Title above the rows. Default \`${DEFAULT_LEADERBOARD_TITLE}\`.`).optional(),
      rows: z
        .array(rowSchema, { error: 'must be an array of rows' })
        .min(1, { error: 'must have at least 1 row' })
        .max(LEADERBOARD_LIMITS.maxRows, { error: `must have at most ${LEADERBOARD_LIMITS.maxRows} rows` })
        .meta({ description: `1 to ${LEADERBOARD_LIMITS.maxRows} rows, drawn in the order given (sort them by rank).` }),
      highlight: rowSchema
        .meta({
          description:
            "The member who asked (canvacord's \"show the requesting user's own row\"): when a row of `rows` has the same `rank` that row is drawn highlighted; otherwise this row is drawn highlighted under the others, after a gap with an ellipsis. Default: no highlight.",
        })
        .optional(),
      scoreLabel: text(LEADERBOARD_LIMITS.maxScoreLabelLength, `Label after each row's \`score\`, such as \`XP\`, \`pts\` or \`msgs\`. Default \`${DEFAULT_SCORE_LABEL}\`.`).optional(),
      autoColorRank: flag('When true, ranks 1, 2 and 3 are drawn gold, silver and bronze. Default false.').optional(),
      accentColor: hexColorField('Color of the title rule and the highlighted row. Default #5865F2 (blurple).').optional(),
      podium: flag(
        'When true, the rows ranked 1, 2 and 3 stand on a podium above the other rows (first in the middle and raised, larger avatars in gold, silver and bronze rings); the other rows follow as a list. Needs rows ranked 1, 2 and 3. Default false.',
      ).optional(),
      guild: guildSchema.optional(),
      scale: scaleField('Pixel density: `1` (default) draws the board 900 px wide, `2` 1800 px wide and twice as tall (HiDPI), from the same design. A ten-row board with its extra row at `2` is 1800x2288 (4.1 MP), its PNG ~0.8-0.9 MB (2.6x the bytes of one at `1`).').optional(),
      background: mediaUrl(
        'Background image URL (PNG, JPEG, GIF or WebP; first frame), fetched and bounded like a profile card\'s `customBackground`, cover-cropped and softened. Every row and the header stay legible on it: the pixels behind each text are measured and its box darkened until the text reaches its contrast (4.5:1, names 3:1). An image that cannot be used refuses the board (422), as `customBackground` does. Default: art generated from `accentColor`.',
      ).optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
  )
  .superRefine((board, context) => {
    const seen = new Set<number>();
    for (const [index, row] of board.rows.entries()) {
      if (seen.has(row.rank)) context.addIssue({ code: 'custom', path: ['rows', index, 'rank'], message: `rank ${row.rank} appears twice` });
      seen.add(row.rank);
    }
    if (board.podium === true) {
      const missing = PODIUM_RANKS.filter((rank) => !seen.has(rank)).sort();
      if (missing.length > 0) context.addIssue({ code: 'custom', path: ['podium'], message: `a podium needs rows ranked 1, 2 and 3 (missing ${missing.join(', ')})` });
    }
  });

export type LeaderboardOptions = z.output<typeof leaderboardOptionsSchema>;

/** Where the highlighted member goes: a row of the board drawn highlighted, or an extra row under it. */
export function highlightPlacement(board: Pick<LeaderboardOptions, 'rows' | 'highlight'>): { index: number } | { extra: LeaderboardRow } | undefined {
  if (board.highlight === undefined) return undefined;
  const index = board.rows.findIndex((row) => row.rank === board.highlight!.rank);
  return index >= 0 ? { index } : { extra: board.highlight };
}
