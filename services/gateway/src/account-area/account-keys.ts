import { z } from 'zod';
import { dayOf, type Session } from '../accounts/account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { KEY_SCOPES } from '../http/key-scopes.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { generateManagedKey, hashApiKey, KEY_NAME, type ApiKeyRecord } from '../auth/api-keys.ts';
import { createApiKey, listApiKeys } from '../auth/key-records.ts';
import { ApiError } from '../http/api-error.ts';

/** What the area's key form may send. */
export const newKeySchema = z.strictObject({
  name: z.string().trim().regex(KEY_NAME, { error: 'a name is 1-64 letters, digits, spaces or . _ : @ / -' }),
  scopes: z.array(z.enum(KEY_SCOPES)).max(KEY_SCOPES.length).optional(),
});

/** A key as the area lists it: public fields only, never the hash. */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: readonly string[];
  /** Unknown for a start-up key (it lives in the gateway's environment, not in the store). */
  createdAt: string | null;
  revokedAt: string | null;
  rolledAt: string | null;
  /** Until when the secret before the last roll still works, while it does. */
  previousValidUntil: string | null;
  lastUsedAt: string | null;
  requestsToday: number;
  /**
   * A start-up key of the owner (`API_KEYS`, or the `dev_` key `./run start` made for this run):
   * listed so the owner sees it and its use, but changed only where it comes from, not here.
   */
  startup?: 'API_KEYS' | 'this run';
}

/** A gateway's start-up key as the area lists it: its public id (`key_<hash prefix>`) and its name. */
export interface StartupKey {
  id: string;
  name: string;
  generated: boolean;
}

/** Keys an account may have that are not revoked, exact under any number of racing creators (the CLI is not held to it). */
export const MAX_ACTIVE_KEYS = 25;

/** Keys made before accounts carry no account: they are the local owner's. */
const ownerOf = (record: ApiKeyRecord) => record.accountId ?? OWNER_ACCOUNT_ID;

/** `session:<method>`: the account itself, in a browser signed in that way. */
export const sessionActor = (session: Session) => `session:${session.method}`;

/**
 * The account's own keys, and what it may do with them. Another account's key is "not found",
 * never "forbidden": the answer must not tell that an id exists.
 */
export class AccountKeys {
  readonly #store: AccountStore;
  readonly #graceMs: number;

  constructor(store: AccountStore, graceMs: number) {
    this.#store = store;
    this.#graceMs = graceMs;
  }

  async list(accountId: string, now: Date, startupKeys: readonly StartupKey[] = []): Promise<KeyView[]> {
    const records = (await listApiKeys(this.#store)).filter((record) => ownerOf(record) === accountId);
    const startup = accountId === OWNER_ACCOUNT_ID ? startupKeys : [];
    const prefixes = [...records.map((record) => record.prefix), ...startup.map((key) => key.id)];
    const [lastUsed, today] = await Promise.all([this.#store.keysLastUsed(prefixes), this.#store.usage(accountId, dayOf(now), dayOf(now))]);
    const requestsToday = new Map<string, number>();
    for (const count of today) if (count.metric === 'requests') requestsToday.set(count.keyId, (requestsToday.get(count.keyId) ?? 0) + count.count);
    const startupViews = startup.map((key): KeyView => ({
      id: key.id,
      name: key.generated ? 'Start-up key (made for this run)' : key.name,
      prefix: key.id,
      scopes: [...KEY_SCOPES],
      createdAt: null,
      revokedAt: null,
      rolledAt: null,
      previousValidUntil: null,
      lastUsedAt: lastUsed[key.id] ?? null,
      requestsToday: requestsToday.get(key.id) ?? 0,
      startup: key.generated ? 'this run' : 'API_KEYS',
    }));
    return [...startupViews, ...records.map((record) => ({
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      scopes: record.scopes ?? [...KEY_SCOPES],
      createdAt: record.createdAt,
      revokedAt: record.revokedAt,
      rolledAt: record.rolledAt ?? null,
      previousValidUntil: record.previousExpiresAt !== undefined && Date.parse(record.previousExpiresAt) > now.getTime() ? record.previousExpiresAt : null,
      lastUsedAt: lastUsed[record.prefix] ?? null,
      requestsToday: requestsToday.get(record.prefix) ?? 0,
    }))];
  }

  async create(session: Session, request: z.infer<typeof newKeySchema>, now: Date): Promise<{ key: string; record: ApiKeyRecord }> {
    // Both scopes are the same as none: a key that may call everything is stored without scopes.
    const scopes = request.scopes && new Set(request.scopes).size < KEY_SCOPES.length ? [...new Set(request.scopes)] : undefined;
    // Every gateway keeps every key record in memory: one account must not be able to grow that
    // without bound. The store counts and inserts in one step (never count here, then insert).
    const created = await createApiKey(this.#store, { name: request.name, accountId: session.accountId, now, maxActive: MAX_ACTIVE_KEYS, ...(scopes ? { scopes } : {}) });
    await this.#audit(session, 'key_created', created.record, now, { scopes: (scopes ?? KEY_SCOPES).join(',') });
    return created;
  }

  /** A new secret, shown once; the old one works until the grace period ends. */
  async roll(session: Session, id: string, now: Date): Promise<{ key: string; record: ApiKeyRecord }> {
    const record = await this.#own(session.accountId, id);
    if (record.revokedAt !== null) throw new ApiError('key_revoked', 'This key is revoked; a revoked key cannot be rolled. Create a new one.');
    const key = generateManagedKey(record.id);
    const graceUntil = new Date(now.getTime() + this.#graceMs);
    // `accountId` as stored (absent for the owner's older keys), so the store checks the same owner.
    const rolled = await this.#store.roll(record.id, { hash: hashApiKey(key).toString('hex'), at: now, graceUntil, ...(record.accountId ? { accountId: record.accountId } : {}) });
    if (!rolled) throw new ApiError('key_revoked', 'This key was revoked meanwhile; it cannot be rolled.');
    await this.#audit(session, 'key_rolled', rolled, now, { oldSecretValidUntil: graceUntil.toISOString() });
    return { key, record: rolled };
  }

  async revoke(session: Session, id: string, now: Date): Promise<ApiKeyRecord> {
    const record = await this.#own(session.accountId, id);
    if (record.revokedAt !== null) return record;
    const revoked = await this.#store.revoke(record.id, now);
    if (!revoked) throw notFound();
    await this.#audit(session, 'key_revoked', revoked, now, {});
    return revoked;
  }

  async #own(accountId: string, id: string): Promise<ApiKeyRecord> {
    const { records } = await this.#store.snapshot();
    const record = records.find((candidate) => candidate.id === id);
    if (!record || ownerOf(record) !== accountId) throw notFound();
    return record;
  }

  async #audit(session: Session, type: 'key_created' | 'key_rolled' | 'key_revoked', record: ApiKeyRecord, now: Date, extra: Record<string, string>): Promise<void> {
    await this.#store.audit({ at: now.toISOString(), accountId: session.accountId, type, actor: sessionActor(session), detail: { key: record.prefix, name: record.name, ...extra } });
  }
}

function notFound(): ApiError {
  return new ApiError('key_not_found', 'No such key in your account.');
}
