/**
 * `node scripts/bench/usage-counting.ts`: what counting usage and checking the quota cost one
 * request, measured apart from HTTP. The whole-gateway bench (`pnpm bench --only=light`) cannot
 * see a fraction of a microsecond on a shared machine; this runs the account guard (scope check,
 * quota check, the two Map increments of a request and its answer) as the router does, against a
 * pass-through middleware that only awaits `next`, in interleaved rounds, and reports the median
 * nanoseconds per request of each and their difference. The store is a real SQLite database in a
 * temp folder, flushed every 5 s as in production (flushes fall inside the measured time).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@utility-api/infra';
import { OWNER_ACCOUNT_ID } from '../../services/gateway/src/auth/api-keys.ts';
import { toPlans } from '../../services/gateway/src/accounts/plans.ts';
import { Quotas } from '../../services/gateway/src/accounts/quotas.ts';
import { openSqliteAccountStore } from '../../services/gateway/src/accounts/sqlite-account-store.ts';
import { UsageMeter } from '../../services/gateway/src/accounts/usage-meter.ts';
import { hexToRgbEndpoint } from '../../services/gateway/src/utilities/hex-to-rgb/endpoint.ts';
import { accountGuard } from '../../services/gateway/src/accounts/account-guard.ts';
import { systemClock } from '../../services/gateway/src/runtime/clock.ts';
import { median } from './stats.ts';

const REQUESTS_PER_ROUND = 200_000;
const ROUNDS = 7;

const directory = mkdtempSync(join(tmpdir(), 'usage-counting-bench-'));
const store = openSqliteAccountStore({ path: join(directory, 'accounts.sqlite') });
const logger = createLogger({ service: 'usage-counting-bench', level: 'silent' });
try {
  await store.createAccount({ id: OWNER_ACCOUNT_ID, name: 'Local owner', discordUserId: null, plan: 'bench', createdAt: new Date().toISOString() });
  const meter = new UsageMeter({ store, clock: systemClock, logger, flushMs: 5000 });
  const quotas = new Quotas({ store, meter, plans: toPlans([{ name: 'bench', cards: 1e9, requests: 1e12 }], undefined), clock: systemClock, logger });
  const endpoint = { ...hexToRgbEndpoint(systemClock), scope: 'utility' as const };
  const guard = accountGuard(endpoint, meter, quotas);
  type Middleware = ReturnType<typeof accountGuard>;
  const passThrough: Middleware = async (ctx, next) => {
    await next(ctx);
  };
  const next = () => Promise.resolve();
  // Ten keys of one account, as a busy deployment has several bots per account.
  const contexts = Array.from({ length: 10 }, (_, index) => ({
    method: 'GET',
    status: 200,
    state: { apiKey: { id: `key_bench${index}`, name: `bench ${index}`, accountId: OWNER_ACCOUNT_ID }, log: logger },
  }));

  const round = async (middleware: Middleware): Promise<number> => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < REQUESTS_PER_ROUND; index += 1) {
      await middleware(contexts[index % contexts.length] as never, next);
    }
    return Number(process.hrtime.bigint() - started) / REQUESTS_PER_ROUND;
  };
  // Warm-up: JIT, and the account's first (store-reading) request.
  await round(guard);
  await round(passThrough);
  const guarded: number[] = [];
  const plain: number[] = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    guarded.push(await round(guard));
    plain.push(await round(passThrough));
  }
  await meter.close();
  const written = (await store.usage(OWNER_ACCOUNT_ID, '0000-01-01', '9999-12-31')).reduce((sum, count) => sum + (count.metric === 'requests' ? count.count : 0), 0);
  const expected = REQUESTS_PER_ROUND * (ROUNDS + 1);
  process.stdout.write(
    [
      `account guard: ${median(guarded).toFixed(0)} ns/request (rounds: ${guarded.map((value) => value.toFixed(0)).join(', ')})`,
      `pass-through:  ${median(plain).toFixed(0)} ns/request (rounds: ${plain.map((value) => value.toFixed(0)).join(', ')})`,
      `difference:    ${(median(guarded) - median(plain)).toFixed(0)} ns/request, median of ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND}`,
      `requests written to the store: ${written} of ${expected} counted (${written === expected ? 'all' : 'MISMATCH'})`,
      '',
    ].join('\n'),
  );
} finally {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
}
