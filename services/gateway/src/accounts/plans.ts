import { z } from 'zod';

/** A plan's monthly quota (per UTC calendar month): cards drawn, and requests of every kind; and how many card templates an account may keep. */
export interface Plan {
  name: string;
  cards: number;
  requests: number;
  /** Card templates an account may keep; DEFAULT_PLAN_TEMPLATES when the plan does not say. */
  templates?: number;
}

/** Templates an account may keep when its plan does not say (`templates=<n>`): enough for a bot's welcome, rank and goodbye cards in a few styles. */
export const DEFAULT_PLAN_TEMPLATES = 25;

export function templatesAllowed(plan: Plan): number {
  return plan.templates ?? DEFAULT_PLAN_TEMPLATES;
}

/** Card templates the owner plan keeps: more than a tenant's default, still a bounded list. */
const OWNER_PLAN_TEMPLATES = 200;

/**
 * The local owner's plan: keys from API_KEYS, the key `./run start` prints, keys the CLI makes
 * without `--account` and the owner's keys from the account area. The operator is not a tenant of
 * their own server, so it has no monthly quotas (the per-key rate limits and card slots still
 * apply: they protect the machine, not a bill). Always offered; a PLANS entry named `owner`
 * replaces it, and `./run keys accounts plan acct_owner <plan>` puts the owner on another.
 */
export const OWNER_PLAN: Plan = { name: 'owner', cards: Number.POSITIVE_INFINITY, requests: Number.POSITIVE_INFINITY, templates: OWNER_PLAN_TEMPLATES };

/** A quota with no limit (the owner plan's): never refuses, shown as `null` in answers. */
export const unlimited = (quota: number) => quota === Number.POSITIVE_INFINITY;

export type Plans = { readonly byName: ReadonlyMap<string, Plan>; readonly defaultPlan: Plan };

/** What a fresh deployment offers when PLANS is unset: one free plan. */
export const DEFAULT_PLANS_TEXT = 'free:cards=1000,requests=100000';

const PLAN_NAME = /^[a-z][a-z0-9-]{0,39}$/;
const PLANS_FORMAT = '`<name>:cards=<n>,requests=<n>` entries (optionally `,templates=<n>`) separated by `;`, such as `free:cards=1000,requests=100000;pro:cards=50000,requests=5000000,templates=200`';

/**
 * PLANS as the operator writes it. Every plan names both quotas (whole numbers, 0 allowed: a plan
 * without cards); names are unique lower-case words.
 */
export function parsePlans(text: string): Plan[] | string {
  const plans: Plan[] = [];
  for (const entry of text.split(';').map((part) => part.trim()).filter((part) => part !== '')) {
    const match = /^([^:]+):(.*)$/.exec(entry);
    if (!match || !PLAN_NAME.test(match[1]!)) return `"${entry}" is not a plan: write ${PLANS_FORMAT}`;
    const quotas = new Map(match[2]!.split(',').map((pair) => pair.trim().split('=') as [string, string | undefined]));
    const cards = Number(quotas.get('cards'));
    const requests = Number(quotas.get('requests'));
    const templates = quotas.has('templates') ? Number(quotas.get('templates')) : 0;
    const known = 2 + (quotas.has('templates') ? 1 : 0);
    if (quotas.size !== known || ![cards, requests, templates].every((value) => Number.isSafeInteger(value) && value >= 0)) {
      return `plan "${match[1]}" must give cards and requests as whole numbers (templates too, when given): write ${PLANS_FORMAT}`;
    }
    if (plans.some((plan) => plan.name === match[1])) return `plan "${match[1]}" is given twice`;
    plans.push({ name: match[1]!, cards, requests, ...(quotas.has('templates') ? { templates } : {}) });
  }
  return plans.length > 0 ? plans : `no plan given: write ${PLANS_FORMAT}`;
}

/** PLANS and DEFAULT_PLAN, for the gateway's environment schema. */
export const plansEnvironmentShape = {
  PLANS: z
    .string()
    .default(DEFAULT_PLANS_TEXT)
    .transform((text, context) => {
      const parsed = parsePlans(text);
      if (typeof parsed === 'string') {
        context.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /** The plan of new accounts and of accounts whose plan is no longer in PLANS. */
  DEFAULT_PLAN: z.string().regex(PLAN_NAME).optional(),
};

/**
 * Checks DEFAULT_PLAN against PLANS; the default is the first plan listed. The plans are PLANS's
 * plus the owner plan (unless PLANS defines its own `owner`); the built-in owner plan cannot be
 * the default: new accounts are tenants, and a plan without quotas for every sign-up is not a
 * default to fall into by a typo.
 */
export function toPlans(plans: readonly Plan[], defaultName: string | undefined, context?: z.RefinementCtx): Plans {
  const byName = new Map(plans.map((plan) => [plan.name, plan]));
  const chosen = defaultName === undefined ? plans[0] : byName.get(defaultName);
  const listed = [...byName.keys()].join(', ');
  if (!byName.has(OWNER_PLAN.name)) byName.set(OWNER_PLAN.name, OWNER_PLAN);
  if (!chosen) {
    context?.addIssue({ code: 'custom', path: ['DEFAULT_PLAN'], message: `must be one of the plans in PLANS (${listed})` });
    return { byName, defaultPlan: plans[0]! };
  }
  return { byName, defaultPlan: chosen };
}

/** PLANS and DEFAULT_PLAN alone, checked as the gateway checks them: for `./run keys accounts`. */
export const plansEnvironmentSchema = z
  .object(plansEnvironmentShape)
  .superRefine((env, context) => void toPlans(env.PLANS, env.DEFAULT_PLAN, context))
  .transform((env) => toPlans(env.PLANS, env.DEFAULT_PLAN));

/** The plan an account is on: its own when PLANS still has it, else the default. */
export function planOf(plans: Plans, name: string): Plan {
  return plans.byName.get(name) ?? plans.defaultPlan;
}
