import test from 'ava';
import type { UsageCount } from '../../../../services/gateway/src/accounts/account-model.ts';
import { accountAnswer, accountEndpoint } from '../../../../services/gateway/src/accounts/account-endpoint.ts';
import { ApiError } from '../../../../services/gateway/src/http/api-error.ts';

const NOW = Date.UTC(2024, 1, 29, 23, 30);
const key = { id: 'uk_live_ab12cd34', name: 'bot', accountId: 'acct_bot', scopes: ['cards'] as const };
const counted = (day: string, metric: UsageCount['metric'], label: string, count: number): UsageCount => ({ accountId: 'acct_bot', keyId: key.id, day, metric, label, count });

test("the answer sums the key's counts into today and the month, and clamps remaining at 0", (t) => {
  const answer = accountAnswer(key, {
    now: NOW,
    account: { id: 'acct_bot', name: 'Bot maker', discordUserId: null, plan: 'tiny', createdAt: '2024-01-01T00:00:00.000Z' },
    plan: { name: 'tiny', cards: 2, requests: 10 },
    monthTotals: { requests: 12, cards: 1 },
    keyCounts: [
      counted('2024-02-29', 'requests', 'coinFlip', 3),
      counted('2024-02-29', 'requests', 'coinFlip', 2),
      counted('2024-02-29', 'rate_limited', 'coinFlip', 1),
      counted('2024-02-03', 'errors', 'time', 4),
      counted('2024-02-03', 'cards', 'webp', 1),
      // Another month's count is not this month's.
      counted('2024-01-31', 'requests', 'time', 50),
    ],
    keyLastUsedAt: undefined,
    quotasEnforced: true,
  });
  t.deepEqual(answer, {
    account: { id: 'acct_bot', name: 'Bot maker' },
    plan: { name: 'tiny', cards: 2, requests: 10 },
    quotasEnforced: true,
    // A leap-year February: the quota resets on March 1st, UTC.
    cards: { limit: 2, used: 1, remaining: 1, resetsAt: '2024-03-01T00:00:00.000Z' },
    requests: { limit: 10, used: 12, remaining: 0, resetsAt: '2024-03-01T00:00:00.000Z' },
    key: {
      id: key.id,
      name: 'bot',
      scopes: ['cards'],
      today: { day: '2024-02-29', requests: 5, cards: 0, rateLimited: 1, errors: 0 },
      month: { month: '2024-02', requests: 5, cards: 1, rateLimited: 1, errors: 4 },
      // Never used as far as the store knows: this request is its use.
      lastUsedAt: '2024-02-29T23:30:00.000Z',
    },
  });
});

test('a store that fails or does not answer is a 503 store_unavailable with Retry-After, not a 500', async (t) => {
  const endpoint = accountEndpoint(() => Promise.reject(new Error('account usage: no answer within 2000 ms')));
  const request = { method: 'GET', url: '/v1/account', path: '/v1/account', query: {}, headers: {}, receivedAt: 0, requestId: 'r1', keyId: key.id, key, clientAddress: '127.0.0.1' };
  const error = await t.throwsAsync(async () => endpoint.handle({ query: {}, body: undefined, params: {}, request }), { instanceOf: ApiError });
  t.is(error?.status, 503);
  t.is(error?.code, 'store_unavailable');
  t.is(error?.headers['Retry-After'], '2');
});
