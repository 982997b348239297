/**
 * The SDK's named types (aliases into `packages/sdk/src/generated/openapi.ts`, which
 * `scripts/sdk-types.ts` generates at build time) against the types openapi-typescript generates
 * here from the document the test's gateway serves (`generated/schema.ts`, written by
 * tests/process/sdk/typescript-sdk.test.ts, never committed). A `same` line fails the type-check when the
 * SDK's generated file is older than the served document (`node scripts/sdk-types.ts` brings it up
 * to date) or an alias names the wrong operation, and `everyOperation` when the document has an
 * operation the client has no method for.
 */
import type { components, operations } from './generated/schema.ts';
import type * as sdk from '@utility-api/client';

/** Intersections and aliases flattened, so that only the shapes are compared. */
type Deep<T> = T extends object ? { [K in keyof T]: Deep<T[K]> } : T;
/** True only when the two are the same type (optional and readonly modifiers included), not merely assignable. */
type Same<A, B> = (<T>() => T extends Deep<A> ? 1 : 2) extends <T>() => T extends Deep<B> ? 1 : 2 ? true : false;
function same<A, B>(_equal: Same<A, B>): void {}

type Answer<Op extends keyof operations> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer Body } } } ? Body : never;
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type Body<Op extends keyof operations> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Json } } ? Json : never;

same<sdk.ErrorBody, components['schemas']['Error']>(true);
same<sdk.CardOptions, Body<'createProfileImage'>>(true);
same<sdk.CardOptions, Body<'createProfileImageForUser'>>(true);
same<sdk.CardJson, Answer<'createProfileImage'>>(true);
same<sdk.CardJson, Answer<'createProfileImageForUser'>>(true);
same<{ userId: string }, Query<'createProfileImage'>>(true);
same<sdk.LeaderboardOptions, Body<'createLeaderboardImage'>>(true);
same<sdk.LeaderboardJson, Answer<'createLeaderboardImage'>>(true);
same<sdk.JsonValidatorBody, Body<'jsonValidator'>>(true);
same<sdk.JsonValidatorResult, Answer<'jsonValidator'>>(true);
same<sdk.RandomEmojiQuery, Query<'randomEmoji'>>(true);
same<sdk.RandomEmojiResult, Answer<'randomEmoji'>>(true);
same<sdk.TimeQuery, Query<'time'>>(true);
same<sdk.TimeResult, Answer<'time'>>(true);
same<sdk.HexToRgbQuery, Query<'hexToRgb'>>(true);
same<sdk.HexToRgbResult, Answer<'hexToRgb'>>(true);
same<sdk.StatusResult, Answer<'statusGet'>>(true);
same<sdk.StatusBody, Body<'statusPost'>>(true);
same<sdk.StatusResult, Answer<'statusPost'>>(true);
same<sdk.StatusBody, Body<'statusPut'>>(true);
same<sdk.StatusResult, Answer<'statusPut'>>(true);
same<sdk.StatusBody, Body<'statusPatch'>>(true);
same<sdk.StatusResult, Answer<'statusPatch'>>(true);
same<sdk.StatusBody, Body<'statusDelete'>>(true);
same<sdk.StatusResult, Answer<'statusDelete'>>(true);
same<sdk.StatusResult, Answer<'statusOptions'>>(true);
same<sdk.AgeCalculatorQuery, Query<'ageCalculator'>>(true);
same<sdk.AgeCalculatorResult, Answer<'ageCalculator'>>(true);
same<sdk.CoinFlipQuery, Query<'coinFlip'>>(true);
same<sdk.CoinFlipResult, Answer<'coinFlip'>>(true);
same<sdk.SortArrayQuery, Query<'sortArray'>>(true);
same<sdk.SortArrayBody, Body<'sortArray'>>(true);
same<sdk.SortArrayResult, Answer<'sortArray'>>(true);
same<sdk.ScrambleQuery, Query<'scramble'>>(true);
same<sdk.ScrambleResult, Answer<'scramble'>>(true);
same<sdk.NumberAnalyzerQuery, Query<'numberAnalyzer'>>(true);
same<sdk.NumberAnalyzerResult, Answer<'numberAnalyzer'>>(true);
same<sdk.AccountResult, Answer<'getAccount'>>(true);
same<sdk.TemplateBody, Body<'createTemplate'>>(true);
same<sdk.TemplateBody, Body<'updateTemplate'>>(true);
same<sdk.Template, Answer<'getTemplate'>>(true);
same<sdk.Template, Answer<'updateTemplate'>>(true);
same<sdk.TemplateList, Answer<'listTemplates'>>(true);
same<sdk.BatchBody, Body<'createProfileImageBatch'>>(true);
same<sdk.BatchResult, Answer<'createProfileImageBatch'>>(true);

/** Every operationId of the document is a method of the client. */
const everyOperation: Exclude<keyof operations, keyof sdk.UtilityApiClient> extends never ? true : false = true;
void everyOperation;
