import { z } from 'zod';
import { dayOf, monthOf, type UsageMetric } from './account-model.ts';
import { OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { KEY_SCOPES } from '../http/key-scopes.ts';
import type { AccountUsageFacts, AccountUsageSource } from './account-usage.ts';
import { unlimited } from './plans.ts';
import { nextMonthStart } from './quotas.ts';
import type { ApiKeyIdentity } from '../auth/api-keys.ts';
import { ApiError } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';

const count = z.number().int().min(0);

/** A plan's quota; `null` is no limit (the local owner's `owner` plan). */
const limitOf = (quota: number) => (unlimited(quota) ? null : quota);

const quotaSchema = z.object({
  limit: count.nullable().meta({ description: "The plan's monthly quota; `null` when the plan has none (the local owner's `owner` plan)." }),
  used: count.meta({ description: 'Used this UTC month, by every key of the account on every gateway (counts reach the store every few seconds).' }),
  remaining: count.nullable().meta({ description: '`limit` minus `used`, never below 0; `null` when there is no limit.' }),
  resetsAt: z.iso.datetime().meta({ description: 'When the month ends and `used` starts again from 0: the first instant of the next UTC month.' }),
});

const keyCountsSchema = z.object({
  requests: count.meta({ description: 'Requests this key made (every answer, quota refusals aside).' }),
  cards: count.meta({ description: 'Cards drawn or reused for this key (successful card answers).' }),
  rateLimited: count.meta({ description: 'Answers that were 429 (rate limits, cards in flight, quota).' }),
  errors: count.meta({ description: 'Answers that were 4xx or 5xx, 429 aside.' }),
});

const resultSchema = z.object({
  account: z.object({
    id: z.string().meta({ description: 'The account the key belongs to.' }),
    name: z.string(),
  }),
  plan: z.object({
    name: z.string().meta({ description: 'The plan the account is on: one of the operator\'s plans (`PLANS`), or `owner`, the local owner\'s plan without monthly quotas (keys from `API_KEYS`, the key `./run start` prints, keys made with `./run keys`), unless the operator put the owner on another.' }),
    cards: count.nullable().meta({ description: 'Cards per UTC month; `null`: no limit (the `owner` plan).' }),
    requests: count.nullable().meta({ description: 'Requests per UTC month; `null`: no limit (the `owner` plan).' }),
  }),
  quotasEnforced: z.boolean().meta({ description: 'Whether this deployment refuses requests over quota (`429 quota_exceeded`); false when it runs without limits.' }),
  cards: quotaSchema.meta({ description: "This month's cards quota." }),
  requests: quotaSchema.meta({ description: "This month's requests quota." }),
  key: z.object({
    id: z.string().meta({ description: 'The key\'s public id (`uk_live_<id>`, or `key_<hash prefix>` for a key from `API_KEYS`); never the key.' }),
    name: z.string(),
    scopes: z.array(z.enum(KEY_SCOPES)).meta({ description: 'What the key may call: `cards` (the profile-image operations), `utility` (the others); this operation is open to every key.' }),
    today: keyCountsSchema.extend({ day: z.iso.date().meta({ description: 'The UTC day counted.' }) }),
    month: keyCountsSchema.extend({ month: z.string().regex(/^\d{4}-\d{2}$/).meta({ description: 'The UTC month counted, `YYYY-MM`.' }) }),
    lastUsedAt: z.iso.datetime().meta({ description: 'When the key was last used (this request, usually).' }),
  }),
});

export type AccountResult = z.infer<typeof resultSchema>;

const METRIC_FIELDS: Readonly<Record<UsageMetric, keyof z.infer<typeof keyCountsSchema>>> = { requests: 'requests', cards: 'cards', rate_limited: 'rateLimited', errors: 'errors' };

/** The answer from the facts: quotas as limit, used, remaining and reset, and the key's counts of today and of the month. */
export function accountAnswer(key: ApiKeyIdentity, facts: AccountUsageFacts): AccountResult {
  const today = dayOf(new Date(facts.now));
  const month = monthOf(today);
  const resetsAt = new Date(nextMonthStart(facts.now)).toISOString();
  const quota = (kind: 'cards' | 'requests') => {
    const used = facts.monthTotals[kind];
    const limit = limitOf(facts.plan[kind]);
    return { limit, used, remaining: limit === null ? null : Math.max(0, limit - used), resetsAt };
  };
  const dayCounts = { day: today, requests: 0, cards: 0, rateLimited: 0, errors: 0 };
  const monthCounts = { month, requests: 0, cards: 0, rateLimited: 0, errors: 0 };
  for (const counted of facts.keyCounts) {
    if (monthOf(counted.day) !== month) continue;
    const field = METRIC_FIELDS[counted.metric];
    monthCounts[field] += counted.count;
    if (counted.day === today) dayCounts[field] += counted.count;
  }
  return {
    account: { id: key.accountId, name: facts.account?.name ?? key.accountId },
    plan: { name: facts.plan.name, cards: limitOf(facts.plan.cards), requests: limitOf(facts.plan.requests) },
    quotasEnforced: facts.quotasEnforced,
    cards: quota('cards'),
    requests: quota('requests'),
    key: {
      id: key.id,
      name: key.name,
      scopes: [...(key.scopes ?? KEY_SCOPES)],
      today: dayCounts,
      month: monthCounts,
      lastUsedAt: new Date(facts.keyLastUsedAt ?? facts.now).toISOString(),
    },
  };
}

/** GET /v1/account: the key's account, its plan and quotas, and the key's own usage. */
export function accountEndpoint(source: AccountUsageSource) {
  return defineEndpoint({
    operationId: 'getAccount',
    methods: ['GET'],
    path: '/v1/account',
    summary: "Your key's account, plan, quotas and usage",
    description: [
      'Answers for the key that calls it, whatever its scopes: the account it belongs to (keys from `API_KEYS` belong to the',
      'local owner), the account\'s plan, and this UTC month\'s `cards` and `requests` quotas with what is used and when they reset',
      '(the start of the next UTC month). Over a quota, requests are `429 quota_exceeded` (cards: only the card operations);',
      'this operation is never refused for the quota (it is how to see it), though it counts as a request, so `used` may pass `limit`.',
      'Then this key\'s own counts of today and of this month (UTC): requests, cards, 429s and other errors, and when it was last used.',
      'Usage is counted in each gateway\'s memory and written to the store every few seconds (`USAGE_FLUSH_MS`), so another gateway\'s',
      'latest calls may take that long to appear; this gateway\'s own are included at once, this request among them.',
    ].join(' '),
    tags: ['Account'],
    authenticated: true,
    // Over quota, this is the call that says so and until when: it is never refused for the quota.
    limits: { outsideQuota: true },
    responses: {
      200: {
        description: 'The account, its plan and quotas, and this key\'s usage.',
        schema: resultSchema,
        example: {
          account: { id: OWNER_ACCOUNT_ID, name: 'Local owner' },
          plan: { name: 'free', cards: 1000, requests: 100000 },
          quotasEnforced: true,
          cards: { limit: 1000, used: 42, remaining: 958, resetsAt: '2024-07-01T00:00:00.000Z' },
          requests: { limit: 100000, used: 1234, remaining: 98766, resetsAt: '2024-07-01T00:00:00.000Z' },
          key: {
            id: 'uk_live_ab12cd34',
            name: 'my-bot',
            scopes: ['cards', 'utility'],
            today: { day: '2024-06-15', requests: 120, cards: 7, rateLimited: 0, errors: 2 },
            month: { month: '2024-06', requests: 1100, cards: 40, rateLimited: 3, errors: 9 },
            lastUsedAt: '2024-06-15T12:00:00.000Z',
          },
        } satisfies AccountResult,
      },
      503: { description: '`store_unavailable`: the store of accounts and usage (Redis, or the SQLite file) did not answer within 2 s.', retryAfter: true },
    },
    handle: async ({ request }) => {
      const key = request.key!;
      const facts = await source(key).catch((error: unknown) => {
        throw new ApiError('store_unavailable', 'The account store did not answer in time. Please retry shortly.', { cause: error });
      });
      return accountAnswer(key, facts);
    },
  });
}
