import type { RedisClient } from '@utility-api/infra/redis';
import type { KeyInsertOutcome } from '../auth/key-records.ts';

/**
 * Key names. Keys that change together in one transaction or script share a hash tag (the part
 * in braces), so they sit in one Redis Cluster slot: the key records with their version, the
 * accounts with their Discord index, and each account's usage. The key records keep the names
 * they always had. A session and its account's set cannot share a slot (a session is found by
 * its id alone), so the set decides: a session not in it is over.
 */
export const KEY_RECORDS = 'utility-api:api-keys';
export const KEY_VERSION = `{${KEY_RECORDS}}:version`;
export const ACCOUNTS = '{utility-api:accounts}:records';
export const ACCOUNTS_BY_DISCORD = '{utility-api:accounts}:by-discord';
export const session = (idHash: string) => `utility-api:session:${idHash}`;
export const accountSessions = (accountId: string) => `utility-api:account-sessions:${accountId}`;
export const once = (kind: string, hash: string) => `utility-api:once:${kind}:${hash}`;
export const auditList = (accountId: string) => `utility-api:audit:${accountId}`;
export const usageDay = (accountId: string, day: string) => `{utility-api:usage:${accountId}}:day:${day}`;
export const usageMonth = (accountId: string, month: string) => `{utility-api:usage:${accountId}}:month:${month}`;
/** Units of the account's monthly quotas taken (fields `cards`, `requests`): beside its usage, in its slot. */
export const quotaTaken = (accountId: string, month: string) => `{utility-api:usage:${accountId}}:quota:${month}`;
export const KEYS_LAST_USED = 'utility-api:keys-last-used';
/** An account's templates: one hash per account, so a lookup can only ever find that account's own. */
export const accountTemplates = (accountId: string) => `utility-api:templates:${accountId}`;
export const cardLinkRender = (jobId: string) => `utility-api:card-link:${jobId}`;

/**
 * Adds a key record unless its id is taken or (ARGV[4] >= 0) its account (ARGV[3]) already has
 * ARGV[4] keys not revoked: counted and written in one script, so gateways racing cannot go past
 * it. The count reads every record (a record without accountId is ARGV[5]'s, the local owner's):
 * keys are made by a click or the CLI, and every gateway already holds every record in memory,
 * so the records are few enough to read here.
 */
const INSERT_KEY_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'taken' end
local max = tonumber(ARGV[4])
if max >= 0 then
  local active = 0
  for _, json in ipairs(redis.call('HVALS', KEYS[1])) do
    local record = cjson.decode(json)
    local owner = record.accountId
    if owner == nil or owner == cjson.null then owner = ARGV[5] end
    if owner == ARGV[3] and (record.revokedAt == nil or record.revokedAt == cjson.null) then active = active + 1 end
  end
  if active >= max then return 'full' end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[2])
return 'inserted'`;

/** Adds a template unless the account has ARGV[3] already or the id is taken: 1 when added. */
const CREATE_TEMPLATE_SCRIPT = `
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])`;

/**
 * Takes up to ARGV[2] units of quota field ARGV[1] (limit ARGV[3]; what was taken is the counter or
 * the floor ARGV[4], whichever is larger) in one step: how many were granted.
 */
const TAKE_QUOTA_SCRIPT = `
local taken = math.max(tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0'), tonumber(ARGV[4]))
local granted = math.max(0, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - taken))
redis.call('HSET', KEYS[1], ARGV[1], taken + granted)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return granted`;
/** Gives back ARGV[2] units of field ARGV[1], never below zero. */
const GIVE_BACK_QUOTA_SCRIPT = `
local taken = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if taken <= 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], math.max(0, taken - tonumber(ARGV[2])))
return 1`;

/** Day counts outlive the 30 days the account area shows; month totals the month after. */
export const USAGE_DAY_TTL_SECONDS = 40 * 86_400;
export const USAGE_MONTH_TTL_SECONDS = 70 * 86_400;

/**
 * Compare-and-set of one field of a hash of records: written only if it still holds what the
 * caller read, and then (given a second key) the version bumped in the same step. WATCH cannot do
 * this: every command of the store shares one connection, and any EXEC on it (another change, a
 * snapshot) ends every WATCH; on a Cluster, WATCH and EXEC need not even reach the same node.
 */
const CHANGE_RECORD_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return nil end
if current ~= ARGV[2] then return {'conflict'} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if KEYS[2] then redis.call('INCR', KEYS[2]) end
return {'ok'}`;

/**
 * A session joins its account's set, scored by its absolute end: ended sessions leave the set
 * (it would otherwise grow with every sign-in), so do the oldest beyond ARGV[4] (the set decides
 * whether a session is valid: their records expire on their own), and the set lives as long as
 * its last session.
 */
const ADD_SESSION_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local beyond = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if beyond > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, beyond - 1) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1`;

/** Every session of the account, taken and gone in one step; returns the live ones' ids. */
const TAKE_SESSIONS_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
redis.call('DEL', KEYS[1])
return ids`;

/** When each key was last used: a flush never moves a time back (gateways flush in any order). */
const KEYS_LAST_USED_SCRIPT = `
for index = 1, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[index])
  if not current or current < ARGV[index + 1] then redis.call('HSET', KEYS[1], ARGV[index], ARGV[index + 1]) end
end
return 1`;

/** Stores an account unless its id or its Discord user has one; returns the account stored now. */
const CREATE_ACCOUNT_SCRIPT = `
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then return existing end
if ARGV[3] ~= '' then
  local holder = redis.call('HGET', KEYS[2], ARGV[3])
  if holder then return redis.call('HGET', KEYS[1], holder) end
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ARGV[2]`;

export type StoreCommands = {
  changeKeyRecord(records: string, version: string, id: string, expected: string, next: string): Promise<[string] | null>;
  changeAccountRecord(records: string, id: string, expected: string, next: string): Promise<[string] | null>;
  changeTemplateRecord(records: string, id: string, expected: string, next: string): Promise<[string] | null>;
  createAccountRecord(accounts: string, byDiscord: string, id: string, json: string, discordUserId: string): Promise<string | null>;
  addSession(sessions: string, idHash: string, expiresAtMs: number, nowMs: number, maxPerAccount: number): Promise<number>;
  insertKeyRecord(records: string, version: string, id: string, json: string, accountId: string, maxActive: number, ownerAccountId: string): Promise<KeyInsertOutcome>;
  takeSessions(sessions: string, nowMs: number): Promise<string[]>;
  setKeysLastUsed(lastUsed: string, ...idsAndTimes: string[]): Promise<number>;
  createTemplateRecord(templates: string, id: string, json: string, max: number): Promise<number>;
  takeQuota(counter: string, kind: string, amount: number, limit: number, floor: number, ttlSeconds: number): Promise<number>;
  giveBackQuota(counter: string, kind: string, amount: number): Promise<number>;
};

/** The client with the store's Lua scripts defined on it as commands. */
export function withStoreCommands(client: RedisClient): RedisClient & StoreCommands {
  const redis = client as RedisClient & StoreCommands;
  redis.defineCommand('changeKeyRecord', { numberOfKeys: 2, lua: CHANGE_RECORD_SCRIPT });
  redis.defineCommand('changeAccountRecord', { numberOfKeys: 1, lua: CHANGE_RECORD_SCRIPT });
  redis.defineCommand('createAccountRecord', { numberOfKeys: 2, lua: CREATE_ACCOUNT_SCRIPT });
  redis.defineCommand('insertKeyRecord', { numberOfKeys: 2, lua: INSERT_KEY_SCRIPT });
  redis.defineCommand('addSession', { numberOfKeys: 1, lua: ADD_SESSION_SCRIPT });
  redis.defineCommand('takeSessions', { numberOfKeys: 1, lua: TAKE_SESSIONS_SCRIPT });
  redis.defineCommand('setKeysLastUsed', { numberOfKeys: 1, lua: KEYS_LAST_USED_SCRIPT });
  redis.defineCommand('createTemplateRecord', { numberOfKeys: 1, lua: CREATE_TEMPLATE_SCRIPT });
  redis.defineCommand('changeTemplateRecord', { numberOfKeys: 1, lua: CHANGE_RECORD_SCRIPT });
  redis.defineCommand('takeQuota', { numberOfKeys: 1, lua: TAKE_QUOTA_SCRIPT });
  redis.defineCommand('giveBackQuota', { numberOfKeys: 1, lua: GIVE_BACK_QUOTA_SCRIPT });
  return redis;
}
