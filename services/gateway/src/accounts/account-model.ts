import { z } from 'zod';
import { ACCOUNT_ID } from '../auth/api-keys.ts';

/**
 * What the account area deals in: accounts (a bot developer, or the local owner of a self-hosted
 * gateway), their sessions, what they did (audit) and what their keys used (usage). Keys
 * themselves are ApiKeyRecords (auth/api-keys.ts) that name their account.
 */


export const accountSchema = z.object({
  id: z.string().regex(ACCOUNT_ID),
  name: z.string().min(1).max(100),
  /** The Discord user who signs in as this account (OAuth `identify`); null for the local owner and CLI-made accounts. */
  discordUserId: z.string().regex(/^\d{17,20}$/).nullable(),
  /** A plan name from PLANS; unknown names fall back to the default plan. */
  plan: z.string().min(1).max(40),
  createdAt: z.iso.datetime(),
});
export type Account = z.infer<typeof accountSchema>;

/**
 * A signed-in browser. The cookie carries a random id; the store keeps only its SHA-256, so a
 * read of the store signs nobody in.
 */
export const sessionSchema = z.object({
  idHash: z.string().regex(/^[0-9a-f]{64}$/),
  accountId: z.string().regex(ACCOUNT_ID),
  /** The synchronizer token every state-changing request of this session must carry. */
  csrfToken: z.string().min(32),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** The absolute end, whatever the activity. */
  expiresAt: z.iso.datetime(),
  /** How the session was opened, for the audit list and the sessions the user sees. */
  method: z.enum(['discord', 'link']),
});
export type Session = z.infer<typeof sessionSchema>;

export const AUDIT_EVENT_TYPES = [
  'signed_in',
  'signed_out',
  'signed_out_everywhere',
  'sign_in_link_created',
  'key_created',
  'key_rolled',
  'key_revoked',
  'template_created',
  'template_changed',
  'template_deleted',
  'plan_changed',
  'account_created',
] as const;

export const auditEventSchema = z.object({
  at: z.iso.datetime(),
  accountId: z.string().regex(ACCOUNT_ID),
  type: z.enum(AUDIT_EVENT_TYPES),
  /** Who did it: `session:<method>` (the account itself in a browser), `cli` or `system`. */
  actor: z.string().max(64),
  /** What it was about, in public words only (a key's prefix and name, a plan): never a secret. */
  detail: z.record(z.string(), z.string().max(200)),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/**
 * What a request counts as, per account, key and UTC day: `requests` and `errors` (status 400 and
 * up, 429 aside) and `rate_limited` (429) by endpoint (its operation id), `cards` by format.
 */
export const USAGE_METRICS = ['requests', 'cards', 'rate_limited', 'errors'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];
/** What a plan's monthly quotas count. */
export type QuotaKind = 'cards' | 'requests';

export interface UsageCount {
  accountId: string;
  keyId: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  metric: UsageMetric;
  /** The endpoint's operation id, or the card's format for `cards`. */
  label: string;
  count: number;
}

/** The month the quota counts in, as `YYYY-MM` (UTC), of a day `YYYY-MM-DD` or a date. */
export function monthOf(day: string | Date): string {
  return (typeof day === 'string' ? day : day.toISOString()).slice(0, 7);
}

export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `tpl_` and 12 lowercase letters and digits: not guessable, and never names another account's template. */
export const TEMPLATE_ID = /^tpl_[a-z0-9]{12}$/;

/** The card endpoints a template can design for: `POST /v1/profile-image` (links, batches) and `POST /v1/leaderboard-image`. */
export const TEMPLATE_KINDS = ['profile', 'leaderboard'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/**
 * A saved card design: body fields of its kind's endpoint without the member's own ones, which each
 * card request adds (checked by the templates endpoint; stored as given).
 */
export const cardTemplateSchema = z.object({
  id: z.string().regex(TEMPLATE_ID),
  accountId: z.string().regex(ACCOUNT_ID),
  name: z.string().min(1).max(100),
  // Templates were profile designs before leaderboards had any: a record without a kind is one.
  kind: z.enum(TEMPLATE_KINDS).default('profile'),
  fields: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type CardTemplate = z.infer<typeof cardTemplateSchema>;

/** Where the first fetch of a signed card link stored its card, so later fetches are served without a render. */
export const cardLinkRenderSchema = z.object({
  mediaKey: z.string(),
  format: z.string(),
  altText: z.string(),
  /** Frames of an animated card's file (1 when nothing moved); absent for a still request. */
  frames: z.number().int().min(1).optional(),
});
export type CardLinkRender = z.infer<typeof cardLinkRenderSchema>;
