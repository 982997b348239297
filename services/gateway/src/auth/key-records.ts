import { describeRedisTarget, redisEnvironmentShape, refineRedisEnvironment, toRedisTarget, type RedisTarget } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import { z } from 'zod';
import { OWNER_ACCOUNT_ID, type Account, type KeyScope } from '../accounts/account-model.ts';
import { AUDIT_KEPT, type AccountStore } from '../accounts/account-store.ts';
import { OWNER_PLAN } from '../accounts/plans.ts';
import { redisAccountStore } from '../accounts/redis-account-store.ts';
import { openSqliteAccountStore } from '../accounts/sqlite-account-store.ts';
import { ApiError } from '../errors/api-error.ts';
import type { KeyRateLimits } from '../rate-limits/rate-spec.ts';
import { generateKeyId, generateManagedKey, hashApiKey, managedKeyPrefix, type ApiKeyRecord } from './api-keys.ts';

/** The JSON keys file of earlier versions, imported once into the database, for the gateway and for `./run keys`. */
export const keysFileField = z.string().default('.data/api-keys.json');
/** The embedded store's SQLite database (accounts, keys, sessions, usage). */
export const databasePathField = z.string().min(1).default('.data/utility-api.sqlite');

/** What `./run keys` reads: the gateway's own variables that say where accounts and keys live. */
export const keysEnvironmentSchema = z
  .object({ ...redisEnvironmentShape, KEYS_FILE: keysFileField, DATABASE_PATH: databasePathField })
  .superRefine((env, context) => refineRedisEnvironment(env, context, { required: false }))
  .transform((env) => ({ redis: toRedisTarget(env), keysFile: env.KEYS_FILE, databasePath: env.DATABASE_PATH }));

export type KeyInsertOutcome = 'inserted' | 'taken' | 'full';

/** Every record at one moment, with a token that changes whenever any record does. */
export interface KeyRecordsSnapshot {
  version: string;
  records: readonly ApiKeyRecord[];
}

/**
 * Where managed keys are kept: Redis in distributed mode, SQLite in embedded mode (part of the
 * AccountStore). The verifier only reads (`version` is polled, `snapshot` reloaded when it
 * changed); the account area and `./run keys` write.
 */
export interface ApiKeyRecords {
  readonly kind: 'redis' | 'sqlite';
  /** For messages: where Redis is, without credentials, or the file path. */
  readonly location: string;
  /** Cheap: one GET in Redis, one indexed read in SQLite. */
  version(): Promise<string>;
  snapshot(): Promise<KeyRecordsSnapshot>;
  /**
   * Adds a record: `taken` when its id is, `full` when `maxActive` is given and the record's account
   * (no accountId: the local owner) already has that many keys not revoked. The count and the
   * insert are one step of the store (a SQLite transaction, a Redis script), so writers racing
   * from any number of gateways end at exactly `maxActive`.
   */
  insert(record: ApiKeyRecord, maxActive?: number): Promise<KeyInsertOutcome>;
  /** Marks a record revoked; returns it as it now is, or undefined when there is no such id. */
  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined>;
}

/**
 * Where `./run keys` and the gateway both find accounts and keys: Redis when there is one, else the
 * SQLite database (which imports the old keys file the first time it sees one).
 */
export function openAccountStore(options: { redis: { client: RedisClient; target: RedisTarget } | undefined; databasePath: string; keysFile: string }): AccountStore {
  return options.redis
    ? redisAccountStore(options.redis.client, describeRedisTarget(options.redis.target))
    : openSqliteAccountStore({ path: options.databasePath, keysFile: options.keysFile });
}

/**
 * The local owner's account, made if it is not there yet (by the first gateway, or by `./run keys`
 * run before any gateway) on the owner plan: bootstrap keys and CLI-made keys belong to it.
 * An owner account made before the owner plan existed sits on the default plan, which nobody chose:
 * it moves to the owner plan once (audited, actor `system`), unless its audit shows a plan change
 * (the operator's choice with `./run keys accounts plan`, or this move already made). Returns it as stored.
 */
export async function ensureOwnerAccount(store: Pick<AccountStore, 'createAccount' | 'auditLog' | 'setPlan' | 'audit'>, options: { now: Date }): Promise<Account> {
  const account = await store.createAccount({ id: OWNER_ACCOUNT_ID, name: 'Local owner', discordUserId: null, plan: OWNER_PLAN.name, createdAt: options.now.toISOString() });
  if (account.plan === OWNER_PLAN.name) return account;
  if ((await store.auditLog(OWNER_ACCOUNT_ID, AUDIT_KEPT)).some((event) => event.type === 'plan_changed')) return account;
  const moved = (await store.setPlan(OWNER_ACCOUNT_ID, OWNER_PLAN.name)) ?? account;
  await store.audit({ at: options.now.toISOString(), accountId: OWNER_ACCOUNT_ID, type: 'plan_changed', actor: 'system', detail: { from: account.plan, to: OWNER_PLAN.name } });
  return moved;
}

const ID_ATTEMPTS = 5;

/** `./run keys create`: a new key, of which only the hash is stored; the key itself is returned once. */
export async function createApiKey(
  records: ApiKeyRecords,
  options: { name: string; limits?: KeyRateLimits; now: Date; accountId?: string; scopes?: readonly KeyScope[]; maxActive?: number },
): Promise<{ key: string; record: ApiKeyRecord }> {
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt += 1) {
    const id = generateKeyId();
    const key = generateManagedKey(id);
    const record: ApiKeyRecord = {
      id,
      name: options.name,
      prefix: managedKeyPrefix(id),
      hash: hashApiKey(key).toString('hex'),
      createdAt: options.now.toISOString(),
      revokedAt: null,
      ...(options.limits && Object.keys(options.limits).length > 0 ? { limits: options.limits } : {}),
      ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
      ...(options.scopes === undefined || options.scopes.length === 0 ? {} : { scopes: [...options.scopes] }),
    };
    const outcome = await records.insert(record, options.maxActive);
    if (outcome === 'inserted') return { key, record };
    if (outcome === 'full') throw new ApiError('too_many_keys', `An account may have ${options.maxActive} keys that are not revoked; revoke one you no longer use first.`);
  }
  throw new Error(`no free key id after ${ID_ATTEMPTS} attempts`);
}

export async function listApiKeys(records: ApiKeyRecords): Promise<ApiKeyRecord[]> {
  const { records: all } = await records.snapshot();
  return [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}
