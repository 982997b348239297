import type { Redis } from 'ioredis';
import { KeyStoreDataError, parseApiKeyRecord, type ApiKeyRecord } from './api-key-record.ts';
import type { ApiKeyRecords, KeyRecordsSnapshot } from './api-key-records.ts';

/** One hash of id → record JSON, and a counter bumped on every change for gateways to poll. */
export const REDIS_KEY_RECORDS = 'utility-api:api-keys';
export const REDIS_KEY_VERSION = 'utility-api:api-keys:version';

function parseStored(json: string, id: string): ApiKeyRecord {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new KeyStoreDataError(`Redis ${REDIS_KEY_RECORDS}[${id}]`, error);
  }
  return parseApiKeyRecord(value, `Redis ${REDIS_KEY_RECORDS}[${id}]`);
}

/** Managed keys in Redis, shared by every gateway on it. */
export function redisApiKeyRecords(redis: Redis, location: string): ApiKeyRecords {
  return {
    kind: 'redis',
    location,
    async version() {
      return (await redis.get(REDIS_KEY_VERSION)) ?? '0';
    },
    async snapshot(): Promise<KeyRecordsSnapshot> {
      // One transaction, so the version belongs to exactly these records.
      const replies = await redis.multi().get(REDIS_KEY_VERSION).hgetall(REDIS_KEY_RECORDS).exec();
      const [versionReply, recordsReply] = replies ?? [];
      if (!versionReply || !recordsReply || versionReply[0] || recordsReply[0]) {
        throw versionReply?.[0] ?? recordsReply?.[0] ?? new Error('Redis transaction was aborted');
      }
      const stored = (recordsReply[1] ?? {}) as Record<string, string>;
      return {
        version: (versionReply[1] as string | null) ?? '0',
        records: Object.entries(stored).map(([id, json]) => parseStored(json, id)),
      };
    },
    async insert(record) {
      const added = await redis.hsetnx(REDIS_KEY_RECORDS, record.id, JSON.stringify(record));
      if (added === 0) return false;
      await redis.incr(REDIS_KEY_VERSION);
      return true;
    },
    async revoke(id, at) {
      const json = await redis.hget(REDIS_KEY_RECORDS, id);
      if (json === null) return undefined;
      const record = parseStored(json, id);
      if (record.revokedAt !== null) return record;
      const revoked: ApiKeyRecord = { ...record, revokedAt: at.toISOString() };
      await redis.multi().hset(REDIS_KEY_RECORDS, id, JSON.stringify(revoked)).incr(REDIS_KEY_VERSION).exec();
      return revoked;
    },
  };
}

/** A Redis URL fit for messages: the password, if any, is masked. */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis';
  }
}
