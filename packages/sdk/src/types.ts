/**
 * The request and answer shapes of the /v1 operations, written out by hand so the package has no
 * build step and no generated file. tests/sdk/types/types-match-document.ts compares each of them
 * with the types openapi-typescript generates from the served /v1/openapi.json, so a change to the
 * document that these do not follow fails the SDK's tests.
 */

/** Every error code the API answers (its error catalogue; `/docs` has the table with statuses and Retry-After). */
export type ErrorCode =
  | 'invalid_request' | 'malformed_body' | 'body_too_deep' | 'incomplete_body' | 'malformed_request'
  | 'bad_request' | 'sign_in_link_invalid' | 'unauthorized' | 'not_signed_in' | 'forbidden'
  | 'key_scope_forbidden' | 'card_link_invalid' | 'card_link_revoked' | 'cross_origin_refused'
  | 'csrf_token_invalid' | 'not_found' | 'key_not_found' | 'unknown_user' | 'no_matching_emoji'
  | 'template_not_found' | 'method_not_allowed' | 'not_acceptable' | 'request_timeout'
  | 'card_link_expired' | 'too_many_keys' | 'key_revoked' | 'template_limit_reached' | 'payload_too_large'
  | 'unsupported_media_type' | 'template_kind_mismatch' | 'image_unusable' | 'rate_limited' | 'too_many_cards_in_flight'
  | 'quota_exceeded' | 'headers_too_large' | 'client_closed_request' | 'internal_error'
  | 'discord_unavailable' | 'queue_unavailable' | 'storage_unavailable' | 'store_unavailable'
  | 'render_failed' | 'overloaded' | 'render_timeout';

/** The shared JSON body of an error answer (`components.schemas.Error`). */
export interface ErrorBody {
  error: {
    status: number;
    code: ErrorCode;
    message: string;
    details?: {
      in: 'query' | 'body' | 'path' | 'header';
      field: string;
      message: string;
    }[];
  };
  requestId: string;
}

/** A colour: `#rgb`/`#rrggbb`, or Discord's integer colour (0-16777215, discord.js `member.displayColor`). */
export type Colour = string | number;

/** The card's numbers and colours under the avatar; all or nothing. */
export interface RankData {
  currentXp: number;
  requiredXp: number;
  level: number;
  rank: number;
  barColor: Colour;
  levelColor: Colour;
  autoColorRank: boolean;
  /** Extension, `levelup` layout only: the level before this level-up (default `level - 1`); below `level`. */
  previousLevel?: number;
}

export type CardFormat = 'png' | 'webp' | 'avif' | 'gif';

/** The body of `POST /v1/profile-image`: every field optional. */
export interface CardOptions {
  customUsername?: string;
  customTag?: string;
  customSubtitle?: string;
  customBadges?: string[];
  /** An image URL drawn in place of the avatar (animated ones move with `animated: true`). */
  customAvatar?: string;
  /** The server: with the gateway's bot token, the member's server nickname and avatar are drawn. */
  guildId?: string;
  customBackground?: string;
  badgesFrame?: boolean;
  overwriteBadges?: boolean;
  removeBadges?: boolean;
  removeBorder?: boolean;
  usernameColor?: Colour;
  tagColor?: Colour;
  borderColor?: Colour;
  squareAvatar?: boolean;
  backgroundBrightness?: number;
  removeAvatarFrame?: boolean;
  customDate?: string;
  rankData?: RankData;
  presenceStatus?: 'offline' | 'online' | 'idle' | 'dnd';
  moreBackgroundBlur?: boolean;
  localDateType?: string;
  /** `welcome-tall`: the welcome card as a 16:9 image (960x540), a large centred avatar over the name. */
  layout?: 'profile' | 'welcome' | 'levelup' | 'welcome-tall';
  headline?: string;
  message?: string;
  animated?: boolean;
  disableProfileTheme?: boolean;
  /** The card's typeface, from a fixed list; each covers Latin, Greek and Cyrillic. */
  fontFamily?: 'inter' | 'manrope' | 'fira-sans' | 'comfortaa' | 'literata' | 'eb-garamond' | 'roboto-slab' | 'roboto-condensed' | 'jetbrains-mono' | 'press-start-2p';
  /** The card's fixed words, translated or replaced. */
  labels?: CardLabels;
  /** The Discord user the card is about, as the bot holds it (API snake_case or discord.js `User#toJSON()`); the discord.js helper sends it. */
  discordUser?: DiscordUserObject;
  /** The guild member (API shape or discord.js `GuildMember#toJSON()`): nickname, per-server avatar and banner. */
  discordMember?: DiscordMemberObject;
  /** The colours of the member's top coloured role (API role `colors` or discord.js `Role#colors`). */
  discordRoleColors?: DiscordRoleColors;
  /** Draws `display_name_styles` with the closest bundled fonts and effects (experimental). */
  experimentalDisplayNameStyles?: boolean;
  /** The panel behind the text: `glass` lets the background photo show through (every text keeps its contrast). Default `frosted`. */
  panel?: 'frosted' | 'glass';
  /** Pixel density: 2 draws 1800x600 (1920x1080 for `welcome-tall`, HiDPI) from the same design. */
  scale?: 1 | 2;
  format?: CardFormat;
  /** A saved design of the key's account (`tpl_...`): its fields underneath, these over them. */
  template?: string;
}

/** A Discord object as the API reads it: the fields listed, in either spelling; any other field is ignored. */
type LooseObject<T> = T & { [key: string]: unknown };
type DiscordDecorationData = LooseObject<{ asset: string }>;
type DiscordCollectibles = LooseObject<{ nameplate?: LooseObject<{ asset?: string; palette?: string }> | null }>;
type DiscordPrimaryGuild = LooseObject<{
  identity_guild_id?: string | null;
  identityGuildId?: string | null;
  identity_enabled?: boolean | null;
  identityEnabled?: boolean | null;
  tag?: string | null;
  badge?: string | null;
}>;
type DiscordDisplayNameStyles = LooseObject<{ font_id?: number; fontId?: number; effect_id?: number; effectId?: number; colors?: number[] }>;

/** `discordUser`: the API's user object or discord.js `User#toJSON()`. */
export type DiscordUserObject = LooseObject<{
  id: string;
  username?: string;
  global_name?: string | null;
  globalName?: string | null;
  bot?: boolean;
  avatar?: string | null;
  banner?: string | null;
  accent_color?: number | null;
  accentColor?: number | null;
  public_flags?: number | string | null;
  flags?: number | string | null;
  avatar_decoration_data?: DiscordDecorationData | null;
  avatarDecorationData?: DiscordDecorationData | null;
  collectibles?: DiscordCollectibles | null;
  primary_guild?: DiscordPrimaryGuild | null;
  primaryGuild?: DiscordPrimaryGuild | null;
  display_name_styles?: DiscordDisplayNameStyles | null;
  displayNameStyles?: DiscordDisplayNameStyles | null;
}>;

/** `discordMember`: the API's guild member object or discord.js `GuildMember#toJSON()`. */
export type DiscordMemberObject = LooseObject<{
  guild_id?: string;
  guildId?: string;
  userId?: string;
  user_id?: string;
  nick?: string | null;
  nickname?: string | null;
  avatar?: string | null;
  banner?: string | null;
  avatar_decoration_data?: DiscordDecorationData | null;
  avatarDecorationData?: DiscordDecorationData | null;
  collectibles?: DiscordCollectibles | null;
  user?: DiscordUserObject;
}>;

/** `discordRoleColors`: the API role's `colors` or discord.js `Role#colors`. */
export type DiscordRoleColors = LooseObject<{
  primary_color?: number;
  primaryColor?: number;
  secondary_color?: number | null;
  secondaryColor?: number | null;
  tertiary_color?: number | null;
  tertiaryColor?: number | null;
}>;

/** Words the card draws itself: LEVEL, RANK, XP, the bot chip's BOT, and the default welcome headline. */
export interface CardLabels {
  level?: string;
  rank?: string;
  xp?: string;
  bot?: string;
  welcome?: string;
  joined?: string;
}

/** The JSON answer of a card: where it is stored and how to describe it. */
export interface CardJson {
  success: true;
  message: 'Image Created';
  /** The options as the server read them; colours as it normalised them (`#rrggbb`), the Discord objects as the fields it read (snake_case). */
  options: Omit<CardOptions, 'discordUser' | 'discordMember' | 'discordRoleColors'> & { discordUser?: unknown; discordMember?: unknown; discordRoleColors?: unknown };
  url: string;
  altText: string;
  animated?: boolean;
  frames?: number;
}

/** One row of a leaderboard: `avatarUrl` or `userId` (not both) for its avatar. */
export interface LeaderboardRow {
  rank: number;
  name: string;
  avatarUrl?: string;
  userId?: string;
  /** The member's Discord user (API shape or discord.js `User#toJSON()`), for the avatar when `avatarUrl` is not given. */
  discordUser?: DiscordUserObject;
  level?: number;
  score?: number;
}

/** A leaderboard's server header. */
export interface LeaderboardGuild {
  name: string;
  iconUrl?: string;
  memberCount?: number;
}

/** The body of `POST /v1/leaderboard-image`. */
export interface LeaderboardOptions {
  title?: string;
  rows: LeaderboardRow[];
  /** The member who asked: highlighted in place, or drawn under the board after an ellipsis. */
  highlight?: LeaderboardRow;
  scoreLabel?: string;
  autoColorRank?: boolean;
  accentColor?: Colour;
  /** Ranks 1, 2 and 3 on a podium above the other rows (the rows must hold all three). */
  podium?: boolean;
  /** A server header above the rows: the icon (or the initials), the name, then the title and member count. */
  guild?: LeaderboardGuild;
  /** A background photo URL; every text's box is darkened by measure until it reaches its contrast. */
  background?: string;
  /** Pixel density: 2 draws the board 1800 px wide (HiDPI). */
  scale?: 1 | 2;
  format?: CardFormat;
  /** A leaderboard design of the key's account (`tpl_...`, saved with `kind: 'leaderboard'`): its fields underneath, these over them. */
  template?: string;
}

/** A row as the server echoes it: the Discord user as the fields it read (snake_case). */
type LeaderboardRowEcho = Omit<LeaderboardRow, 'discordUser'> & { discordUser?: unknown };

export interface LeaderboardJson {
  success: true;
  message: 'Image Created';
  /** The options as the server read them. */
  options: Omit<LeaderboardOptions, 'rows' | 'highlight'> & { rows: LeaderboardRowEcho[]; highlight?: LeaderboardRowEcho };
  url: string;
  altText: string;
}

export interface JsonValidatorBody {
  json: { [key: string]: unknown } | unknown[] | string;
}

export interface JsonValidatorResult {
  status: 'valid' | 'invalid';
  message: string;
  jsonType: 'object' | 'array' | 'N/A';
}

export interface RandomEmojiQuery {
  category?: string;
  isSymbol?: boolean;
  count?: number;
}

export type EmojiCategory = 'Smileys & Emotion' | 'People & Body' | 'Animals & Nature' | 'Food & Drink' | 'Travel & Places' | 'Activities' | 'Objects' | 'Symbols' | 'Flags';

/** Keyed `emoji1`, `emoji2`, ... */
export interface RandomEmojiResult {
  [key: string]: {
    emoji: string;
    emojiName: string;
    unicode: string;
    category: EmojiCategory;
    emojiMood: string;
    emojiColor: string;
    isSymbol: boolean;
    emojiType: string;
  };
}

export interface TimeQuery {
  unix?: number;
  timezone?: string;
}

export interface TimeResult {
  timezone: 'EST' | 'CET' | 'PST';
  yearsAgo: number;
  monthsAgo: number;
  weeksAgo: number;
  daysAgo: number;
  hoursAgo: number;
  minutesAgo: number;
  secondsAgo: number;
  formattedTimeAgo: string | null;
  formattedTimeFuture: string | null;
  isoTimestamp: string;
  formattedDate: string;
  humanReadableDate: string;
  utcTimestamp: string;
  timezoneOffset: number;
  weekday: string;
  unixMilliseconds: number;
  unixTimestamp: number;
  dayOfYear: number;
  season: 'Winter' | 'Spring' | 'Summer' | 'Autumn';
  isLeapYear: boolean;
  ageInYears: number;
  startOfDay: string;
  endOfDay: string;
  quarter: 'Q1' | 'Q2' | 'Q3' | 'Q4';
  isDST: boolean;
  weekNumber: number;
  isWeekend: boolean;
  monthName: string;
  weekdayOrdinal: string;
  secondsUntilMidnight: number;
  fullWeekRange: string;
  fullMonthRange: string;
  fullYearRange: string;
  currentYearStartDate: string;
  currentYearEndDate: string;
  chatFormats: {
    chatFormat1: string;
    chatFormat2: string;
    chatFormat3: string;
    chatFormat4: string;
    chatFormat5: string;
    chatFormat6: string;
    chatFormat7: string;
  };
  hours: string;
  min: string;
  sec: string;
  humanReadableTime24H: string;
  isFirstMondayOfMonth: boolean;
  isLastDayOfMonth: boolean;
  currentYear: number;
  formattedTimeExtra: string;
}

export interface HexToRgbQuery {
  hex: string;
}

interface RgbChannel {
  value: number;
  description: string;
  percentage: string;
  validity: boolean;
}

export interface HexToRgbResult {
  originalHex: string;
  rgb: { r: RgbChannel; g: RgbChannel; b: RgbChannel };
  mainRgb: string;
  conversionSuccess: boolean;
  timestamp: string;
}

/** What any `/v1/status` method may send as its body. */
export interface StatusBody {
  [key: string]: unknown;
}

export interface StatusResult {
  status: 'online' | 'degraded';
  latencyStable: boolean;
  latency: string;
  current_time: string;
  version: 'v1';
  environment: string;
  database: {
    status: 'online' | 'offline';
    latency: 'good' | 'slow' | 'unavailable';
  };
  request_details: {
    method: string;
    status_code: number;
    url: string;
    path: string;
    root_url: string;
    query: { [key: string]: string | string[] };
    body: { [key: string]: unknown };
    headers: { [key: string]: string | string[] };
  };
}

export interface AgeCalculatorQuery {
  dob: string;
}

export interface AgeCalculatorResult {
  dob: string;
  age: string;
  years: number;
  months: number;
  days: number;
  weeks: number;
  hours: number;
  minutes: number;
  seconds: number;
  humanReadableAge: string;
  timeOfBirth: string;
  isLeapYear: boolean;
  timeZone: 'UTC';
  nextBirthdayInDays: number;
  ageGroup: 'Infant' | 'Toddler' | 'Child' | 'Teenager' | 'Young Adult' | 'Adult' | 'Middle-aged Adult' | 'Senior';
  willBe18At: string;
  ageInDays: number;
  birthdayPassedThisYear: boolean;
}

export interface CoinFlipQuery {
  heads?: number;
  tails?: number;
}

export interface CoinFlipResult {
  result: 'Heads' | 'Tails';
  description: string;
  flipCount: 1;
  timestamp: string;
  probability: { heads: string; tails: string };
  flipMethod: 'Simulated Randomly' | 'Custom Probability';
  isValid: boolean;
}

export interface SortArrayQuery {
  sort?: string;
}

export interface SortArrayBody {
  array: number[];
}

export interface SortArrayResult {
  result: number[];
  description: string;
  originalArray: number[];
  timestamp: string;
  isValid: boolean;
  sortMethod: 'High to Low' | 'Low to High';
}

export interface ScrambleQuery {
  word: string;
}

export interface ScrambleResult {
  scrambled: string;
  original: string;
  wordLength: number;
  uniqueCharacterCount: number;
  difficultyLevel: 'Easy' | 'Medium' | 'Hard' | 'Expert';
  timestamp: string;
  isValid: boolean;
  scrambleComplexity: number;
  hint: string;
  wordType: 'Noun' | 'Verb' | 'Adjective' | 'Adverb' | 'Other';
}

export interface NumberAnalyzerQuery {
  integer: number;
}

export interface NumberAnalyzerResult {
  formatted1: string;
  formatted2: string;
  abbreviated: string;
  integer: number;
  isEven: boolean;
  isOdd: boolean;
  isPrime: boolean;
  isFibonacci: boolean;
  isPerfectSquare: boolean;
  isArmstrong: boolean;
  isPalindrome: boolean;
  isDivisibleBy3: boolean;
  numberType: 'integer';
  isGreaterThanZero: boolean;
  isNegative: boolean;
  absoluteValue: number;
}

/** What a period's quota stands at. */
export interface QuotaUse {
  /** The plan's monthly quota; null when the plan has none (the local owner's `owner` plan). */
  limit: number | null;
  used: number;
  /** `limit` minus `used`, never below 0; null when there is no limit. */
  remaining: number | null;
  /** When the quota starts again (the next UTC month). */
  resetsAt: string;
}

/** One key's counts over a day or a month. */
export interface KeyCounts {
  requests: number;
  cards: number;
  rateLimited: number;
  errors: number;
}

/** `GET /v1/account`: the key's account, its plan and quotas, and the key's own usage. */
export interface AccountResult {
  account: { id: string; name: string };
  /** `owner` is the local owner's plan; a null quota has no limit. */
  plan: { name: string; cards: number | null; requests: number | null };
  /** False where the operator turned limits off: then nothing is refused for the quota. */
  quotasEnforced: boolean;
  cards: QuotaUse;
  requests: QuotaUse;
  key: {
    id: string;
    name: string;
    scopes: ('cards' | 'utility')[];
    today: KeyCounts & { day: string };
    month: KeyCounts & { month: string };
    lastUsedAt: string;
  };
}

/** A card design without the member's own fields (`customUsername`, `customAvatar`, `rankData`, `presenceStatus`, the Discord objects). */
export type TemplateFields = Omit<CardOptions, 'customUsername' | 'customAvatar' | 'rankData' | 'presenceStatus' | 'template' | 'discordUser' | 'discordMember' | 'discordRoleColors'>;

/** A leaderboard design without the board's own data (`rows`, `highlight`). */
export type LeaderboardTemplateFields = Omit<LeaderboardOptions, 'rows' | 'highlight' | 'template'>;

/** The card endpoint a template designs for: profile cards (links, batches) or leaderboards. */
export type TemplateKind = 'profile' | 'leaderboard';

/** A profile card design; `kind` may be left out (it is the default). */
export interface ProfileTemplateBody {
  name: string;
  kind?: 'profile';
  fields: TemplateFields;
}

/** A leaderboard design: `createLeaderboardImage` names it. */
export interface LeaderboardTemplateBody {
  name: string;
  kind: 'leaderboard';
  fields: LeaderboardTemplateFields;
}

export type TemplateBody = ProfileTemplateBody | LeaderboardTemplateBody;

interface StoredTemplate {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** A saved profile design of the key's account: name it as `template` in a card request, link or batch item. */
export interface ProfileTemplate extends StoredTemplate {
  kind: 'profile';
  fields: TemplateFields;
}

/** A saved leaderboard design of the key's account: name it as `template` in a leaderboard request. */
export interface LeaderboardTemplate extends StoredTemplate {
  kind: 'leaderboard';
  fields: LeaderboardTemplateFields;
}

/** A saved design of the key's account, of either kind. */
export type Template = ProfileTemplate | LeaderboardTemplate;

export interface TemplateList {
  templates: Template[];
  /** Templates the account's plan allows. */
  limit: number;
}

/** One card of a batch: the user and the card's fields (`template` included). */
export interface BatchCard extends CardOptions {
  userId: string;
}

/** The body of `POST /v1/profile-image/batch`: 1 to 50 cards. */
export interface BatchBody {
  cards: BatchCard[];
}

/** A batch card that failed: the error its own POST would have answered. */
export interface BatchCardError {
  error: ErrorBody['error'];
}

export interface BatchResult {
  /** In the order asked: each card's JSON answer, or its error. */
  results: (CardJson | BatchCardError)[];
}
