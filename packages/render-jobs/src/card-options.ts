import { z } from 'zod';
import { anyCasePattern } from './any-case-pattern.ts';
import { DATE_LOCALE_LANGUAGES } from './date-locale-languages.ts';
import { discordMemberSchema, discordRoleColorsSchema, discordUserSchema } from './discord-objects.ts';
import { hexColorField } from './hex-color.ts';
import { MAX_SOURCE_FRAMES } from './image-rules.ts';
import { discordIdSchema } from './snowflake.ts';

/**
 * The caps of an animated card, as packages/card's ANIMATION_CAPS keeps them (written here for the
 * field's description: the job contract does not depend on the drawing package).
 */
const ANIMATED_CARD_CAPS_TEXT =
  'An animated card loops after at most 10 s, has at most 60 frames (15 at the 2x scale), frames of at least 20 ms (10 ms or less in the source plays as 100 ms, as browsers do) and at most 4 MiB: over it, it is drawn again with half the frames (still over it at two frames, the answer is the still card). Every card, still or animated, is under Discord\'s 10 MiB upload limit by construction (a still card at the 2x scale cannot pass 4.4 MB, a tall welcome card 8.4 MB).';

/**
 * The panel the card's text stands on. `frosted` (default): a tinted panel the legibility step
 * darkens (lightens) as a whole until every text reads. `glass`: a faint tint that lets the
 * background show through; the legibility step instead puts a scrim behind each text that needs it.
 */
export const CARD_PANELS = ['frosted', 'glass'] as const;
export type CardPanel = (typeof CARD_PANELS)[number];
export const DEFAULT_CARD_PANEL: CardPanel = 'frosted';

export const PRESENCE_STATUSES = ['offline', 'online', 'idle', 'dnd'] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

/**
 * `scale`: 1 draws the card at its design size, 2 twice as wide and tall (HiDPI screens, a phone's
 * full-screen view) from the same layout. No more: a 3x leaderboard of ten rows would be 10 MP.
 */
export const CARD_SCALES = [1, 2] as const;
export type CardScale = (typeof CARD_SCALES)[number];

/** The field both card endpoints take; its description is the endpoint's own. */
export const scaleField = (description: string) =>
  z.literal(CARD_SCALES, { error: `must be ${CARD_SCALES.join(' or ')}` }).meta({ description });

/**
 * Discord's longest display name, server nickname or username (32 characters). The card's own
 * limits on texts that carry a name stay far above it: a name 4x as long, or a headline or message
 * that holds one with words around it, is drawn (shrunk, then cut with "…"), never refused.
 */
export const DISCORD_MAX_NAME_LENGTH = 32;

export const CARD_LIMITS = {
  maxCustomBadges: 8,
  maxUrlLength: 2048,
  maxUsernameLength: 4 * DISCORD_MAX_NAME_LENGTH,
  maxTagLength: 64,
  maxSubtitleLength: 96,
  maxDateLength: 48,
  maxXp: 1e15,
  maxHeadlineLength: 5 * DISCORD_MAX_NAME_LENGTH,
  maxMessageLength: 5 * DISCORD_MAX_NAME_LENGTH,
  maxLabelLength: 20,
} as const;

/**
 * `profile`: the profile/rank card. `welcome`: a welcome (or goodbye) card with a big headline.
 * `levelup`: old level -> new level. `welcome-tall`: the welcome card as a 16:9 image (960x540), a
 * large centred avatar over the name.
 */
export const CARD_LAYOUTS = ['profile', 'welcome', 'levelup', 'welcome-tall'] as const;
export type CardLayout = (typeof CARD_LAYOUTS)[number];
export const DEFAULT_CARD_LAYOUT: CardLayout = 'profile';
/** The welcome layout's headline when `headline` is not given. */
export const DEFAULT_WELCOME_HEADLINE = 'Welcome';
/** The level-up layout's headline when `headline` is not given. */
export const DEFAULT_LEVELUP_HEADLINE = 'Level up!';

/**
 * The typefaces `fontFamily` picks from: each ships with the card package (an npm package of TTF
 * files, SIL Open Font License except Roboto Slab, Apache 2.0) and covers Latin, Greek and Cyrillic;
 * other scripts and emoji come from the card's Noto fonts whichever family is chosen. `name` is the
 * family's own name, `kind` what it is for the document.
 */
export const CARD_FONT_FAMILIES = {
  inter: { name: 'Inter', kind: 'neo-grotesque sans, the default' },
  manrope: { name: 'Manrope', kind: 'geometric sans' },
  'fira-sans': { name: 'Fira Sans', kind: 'humanist sans' },
  comfortaa: { name: 'Comfortaa', kind: 'rounded geometric' },
  literata: { name: 'Literata', kind: 'book serif' },
  'eb-garamond': { name: 'EB Garamond', kind: 'classic Garamond serif' },
  'roboto-slab': { name: 'Roboto Slab', kind: 'slab serif' },
  'roboto-condensed': { name: 'Roboto Condensed', kind: 'condensed sans, fits long names' },
  'jetbrains-mono': { name: 'JetBrains Mono', kind: 'monospace' },
  'press-start-2p': { name: 'Press Start 2P', kind: 'pixel display face, one weight' },
} as const;
export type CardFontFamily = keyof typeof CARD_FONT_FAMILIES;
export const CARD_FONT_FAMILY_IDS = Object.keys(CARD_FONT_FAMILIES) as [CardFontFamily, ...CardFontFamily[]];
export const DEFAULT_CARD_FONT_FAMILY: CardFontFamily = 'inter';

/**
 * The card's fixed words, which `labels` translates or replaces. `level`, `rank` and `bot` are drawn
 * in capitals (in cased scripts), `xp` as given; `welcome` is the welcome layout's headline when
 * `headline` is not given; `joined` names the account's creation date ("Joined Discord Apr 30,
 * 2016": a bare date meant nothing to members). Alt text says `level`, `rank` and `xp` as given and the default ones in
 * lower case, as a sentence has them.
 */
export const DEFAULT_CARD_LABELS = { level: 'Level', rank: 'Rank', xp: 'XP', bot: 'Bot', welcome: DEFAULT_WELCOME_HEADLINE, joined: 'Joined Discord' } as const;
export type CardLabel = keyof typeof DEFAULT_CARD_LABELS;

/**
 * The accent of a card with no colour to take: no profile theme or accent colour, no avatar and no
 * background photo with a colour of its own (a silhouette on generated art). Discord's blurple,
 * the colour such a member's default avatar most often has; before, a hash of the user id picked a
 * hue, which gave clashing limes and greens.
 */
export const DEFAULT_CARD_ACCENT = '#5865F2';

/** Default `backgroundBrightness`: dim enough for white text on any photo, bright enough to see it. */
export const DEFAULT_BACKGROUND_BRIGHTNESS = 60;
export const DEFAULT_DATE_LOCALE = 'en';

/** BCP 47 shape only (`en`, `es`, `pt-BR`, `zh-Hant-TW`): a language, an optional script, an optional region. */
const LOCALE_SHAPE = /^([a-z]{2,3})(-[A-Za-z]{4})?(-([A-Za-z]{2}|\d{3}))?$/i;

/**
 * Whether dates can be written in this locale: a well-formed tag whose language this runtime's
 * ICU data has (Node ships full ICU). `xx` or `en-` are refused; `en-ZZ` falls back to `en` and is
 * accepted, as Intl itself does.
 */
export function isSupportedDateLocale(code: string): boolean {
  const language = LOCALE_SHAPE.exec(code)?.[1];
  return language !== undefined && DATE_LOCALE_LANGUAGES.has(language.toLowerCase());
}

/** The same rule as a JSON Schema pattern, for the document: the listed languages in any case, then the shape. */
const DATE_LOCALE_PATTERN = anyCasePattern([...DATE_LOCALE_LANGUAGES]).replace(/\$$/, '(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$');

const HTTP_URL_START = /^https?:\/\/./i;

export const mediaUrl = (description: string) =>
  z
    .string({ error: 'must be an http or https URL' })
    .max(CARD_LIMITS.maxUrlLength, { error: `must be at most ${CARD_LIMITS.maxUrlLength} characters` })
    // `http://` or `https://` written out, then whatever the URL parser takes: the document can state the first part.
    .refine((text) => HTTP_URL_START.test(text) && URL.parse(text) !== null, { error: 'must be an http or https URL' })
    .meta({ description, examples: ['https://example.com/image.png'], pattern: anyCasePattern(['http://', 'https://']).replace(/\)\$$/, ').+$') });

/**
 * How the card treats every text field (packages/card/src/text/clean-text.ts does it), written once
 * into each field's description.
 */
const TEXT_CLEANING =
  'Drawn on one line: a lone surrogate becomes U+FFFD, line breaks and tabs become a space, control and bidi override characters are dropped, and at most 3 combining marks stack on a letter. Text with nothing visible (spaces, zero-width or blank characters only) counts as not given. `altText` also leaves out what is drawn as nothing (bidi marks, default-ignorable and blank characters) outside emoji sequences.';

export const text = (max: number, description: string) =>
  z.string({ error: 'must be text' }).max(max, { error: `must be at most ${max} characters` }).meta({ description: `${description} ${TEXT_CLEANING}` });

export const flag = (description: string) => z.boolean({ error: 'must be true or false' }).meta({ description });

export const xp = (description: string) =>
  z
    .number({ error: 'must be a number' })
    .min(0, { error: 'must be 0 or more' })
    .max(CARD_LIMITS.maxXp, { error: `must be at most ${CARD_LIMITS.maxXp}` })
    .meta({ description });

export const wholeNumber = (min: number, max: number, description: string) =>
  z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be ${min} or more` })
    .max(max, { error: `must be at most ${max}` })
    .meta({ description });

const rankDataSchema = z
  .strictObject(
    {
      currentXp: xp('XP earned towards the next level.'),
      requiredXp: xp('XP needed to reach the next level; the bar fills at currentXp / requiredXp.').refine((value) => value > 0, { error: 'must be more than 0' }),
      level: wholeNumber(0, 1e9, 'Current level.'),
      rank: wholeNumber(1, 1e12, 'Leaderboard position, shown as `#<rank>`.'),
      barColor: hexColorField('Color of the XP bar.'),
      levelColor: hexColorField('Color of the level number.'),
      autoColorRank: flag('When true, ranks 1, 2 and 3 are drawn gold, silver and bronze.'),
      // An extension of the original service's rankData (every field above is its shape, unchanged).
      previousLevel: wholeNumber(0, 1e9, 'Extension, `levelup` layout only: the level before this level-up, drawn as `previousLevel → level`. Optional: default `level − 1` (0 for level 0). Must be below `level`.').optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object with currentXp, requiredXp, level, rank, barColor, levelColor and autoColorRank' : undefined) },
  )
  .refine((rank) => rank.previousLevel === undefined || rank.previousLevel < rank.level, { error: 'must be below level', path: ['previousLevel'] })
  .meta({
    description:
      'Level and XP block, drawn in the profile layout; the `levelup` layout draws its `previousLevel → level` (and needs it); the welcome layout validates it but does not show it. When present, every field but the `previousLevel` extension is required.',
  });

/** The level a level-up card starts from: `previousLevel`, else the level before `level`. */
export function previousLevelOf(rank: Pick<z.output<typeof rankDataSchema>, 'level' | 'previousLevel'>): number {
  return rank.previousLevel ?? Math.max(0, rank.level - 1);
}

/** One word of `labels`: bounded and cleaned like the other texts, said once in `labels`' description. */
const labelWord = (max: number, description: string) =>
  z.string({ error: 'must be text' }).max(max, { error: `must be at most ${max} characters` }).meta({ description }).optional();

const labelsSchema = z
  .strictObject(
    {
      level: labelWord(CARD_LIMITS.maxLabelLength, `Replaces \`LEVEL\` in the rank row. Default \`${DEFAULT_CARD_LABELS.level}\`, drawn in capitals.`),
      rank: labelWord(CARD_LIMITS.maxLabelLength, `Replaces \`RANK\` in the rank row. Default \`${DEFAULT_CARD_LABELS.rank}\`, drawn in capitals.`),
      xp: labelWord(CARD_LIMITS.maxLabelLength, `Replaces \`XP\` after the XP numbers, drawn as given. Default \`${DEFAULT_CARD_LABELS.xp}\`.`),
      bot: labelWord(CARD_LIMITS.maxLabelLength, `Replaces \`BOT\` in the chip beside a bot's name. Default \`${DEFAULT_CARD_LABELS.bot}\`, drawn in capitals.`),
      welcome: labelWord(
        CARD_LIMITS.maxHeadlineLength,
        `The welcome layout's headline when \`headline\` is not given (\`headline\` wins); \`{name}\` in it is filled as in \`headline\`. Default \`${DEFAULT_CARD_LABELS.welcome}\`, drawn in capitals.`,
      ),
      joined: labelWord(
        CARD_LIMITS.maxLabelLength,
        `Written before the account's creation date at the bottom right, as given (not with a \`customDate\`, which is drawn alone). Default \`${DEFAULT_CARD_LABELS.joined}\`.`,
      ),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? `must be an object of words: ${Object.keys(DEFAULT_CARD_LABELS).join(', ')}` : undefined) },
  )
  .meta({
    description: `Translates or replaces the words the card draws itself, such as \`{"level": "Niveau", "rank": "Rang"}\`. Each is optional; one not given, or with nothing visible, keeps its default. Capitals are applied to Latin, Greek, Cyrillic and Armenian words only (other scripts are drawn as given). \`altText\` uses \`level\`, \`rank\` and \`xp\` where it names them. At most ${CARD_LIMITS.maxLabelLength} characters each (${CARD_LIMITS.maxHeadlineLength} for \`welcome\`). ${TEXT_CLEANING}`,
    examples: [{ level: 'Niveau', rank: 'Rang', xp: 'EP' }],
  });

/**
 * Every body option of `POST /v1/profile-image`. Unknown fields are refused so a typo such as
 * `usernamecolor` is a 400 naming it instead of a silently ignored option. Every field is optional;
 * defaults are applied when drawing and written in each description.
 */
export const cardOptionsSchema = z.strictObject(
  {
    customUsername: text(CARD_LIMITS.maxUsernameLength, 'Replaces the displayed name. Default: the display name, else the username.')
      .refine((value) => value.trim().length > 0, { error: 'must not be blank' })
      .optional(),
    customTag: text(CARD_LIMITS.maxTagLength, 'Text below the name. Default: `@username`; no tag line when the username is unknown (no Discord token). An empty string removes the tag line; text with nothing visible counts as not given.').optional(),
    customSubtitle: text(CARD_LIMITS.maxSubtitleLength, 'Text below the tag. Default: none.').optional(),
    customBadges: z
      .array(mediaUrl('URL of a PNG, JPEG, GIF or WebP badge image.'), { error: 'must be an array of image URLs' })
      .max(CARD_LIMITS.maxCustomBadges, { error: `must have at most ${CARD_LIMITS.maxCustomBadges} badges` })
      .meta({ description: `Up to ${CARD_LIMITS.maxCustomBadges} badge images shown top right. They replace the profile's badges unless \`overwriteBadges\` is true.` })
      .optional(),
    customAvatar: mediaUrl(
      "Avatar image URL (PNG, JPEG, GIF, WebP or APNG), drawn in place of the profile avatar and the server avatar, cropped to the avatar's square from its centre. Fetched and bounded like `customBackground` (same byte and pixel budgets); an animated one moves with `animated: true`. Unlike the profile avatar, one that cannot be used is a 422 naming `customAvatar`, not a fallback. Default: the server avatar (with `guildId`), else the profile avatar, else a silhouette.",
    ).optional(),
    guildId: discordIdSchema('server')
      .meta({
        description:
          "Discord server (guild) id. With a bot token configured (`DISCORD_BOT_TOKEN`) and the bot in that server, the card uses the member's server nickname (as the displayed name) and server avatar, as `member.displayName` and `member.displayAvatarURL()` give a bot; a member without either, a server the bot cannot see, or a user who is not a member falls back to the user's own name and avatar (never an error). Without a bot token it changes nothing, except naming the server of `discordMember`'s per-server avatar and banner (a member's own `guild_id`/`guildId` must equal it). `customUsername` and `customAvatar` still win. An id whose timestamp lies in the future is a 400.",
        examples: ['613425648685547541'],
      })
      .optional(),
    customBackground: mediaUrl(
      'Background image URL. Default: the profile banner, else a background generated from the profile colors. A Discord attachment URL (`cdn.discordapp.com` or `media.discordapp.net` `/attachments/...`, as a slash command\'s attachment gives) is taken here: the card fetches it at once and keeps the drawn image. It is a 400 in a template or a signed card link (any of `customBackground`, `customAvatar`, `customBadges`), which are drawn again later from the URL, and Discord makes attachment links expire after about a day.',
    ).optional(),
    badgesFrame: flag('Draws a translucent frame behind the badges. Default false.').optional(),
    overwriteBadges: flag('When true, `customBadges` are shown after the profile badges instead of replacing them. Default false.').optional(),
    removeBadges: flag('Hides every badge, profile or custom. Default false.').optional(),
    removeBorder: flag('Removes the border around the card. Default false.').optional(),
    usernameColor: hexColorField('Name color. A dark one puts dark text on a light panel. Default #FFFFFF, or #14161C when a light background gives the card the light theme.').optional(),
    tagColor: hexColorField('Tag color. Default a light grey (#C9CDD6).').optional(),
    borderColor: hexColorField(
      `Border color. Default: the card's accent lightened by 15%: the profile theme color, else the accent color, else the dominant vivid color of the avatar (of the background photo when the avatar has none), else ${DEFAULT_CARD_ACCENT}. The avatar ring and generated background use the same accent.`,
    ).optional(),
    squareAvatar: flag('Draws the avatar as a rounded square instead of a circle. Default false.').optional(),
    backgroundBrightness: z
      .number({ error: 'must be a number from 1 to 100' })
      .min(1, { error: 'must be a number from 1 to 100' })
      .max(100, { error: 'must be a number from 1 to 100' })
      .meta({
        description: `Background brightness from 1 (almost black) to 100 (unchanged). A black veil of opacity 0.85 × (100 − value) / 99 is laid over the background. Default ${DEFAULT_BACKGROUND_BRIGHTNESS}, or 100 (no veil) when a light background or a dark \`usernameColor\` gives the card the light theme.`,
      })
      .optional(),
    removeAvatarFrame: flag('Removes the ring around the avatar and the avatar decoration. Default false.').optional(),
    customDate: text(CARD_LIMITS.maxDateLength, 'Text shown bottom right instead of the account creation date (the welcome layout shows no creation date, only this).').optional(),
    rankData: rankDataSchema.optional(),
    presenceStatus: z
      .enum(PRESENCE_STATUSES, { error: `must be one of ${PRESENCE_STATUSES.join(', ')}` })
      .meta({ description: 'Status dot at the bottom right of the avatar. Default: no dot.' })
      .optional(),
    moreBackgroundBlur: flag('Blurs the background strongly (it is always slightly softened). Default false.').optional(),
    localDateType: z
      .string({ error: 'must be a locale code such as en, es or pt-BR' })
      .refine(isSupportedDateLocale, { error: 'must be a locale code such as en, es or pt-BR' })
      .meta({
        description: `Locale of the creation date (not shown in the welcome layout), such as \`en\`, \`es\`, \`pt-BR\`: a language the server's ICU writes dates in, then an optional script and region. Default \`${DEFAULT_DATE_LOCALE}\`.`,
        examples: ['es'],
        pattern: DATE_LOCALE_PATTERN,
      })
      .optional(),
    layout: z
      .enum(CARD_LAYOUTS, { error: `must be one of ${CARD_LAYOUTS.join(', ')}` })
      .meta({
        description:
          'Which card to draw. `profile` (default): the profile/rank card. `welcome`: a welcome or goodbye card: a large avatar on the left and, centred beside it, the `headline`, the name in large type, the tag, `message` and `customSubtitle`; badges stay top right, a `customDate` bottom right (the creation date is not shown). The welcome layout does not show `rankData` (it is accepted and validated, but not drawn). `levelup` (extension): a level-up card: the avatar, a `headline` (default `Level up!`), the old and the new level large (`rankData.previousLevel → rankData.level`; `rankData` is required), the name and `message`. `welcome-tall`: the welcome card as a 16:9 image, 960x540 (1920x1080 at `scale: 2`), for a welcome channel: a large centred avatar, then, centred under it, the `headline` (the server, such as `Welcome to Pixel Garden`), the name as the largest line (two lines, broken between words, when long), the tag, `message` (the member number, such as `Member #1,234`) and `customSubtitle`; badges top right; no date, nameplate or server tag pill, and no `rankData`.',
        examples: ['welcome'],
      })
      .optional(),
    headline: text(
      CARD_LIMITS.maxHeadlineLength,
      `Large title of the welcome layout, such as \`Welcome\` or \`Goodbye\`. \`{name}\` in it is replaced by the name the card draws (\`customUsername\`, else the display name), so \`Welcome, {name}!\` names the member; \`{{\` and \`}}\` draw one brace each (\`{{name}}\` draws \`{name}\`); any other brace is drawn as written. A headline (or name) too long for its line shrinks down to the layout's smallest headline size, then is cut with "…", never refused below ${CARD_LIMITS.maxHeadlineLength} characters. Default \`${DEFAULT_WELCOME_HEADLINE}\` (\`${DEFAULT_LEVELUP_HEADLINE}\` in the \`levelup\` layout). Latin, Greek and Cyrillic text is drawn in capitals. Only drawn when \`layout\` is \`welcome\`, \`welcome-tall\` or \`levelup\`; in \`welcome-tall\` it names the server above the name (\`Welcome to Pixel Garden\`). the profile layout accepts and ignores it. An empty or blank headline hides the line.`,
    ).optional(),
    message: text(
      CARD_LIMITS.maxMessageLength,
      'Line under the name in the welcome, welcome-tall and levelup layouts, such as `You are member #1,234` or `Keep chatting!` (`Member #1,234` under the name in `welcome-tall`). Default: none. Only drawn when `layout` is `welcome`, `welcome-tall` or `levelup`; the profile layout accepts and ignores it (use `customSubtitle` there).',
    ).optional(),
    animated: flag(
      `When true and the avatar (a Discord \`a_\` avatar, or \`customAvatar\`), the avatar decoration or \`customBackground\` (GIF, animated WebP or APNG) moves, the card moves: animated WebP, or GIF with \`format: "gif"\`; \`format\` \`png\` or \`avif\` with it is a 400. When nothing moves the answer is the still card (\`animated: false\` in the answer): PNG when \`format\` is not given, else in \`format\`. ${ANIMATED_CARD_CAPS_TEXT} Of a source, at most the first ${MAX_SOURCE_FRAMES} frames are read (a still card reads only the first). An animated card takes longer: about 1.2-1.4 s as WebP and 5 s as GIF on one core, against ~0.1 s for a still card. Default false.`,
    ).optional(),
    fontFamily: z
      .enum(CARD_FONT_FAMILY_IDS, { error: `must be one of ${CARD_FONT_FAMILY_IDS.join(', ')}` })
      .meta({
        description: `Typeface of every text on the card: ${CARD_FONT_FAMILY_IDS.map((id) => `\`${id}\` (${CARD_FONT_FAMILIES[id].name}, ${CARD_FONT_FAMILIES[id].kind})`).join(', ')}. Each covers Latin, Greek and Cyrillic; other scripts and emoji are drawn with the card's Noto fonts whatever the family. Default \`${DEFAULT_CARD_FONT_FAMILY}\`.`,
        examples: ['literata'],
      })
      .optional(),
    labels: labelsSchema.optional(),
    panel: z
      .enum(CARD_PANELS, { error: `must be one of ${CARD_PANELS.join(', ')}` })
      .meta({
        description: `Extension. The panel behind the text. \`frosted\` (default): a dark (light) tinted panel, darkened further as a whole where the background needs it, so the photo shows as a soft glow around and through it. \`glass\`: a faint tint, so the background photo (banner or \`customBackground\`) shows through the whole panel; every text still reaches its contrast (4.5:1, 3:1 for the name), the card putting a dark (light) scrim behind each text the photo would make hard to read instead of darkening the whole panel. Default \`${DEFAULT_CARD_PANEL}\`.`,
        examples: ['glass'],
      })
      .optional(),
    disableProfileTheme: flag("Ignores the profile's theme colors (border, avatar ring, generated background). Default false.").optional(),
    discordUser: discordUserSchema.optional(),
    discordMember: discordMemberSchema.optional(),
    discordRoleColors: discordRoleColorsSchema.optional(),
    experimentalDisplayNameStyles: flag(
      "Experimental: draws the user's `display_name_styles` (Discord's name font, effect and colours, which Discord does not document) with the closest bundled typeface and effect. May change or go without notice. Default false: the name is drawn in `fontFamily` and the role or name colour.",
    ).optional(),
    scale: scaleField(
      'Pixel density: `1` (default) draws 900x300 (`welcome-tall`: 960x540), `2` draws 1800x600 (1920x1080) (HiDPI), every layout from the same design, so text and images are sharp on a phone or a 2x screen. An animated card at `2` keeps the same caps (at most 60 x 900 x 300 output pixels, so 15 frames, and 4 MiB). A still PNG at `2` is about 2.4x the bytes of one at `1` (~200-400 KB against 90-180 KB).',
    ).optional(),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
);

export type CardOptions = z.output<typeof cardOptionsSchema>;
export type RankData = z.output<typeof rankDataSchema>;
