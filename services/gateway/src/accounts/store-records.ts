import { apiKeyRecordSchema, parseStoredKeys, type ApiKeyRecord } from '../auth/api-keys.ts';
import { accountSchema, auditEventSchema, cardLinkRenderSchema, cardTemplateSchema, sessionSchema, type Account, type AuditEvent, type CardLinkRender, type CardTemplate, type Session } from './account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';

/**
 * What both account stores (sqlite-account-store.ts, redis-account-store.ts) do alike with their
 * records: read them back through the model's schemas, and change keys by the same rules. Each
 * store keeps only how it holds a record and makes a change one atomic step.
 */

/** The account a key belongs to: a record without accountId is the local owner's (keys made before accounts). */
export function keyAccountId(record: Pick<ApiKeyRecord, 'accountId'>): string {
  return record.accountId ?? OWNER_ACCOUNT_ID;
}

/** The key revoked at `at`; one already revoked is returned as it is (the same object: nothing to write). */
export function revokedKey(record: ApiKeyRecord, at: Date): ApiKeyRecord {
  return record.revokedAt !== null ? record : { ...record, revokedAt: at.toISOString() };
}

/**
 * The key with a new secret (`hash`), the old one valid until `graceUntil`; undefined when the key
 * is revoked or (with `accountId`) another account's.
 */
export function rolledKey(record: ApiKeyRecord, { hash, at, graceUntil, accountId }: { hash: string; at: Date; graceUntil: Date; accountId?: string | undefined }): ApiKeyRecord | undefined {
  if (record.revokedAt !== null || (accountId !== undefined && keyAccountId(record) !== accountId)) return undefined;
  return { ...record, hash, previousHash: record.hash, previousExpiresAt: graceUntil.toISOString(), rolledAt: at.toISOString() };
}

/** An audit read of `limit` events asks for none (a limit of 0 must not mean "everything" to Redis's LRANGE). */
export function noAuditWanted(limit: number): boolean {
  return !(limit > 0);
}

/** The kinds of records the stores keep as JSON. */
export type StoredRecordKind = 'key' | 'account' | 'session' | 'template' | 'audit' | 'card-link';

/**
 * Parsers of the stored JSON, checked by the same zod schemas in both stores; a record that does
 * not parse is a KeyStoreDataError naming `where` it was (the database file, or the Redis key).
 */
export function storedRecordReaders(where: (kind: StoredRecordKind, id?: string) => string) {
  return {
    key: (json: string, id?: string): ApiKeyRecord => parseStoredKeys(apiKeyRecordSchema, json, where('key', id)),
    account: (json: string): Account => parseStoredKeys(accountSchema, json, where('account')),
    session: (json: string): Session => parseStoredKeys(sessionSchema, json, where('session')),
    template: (json: string): CardTemplate => parseStoredKeys(cardTemplateSchema, json, where('template')),
    audit: (json: string): AuditEvent => parseStoredKeys(auditEventSchema, json, where('audit')),
    cardLink: (json: string): CardLinkRender => parseStoredKeys(cardLinkRenderSchema, json, where('card-link')),
  };
}

export type StoredRecordReaders = ReturnType<typeof storedRecordReaders>;
