import type { Client, LifecycleConfig } from 'minio';
import type { Logger } from '@utility-api/infra';
import { isAccessDenied, isNotImplemented, toStorageError } from './s3-errors.ts';

/**
 * What happened to the expiry rule at boot:
 * - `applied`: the bucket expires objects after `ttlDays`;
 * - `unsupported`: the server does not implement lifecycle rules (s3rver): objects never expire;
 * - `denied`: our credentials may not set lifecycle rules: an operator must add the rule by hand.
 */
export type LifecycleStatus = 'applied' | 'unsupported' | 'denied';

/** The rule's ID; rules with other IDs set by an operator are replaced too (the bucket belongs to us). */
export const EXPIRY_RULE_ID = 'utility-api-media-expiry';

type Run = <T>(attempt: () => Promise<T>) => Promise<T>;

/**
 * Creates the bucket unless it exists. Two processes booting together may both see it missing;
 * the loser's "already exists/owned" answer counts as success once a HEAD confirms we can use it.
 */
export async function ensureBucket(client: Client, bucket: string, region: string, run: Run): Promise<'created' | 'existing'> {
  try {
    if (await run(() => client.bucketExists(bucket))) return 'existing';
    try {
      await run(() => client.makeBucket(bucket, region));
      return 'created';
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      // "Exists" may also mean another account owns the name; then HEAD answers 403 and we fail below.
      if (await run(() => client.bucketExists(bucket))) return 'existing';
      throw error;
    }
  } catch (error) {
    throw toStorageError(error);
  }
}

/** Puts a lifecycle rule expiring every object `ttlDays` after its creation. */
export async function applyExpiryRule(client: Client, bucket: string, ttlDays: number, run: Run, logger?: Logger): Promise<LifecycleStatus> {
  const config: LifecycleConfig = {
    Rule: [{ ID: EXPIRY_RULE_ID, Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: ttlDays } }],
  };
  try {
    await run(() => client.setBucketLifecycle(bucket, config));
    return 'applied';
  } catch (error) {
    if (isNotImplemented(error)) {
      logger?.warn({ bucket, ttlDays }, 'object store does not support lifecycle rules: card images will not expire');
      return 'unsupported';
    }
    if (isAccessDenied(error)) {
      logger?.warn({ bucket, ttlDays }, 'not allowed to set the bucket lifecycle rule: card images will not expire unless an operator adds it');
      return 'denied';
    }
    throw toStorageError(error);
  }
}
