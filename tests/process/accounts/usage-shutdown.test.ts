/**
 * SIGTERM with a card still being drawn: the HTTP server drains first, so the card is answered and
 * counted, and only then does the usage meter write its last counts and the store close.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { apiKeyId, hashApiKey } from '../../../services/gateway/src/auth/api-keys.ts';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';
import { countsByMetric } from '../../support/accounts/usage-helpers.ts';

test('a card in flight at SIGTERM is answered and counted before the last flush', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'usage-shutdown-'));
  const images = await startSlowImageServer(1500);
  try {
    const databasePath = join(dataDir, 'accounts.sqlite');
    // No timer flush within the test: only the shutdown's can write these counts.
    const gateway = await startGatewayProcess({ env: { DATABASE_PATH: databasePath, USAGE_FLUSH_MS: '60000', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    const fetched = images.nextRequest(SLOW_PATH);
    const card = fetch(`${gateway.url}/v1/profile-image?userId=302050872383242240`, {
      method: 'POST',
      headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customBackground: `${images.url}${SLOW_PATH}` }),
    });
    // The card is being drawn (its background is dripping in) when the signal comes.
    await fetched;
    const stopped = gateway.stop();
    const answer = await card;
    t.is(answer.status, 200, await answer.text());
    await stopped;
    const store = openSqliteAccountStore({ path: databasePath });
    try {
      const today = new Date().toISOString().slice(0, 10);
      const counts = countsByMetric(await store.usage(OWNER_ACCOUNT_ID, today, today), apiKeyId(hashApiKey(TEST_API_KEY)));
      t.deepEqual(counts, { 'requests createProfileImage': 1, 'cards png': 1 });
    } finally {
      await store.close();
    }
  } finally {
    await images.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
