/**
 * The request and answer shapes of the /v1 operations, named. Each is picked out of the types
 * openapi-typescript generates from the gateway's own document (`generated/openapi.ts`, written by
 * `scripts/sdk-types.ts` at build time, never committed), so the SDK cannot drift from the server.
 */
import type { components, operations } from './generated/openapi.ts';

export type { components, operations, paths } from './generated/openapi.ts';

type OperationId = keyof operations;
/** An operation's JSON request body. */
type JsonBody<Op extends OperationId> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Json } } ? Json : never;
/** An operation's JSON answer on success. */
type JsonAnswer<Op extends OperationId> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer Json } } }
  ? Json
  : operations[Op]['responses'] extends { 201: { content: { 'application/json': infer Json } } } ? Json : never;
/** An operation's query parameters. */
type QueryOf<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;

/** The shared JSON body of an error answer (`components.schemas.Error`). */
export type ErrorBody = components['schemas']['Error'];
/** Every error code the API answers (its error catalogue; `/docs` has the table with statuses and Retry-After). */
export type ErrorCode = ErrorBody['error']['code'];

/** The body of `POST /v1/profile-image`: every field optional. */
export type CardOptions = JsonBody<'createProfileImage'>;
/** The JSON answer of a card: where it is stored and how to describe it. */
export type CardJson = JsonAnswer<'createProfileImage'>;
export type CardFormat = NonNullable<CardOptions['format']>;
/** The card's numbers and colours under the avatar; all or nothing. */
export type RankData = NonNullable<CardOptions['rankData']>;
/** Words the card draws itself: LEVEL, RANK, XP, the bot chip's BOT, and the default welcome headline. */
export type CardLabels = NonNullable<CardOptions['labels']>;
/** `discordUser`: the API's user object or discord.js `User#toJSON()`. */
export type DiscordUserObject = NonNullable<CardOptions['discordUser']>;
/** `discordMember`: the API's guild member object or discord.js `GuildMember#toJSON()`. */
export type DiscordMemberObject = NonNullable<CardOptions['discordMember']>;
/** `discordRoleColors`: the API role's `colors` or discord.js `Role#colors`. */
export type DiscordRoleColors = NonNullable<CardOptions['discordRoleColors']>;

/** The body of `POST /v1/leaderboard-image`. */
export type LeaderboardOptions = JsonBody<'createLeaderboardImage'>;
export type LeaderboardJson = JsonAnswer<'createLeaderboardImage'>;
/** One row of a leaderboard: `avatarUrl` or `userId` (not both) for its avatar. */
export type LeaderboardRow = LeaderboardOptions['rows'][number];

/** The body of `POST /v1/profile-image/batch`: 1 to 50 cards. */
export type BatchBody = JsonBody<'createProfileImageBatch'>;
/** One card of a batch: the user and the card's fields (`template` included). */
export type BatchCard = BatchBody['cards'][number];
export type BatchResult = JsonAnswer<'createProfileImageBatch'>;

export type TemplateBody = JsonBody<'createTemplate'>;
/** A saved design of the key's account, of either kind. */
export type Template = JsonAnswer<'getTemplate'>;
export type TemplateList = JsonAnswer<'listTemplates'>;

/** `GET /v1/account`: the key's account, its plan and quotas, and the key's own usage. */
export type AccountResult = JsonAnswer<'getAccount'>;

export type JsonValidatorBody = JsonBody<'jsonValidator'>;
export type JsonValidatorResult = JsonAnswer<'jsonValidator'>;
export type RandomEmojiQuery = QueryOf<'randomEmoji'>;
export type RandomEmojiResult = JsonAnswer<'randomEmoji'>;
export type TimeQuery = QueryOf<'time'>;
export type TimeResult = JsonAnswer<'time'>;
export type HexToRgbQuery = QueryOf<'hexToRgb'>;
export type HexToRgbResult = JsonAnswer<'hexToRgb'>;
/** What any `/v1/status` method may send as its body. */
export type StatusBody = JsonBody<'statusPost'>;
export type StatusResult = JsonAnswer<'statusGet'>;
export type AgeCalculatorQuery = QueryOf<'ageCalculator'>;
export type AgeCalculatorResult = JsonAnswer<'ageCalculator'>;
export type CoinFlipQuery = QueryOf<'coinFlip'>;
export type CoinFlipResult = JsonAnswer<'coinFlip'>;
export type SortArrayQuery = QueryOf<'sortArray'>;
export type SortArrayBody = JsonBody<'sortArray'>;
export type SortArrayResult = JsonAnswer<'sortArray'>;
export type ScrambleQuery = QueryOf<'scramble'>;
export type ScrambleResult = JsonAnswer<'scramble'>;
export type NumberAnalyzerQuery = QueryOf<'numberAnalyzer'>;
export type NumberAnalyzerResult = JsonAnswer<'numberAnalyzer'>;
