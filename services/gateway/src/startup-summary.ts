import { OWNER_ACCOUNT_ID } from './auth/api-keys.ts';
import { unlimited, type Plan } from './accounts/plans.ts';

const quotaText = (quota: number) => (unlimited(quota) ? 'unlimited' : String(quota));

/**
 * What a person starting the gateway needs to see among the JSON log lines: where it answers, which
 * key to use (or where keys come from), the account area's sign-in link, the docs and the
 * playground. Plain text for a terminal; the same facts are in the log for machines.
 */
export function startupSummary(facts: {
  publicBaseUrl: string;
  generatedKey: string | undefined;
  bootstrapKeys: number;
  managedKeys: number;
  signInLink: { url: string; expiresAt: Date } | undefined;
  /** The local owner's plan, which the keys above are on. */
  ownerPlan: Plan;
  quotasEnforced: boolean;
}): string {
  const base = facts.publicBaseUrl;
  const keys =
    facts.generatedKey !== undefined
      ? `${facts.generatedKey} (made for this run only: set API_KEYS, or make keys in the account area)`
      : `${facts.bootstrapKeys} from API_KEYS, ${facts.managedKeys} made in the account area or with ./run keys`;
  const account =
    facts.signInLink === undefined
      ? `${base}/account (sign in with Discord)`
      : `${facts.signInLink.url} (one-time sign-in link, until ${facts.signInLink.expiresAt.toISOString()}; ./run keys sign-in-link makes another)`;
  const { ownerPlan } = facts;
  const quotas = !facts.quotasEnforced
    ? 'RATE_LIMITS=off: no quota is enforced'
    : unlimited(ownerPlan.cards) && unlimited(ownerPlan.requests)
      ? `no monthly quotas on your own keys; ./run keys accounts plan ${OWNER_ACCOUNT_ID} <plan> sets another`
      : `${quotaText(ownerPlan.cards)} cards and ${quotaText(ownerPlan.requests)} requests a month on your own keys`;
  return [
    '',
    `Utility API is ready: ${base}`,
    `  Key         ${keys}`,
    `  Plan        ${ownerPlan.name} (${quotas})`,
    `  Account     ${account}`,
    `  Docs        ${base}/docs`,
    `  Playground  ${base}/playground`,
    '',
    '',
  ].join('\n');
}
