import type { AccountStore } from '../../accounts/account-store.ts';
import type { Plans } from '../../accounts/plans.ts';
import type { ApiKeyVerifier } from '../../auth/key-verifier.ts';
import type { RateLimits } from '../../auth/rate-limits.ts';
import type { AccountAreaSettings } from '../account-area-settings.ts';
import type { AccountKeys } from '../account-keys.ts';
import type { AccountSessions } from '../sessions.ts';

/** What the account area's JSON endpoints are made from (each takes the parts it uses). */
export interface AccountApiParts {
  store: AccountStore;
  plans: Plans;
  settings: AccountAreaSettings;
  sessions: AccountSessions;
  keys: AccountKeys;
  /** This gateway's key checks: a key revoked here is refused by it before the area answers. */
  gatewayKeys?: Pick<ApiKeyVerifier, 'revokedHere' | 'startupKeys'> | undefined;
  /** Undefined when `RATE_LIMITS=off`: failed sign-ins are then not counted. */
  rateLimits: RateLimits | undefined;
}

/** The area's request bodies are a few fields: a few kilobytes is plenty (the API's 1 MB is for card designs). */
export const ACCOUNT_BODY_BYTES = 4096;

/** The tags of the internal document, one per page section. */
export const SIGN_IN_TAG = 'Sign-in';
export const KEYS_TAG = 'Keys';
export const ACCOUNT_TAG = 'Account';
