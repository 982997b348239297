import { z } from 'zod';
import { USAGE_METRICS } from '../../accounts/account-model.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { ApiError } from '../../http/api-error.ts';
import { usageReport } from '../usage-report.ts';
import { ACCOUNT_TAG, type AccountApiParts } from './account-api-parts.ts';

const quotaViewSchema = z.object({ limit: z.number().nullable(), used: z.number(), remaining: z.number().nullable() });
const perMetric = <Value extends z.ZodType>(value: Value) => z.object(Object.fromEntries(USAGE_METRICS.map((metric) => [metric, value])) as Record<(typeof USAGE_METRICS)[number], Value>);

/** UsageReport, as the usage page draws it. */
const usageReportSchema = z.object({
  days: z.array(z.string()),
  keyId: z.string().nullable(),
  totals: perMetric(z.number()),
  series: perMetric(z.record(z.string(), z.array(z.number()))),
  keys: z.array(z.object({ keyId: z.string(), requests: z.number() })),
  quota: z.object({ plan: z.string(), month: z.string(), resetsAt: z.string(), requests: quotaViewSchema, cards: quotaViewSchema }),
});

const usageQuerySchema = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/, { error: 'must be one key id (uk_live_... or key_...)' })
    .optional()
    .meta({ description: "Only this key's counts (its id as usage names it); the whole account's without it." }),
});

export function usageEndpoint(parts: Pick<AccountApiParts, 'store' | 'plans'>) {
  return defineEndpoint({
    operationId: 'getUsage',
    methods: ['GET'],
    path: '/account/api/usage',
    query: usageQuerySchema,
    summary: 'Usage',
    description: 'The last 30 UTC days by metric and endpoint (or format), and this month against the plan.',
    tags: [ACCOUNT_TAG],
    authenticated: false,
    session: { signedIn: 'required' },
    responses: { 200: { description: 'The report.', schema: usageReportSchema } },
    handle: async ({ query, request }) => {
      const account = await parts.store.getAccount(request.signedIn!.session.accountId);
      if (!account) throw new ApiError('not_signed_in', 'Your account no longer exists.');
      return usageReport(parts.store, parts.plans, account, query.key, new Date());
    },
  });
}
