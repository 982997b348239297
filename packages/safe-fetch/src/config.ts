import { envCommaList, envInteger } from '@utility-api/infra';
import type { z } from 'zod';

/**
 * The image fetcher's environment variables (FETCH_*): their defaults and limits, and the
 * settings they make. A service spreads the shape into its one schema.
 */

/** The image fetcher's defaults, for these variables and for safe-fetch used without them. */
export const FETCH_DEFAULTS = { maxBytes: 8 * 1024 * 1024, deadlineMs: 5000 } as const;

export const fetchEnvironmentShape = {
  /** Hosts, addresses or CIDR ranges that may be fetched from although they are not public (self-hosted setups, tests). */
  FETCH_ALLOW_PRIVATE_HOSTS: envCommaList(),
  FETCH_MAX_BYTES: envInteger({ min: 1024, max: 64 * 1024 * 1024, default: FETCH_DEFAULTS.maxBytes }),
  FETCH_TIMEOUT_MS: envInteger({ min: 100, max: 60_000, default: FETCH_DEFAULTS.deadlineMs }),
  /** All of one card's request images together (customBackground, customAvatar, customBadges), in bytes read. */
  FETCH_CARD_BUDGET_BYTES: envInteger({ min: 1024, max: 1024 * 1024 * 1024, default: 24 * 1024 * 1024 }),
};

type FetchEnvironment = z.output<z.ZodObject<typeof fetchEnvironmentShape>>;

/** The fetcher's limits and one card's byte budget for its fetch session. */
export function toImageFetchSettings(env: FetchEnvironment) {
  return { allowPrivateHosts: env.FETCH_ALLOW_PRIVATE_HOSTS, maxBytes: env.FETCH_MAX_BYTES, cardBudgetBytes: env.FETCH_CARD_BUDGET_BYTES, deadlineMs: env.FETCH_TIMEOUT_MS };
}

export type ImageFetchSettings = ReturnType<typeof toImageFetchSettings>;
