import type { UsageCount } from '../../../services/gateway/src/accounts/account-model.ts';
import type { KeyScope } from '../../../services/gateway/src/http/key-scopes.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { createApiKey } from '../../../services/gateway/src/auth/key-records.ts';
import type { KeyRateLimits } from '../../../services/gateway/src/auth/rate-spec.ts';
import type { Clock } from '../../../services/gateway/src/runtime/clock.ts';
import { timeUntil } from '../keys/key-processes.ts';

/** A clock the test moves: the gateway's days, months and quota resets follow it. */
export function movableClock(startMs: number): Clock & { set(ms: number): void } {
  let now = startMs;
  return { now: () => now, set: (ms) => void (now = ms) };
}

/** Counts summed as `<metric> <label>` for one key (every key when `keyId` is undefined) of an account's days. */
export function countsByMetric(counts: readonly UsageCount[], keyId?: string): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const count of counts) {
    if (keyId !== undefined && count.keyId !== keyId) continue;
    const name = `${count.metric} ${count.label}`;
    sums[name] = (sums[name] ?? 0) + count.count;
  }
  return sums;
}

/**
 * Waits until the store's counts for the account's day (or days: gateways on the real clock may
 * cross midnight) equal `expected` (flushes come every USAGE_FLUSH_MS).
 */
export async function untilStored(store: AccountStore, accountId: string, day: string | readonly [string, string], expected: Record<string, number>, keyId?: string): Promise<Record<string, number>> {
  const [fromDay, toDay] = typeof day === 'string' ? [day, day] : day;
  let stored: Record<string, number> = {};
  try {
    await timeUntil(async () => {
      stored = countsByMetric(await store.usage(accountId, fromDay, toDay), keyId);
      return JSON.stringify(Object.entries(stored).sort()) === JSON.stringify(Object.entries(expected).sort());
    }, 10_000, 50);
  } catch {
    // The last read is returned for the assertion to show the difference.
  }
  return stored;
}

/** A managed key of an account (made here, as the account area or CLI would), with the scopes given. */
export async function makeKey(store: AccountStore, options: { accountId?: string; scopes?: readonly KeyScope[]; name?: string; limits?: KeyRateLimits } = {}): Promise<{ key: string; id: string }> {
  const { key, record } = await createApiKey(store, { name: options.name ?? 'usage-test', now: new Date(), ...options });
  return { key, id: record.prefix };
}

/** A fresh account on a plan. */
export async function makeAccount(store: AccountStore, id: string, plan: string): Promise<void> {
  await store.createAccount({ id, name: `Account ${id}`, discordUserId: null, plan, createdAt: new Date().toISOString() });
}
