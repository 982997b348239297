import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ERROR_CATALOGUE } from '@utility-api/api-errors';
import { MAX_ACTIVE_KEYS } from '../../../services/gateway/src/account-area/account-keys.ts';
import { MAX_SESSIONS_PER_ACCOUNT } from '../../../services/gateway/src/account-area/sessions.ts';
import { DEFAULT_PLAN_TEMPLATES, OWNER_PLAN, templatesAllowed } from '../../../services/gateway/src/accounts/plans.ts';
import { STORE_WATCH_INTERVAL_MS } from '../../../services/gateway/src/accounts/store-file-watch.ts';
import { REPO_ROOT } from '../../helpers/processes.ts';

/** A docs page with its lines joined and spaces collapsed: a number may sit at a line break. */
const page = (name: string) => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8').replace(/\s+/g, ' ');

const watchSeconds = STORE_WATCH_INTERVAL_MS / 1000;
const retryAfter = ERROR_CATALOGUE.store_unavailable.retryAfter;

test('the account limits and the store watch are stated with the numbers the code uses', (t) => {
  const keysAndLimits = page('keys-and-limits.md');
  for (const phrase of [
    `| keys not revoked | ${MAX_ACTIVE_KEYS} per account`,
    `| card templates | the plan's \`templates=<n>\`, ${DEFAULT_PLAN_TEMPLATES} when it does not say (\`owner\`: ${templatesAllowed(OWNER_PLAN)})`,
    `| account-area sessions | ${MAX_SESSIONS_PER_ACCOUNT} per account`,
    `end at ${MAX_ACTIVE_KEYS} live keys`,
    `at the newest ${MAX_SESSIONS_PER_ACCOUNT} sessions`,
    `${templatesAllowed(OWNER_PLAN)} card templates`,
  ]) t.true(keysAndLimits.includes(phrase), `keys-and-limits.md: ${phrase}`);

  const accounts = page('accounts.md');
  for (const phrase of [
    `at most ${MAX_SESSIONS_PER_ACCOUNT} sessions`,
    `an ${MAX_SESSIONS_PER_ACCOUNT + 1}th sign-in succeeds`,
    `may have ${MAX_ACTIVE_KEYS} keys that are not revoked`,
    `within ${watchSeconds} s (\`STORE_WATCH_INTERVAL_MS\`)`,
    `\`Retry-After: ${retryAfter}\``,
  ]) t.true(accounts.includes(phrase), `accounts.md: ${phrase}`);

  const security = page('security.md');
  for (const phrase of [`${MAX_ACTIVE_KEYS} keys not revoked per account`, `${DEFAULT_PLAN_TEMPLATES} by default`, `${MAX_SESSIONS_PER_ACCOUNT} sessions per account`]) {
    t.true(security.includes(phrase), `security.md: ${phrase}`);
  }
  t.true(page('operations.md').includes(`logged as an error within ${watchSeconds} s`), 'operations.md: the watch interval');
});
