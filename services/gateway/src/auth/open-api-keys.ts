import { randomBytes } from 'node:crypto';
import type { Lifecycle, Logger } from '@utility-api/infra';
import type { Redis } from 'ioredis';
import type { ApiKeyRecords } from './api-key-records.ts';
import type { ApiKeyStore } from './api-key-store.ts';
import { CombinedApiKeyStore } from './combined-api-key-store.ts';
import { fileApiKeyRecords } from './file-api-key-records.ts';
import { ManagedApiKeyStore } from './managed-api-key-store.ts';
import { redactedRedisUrl, redisApiKeyRecords } from './redis-api-key-records.ts';
import { StaticApiKeyStore } from './static-api-key-store.ts';

export interface OpenedApiKeys {
  store: ApiKeyStore;
  /** Bootstrap keys (from `API_KEYS`, or the one generated for this run). */
  bootstrapKeys: number;
  /** Managed keys not revoked, at boot. */
  managedKeys: number;
  backend: ApiKeyRecords['kind'];
}

/** Where `pnpm keys` and the gateway both find managed keys: Redis when there is one, else the file. */
export function apiKeyRecordsFor(options: { redis: Redis | undefined; redisUrl: string | undefined; keysFile: string }): ApiKeyRecords {
  return options.redis
    ? redisApiKeyRecords(options.redis, redactedRedisUrl(options.redisUrl ?? ''))
    : fileApiKeyRecords(options.keysFile);
}

/**
 * The gateway's keys: `API_KEYS` (bootstrap keys: not revocable by the CLI, removed by changing the
 * variable and restarting) plus the managed keys of the CLI. With neither, a key valid for this
 * process only is generated and logged, so a fresh checkout still has a working API.
 */
export async function openApiKeys(options: {
  bootstrapKeys: readonly string[];
  records: ApiKeyRecords;
  logger: Logger;
  lifecycle: Lifecycle;
}): Promise<OpenedApiKeys> {
  const managed = options.lifecycle.add('api keys', await ManagedApiKeyStore.open(options.records, options.logger), (store) => store.close());
  let bootstrapKeys = options.bootstrapKeys;
  if (bootstrapKeys.length === 0 && managed.activeCount === 0) {
    const generated = `dev_${randomBytes(24).toString('base64url')}`;
    bootstrapKeys = [generated];
    options.logger.warn(`API_KEYS is not set: generated a key for this run only: ${generated}`);
  }
  const bootstrap = new StaticApiKeyStore(bootstrapKeys);
  return {
    store: new CombinedApiKeyStore([bootstrap, managed]),
    bootstrapKeys: bootstrap.size,
    managedKeys: managed.activeCount,
    backend: options.records.kind,
  };
}
