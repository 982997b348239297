import { describeRedisTarget, redisEnvironmentShape, refineRedisEnvironment, toRedisTarget, type RedisTarget } from '@utility-api/infra';
import type { RedisClient } from '@utility-api/infra/redis';
import { z } from 'zod';
import { type Account } from './account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { AUDIT_KEPT, type AccountStore } from './account-store.ts';
import { OWNER_PLAN } from './plans.ts';
import { redisAccountStore } from './redis-account-store.ts';
import { openSqliteAccountStore } from './sqlite-account-store.ts';

/** The JSON keys file of earlier versions, imported once into the database, for the gateway and for `./run keys`. */
export const keysFileField = z.string().default('.data/api-keys.json');
/** The embedded store's SQLite database (accounts, keys, sessions, usage). */
export const databasePathField = z.string().min(1).default('.data/utility-api.sqlite');

/** What `./run keys` reads: the gateway's own variables that say where accounts and keys live. */
export const keysEnvironmentSchema = z
  .object({ ...redisEnvironmentShape, KEYS_FILE: keysFileField, DATABASE_PATH: databasePathField })
  .superRefine((env, context) => refineRedisEnvironment(env, context, { required: false }))
  .transform((env) => ({ redis: toRedisTarget(env), keysFile: env.KEYS_FILE, databasePath: env.DATABASE_PATH }));

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
