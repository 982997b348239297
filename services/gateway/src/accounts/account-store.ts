import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { ApiKeyRecords } from '../auth/key-records.ts';
import type { Account, AuditEvent, CardLinkRender, CardTemplate, QuotaKind, Session, UsageCount } from './account-model.ts';

/** Audit events each store keeps per account (the newest): the list a user reads, not an archive. */
export const AUDIT_KEPT = 1000;

/** The kinds of one-time secrets: sign-in links, and OAuth states waiting for their callback. */
export type OnceKind = 'sign-in-link' | 'oauth-state';

/**
 * Where accounts, their keys, sessions, audit and usage live: Redis (one server or a Cluster) in
 * distributed mode, a SQLite database (node:sqlite, WAL) in embedded mode. Every change is one
 * atomic step of the store (a transaction, a Lua script or a single command), so several gateways
 * writing at once never lose an update. Secrets are never stored: keys, sessions and one-time
 * tokens only as SHA-256 hashes.
 */
export interface AccountStore extends ApiKeyRecords {
  /**
   * A new secret for a key (`hash`), the old one still valid until `graceUntil`; undefined when
   * there is no such key, it is revoked or it belongs to another account than `accountId` (when given).
   */
  roll(id: string, change: { hash: string; at: Date; graceUntil: Date; accountId?: string }): Promise<ApiKeyRecord | undefined>;

  getAccount(id: string): Promise<Account | undefined>;
  accountByDiscordId(discordUserId: string): Promise<Account | undefined>;
  /**
   * Stores the account unless its id, or its Discord user, already has one: returns the account
   * that is stored now (the new one, or the one that was there), so two sign-ins racing for the
   * same Discord user end in one account.
   */
  createAccount(account: Account): Promise<Account>;
  listAccounts(): Promise<Account[]>;
  setPlan(id: string, plan: string): Promise<Account | undefined>;

  /**
   * Adds a session; the account keeps at most `maxPerAccount`, the newest by absolute end: the
   * oldest beyond end in the same atomic step, so racing sign-ins end at exactly the limit.
   */
  createSession(session: Session, maxPerAccount: number): Promise<void>;
  session(idHash: string): Promise<Session | undefined>;
  touchSession(idHash: string, lastSeenAt: Date): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Every session of the account ("sign out everywhere"); how many there were. */
  deleteSessions(accountId: string): Promise<number>;

  /** Stores a one-time secret's hash with its value until `expiresAt`. */
  putOnce(kind: OnceKind, hash: string, value: string, expiresAt: Date): Promise<void>;
  /** The value, once: a second take, or one after the expiry, is undefined. Atomic across gateways. */
  takeOnce(kind: OnceKind, hash: string, now: Date): Promise<string | undefined>;

  audit(event: AuditEvent): Promise<void>;
  /** The account's newest events first, at most `limit` (and at most AUDIT_KEPT are kept). */
  auditLog(accountId: string, limit: number): Promise<AuditEvent[]>;

  /** Adds counts (and when each key was last used) in one step; called by the usage flusher. */
  addUsage(counts: readonly UsageCount[], lastUsed: ReadonlyMap<string, string>): Promise<void>;
  /** Every count of the account (all its keys) for the UTC days `fromDay` to `toDay`, inclusive. */
  usage(accountId: string, fromDay: string, toDay: string): Promise<UsageCount[]>;
  /** The account's requests and cards in the month `YYYY-MM` (what the quota counts). */
  monthTotals(accountId: string, month: string): Promise<{ requests: number; cards: number }>;
  /**
   * Takes up to `amount` units of the account's monthly `kind` quota of `month` (`YYYY-MM`) in one
   * atomic step, so any number of gateways together never take more than `limit`: the units taken
   * so far are the store's counter or `floor` (the month's flushed usage, for counts made before
   * this counter existed), whichever is larger; returns how many were granted (0 to `amount`).
   * Cards take one unit per card at admission; requests take leases (see Quotas).
   */
  takeQuota(accountId: string, month: string, kind: QuotaKind, amount: number, limit: number, floor: number): Promise<number>;
  /** Gives back units taken and not used (a card that failed before it was drawn, a lease not spent); never below zero. */
  giveBackQuota(accountId: string, month: string, kind: QuotaKind, amount: number): Promise<void>;
  /** When each key (by id) was last used, as far as the flushed counts know. */
  keysLastUsed(keyIds: readonly string[]): Promise<Record<string, string>>;

  /**
   * Saves a new template unless the account already has `maxPerAccount` (checked and written in one
   * step, so gateways racing cannot go past it) or the id is taken: whether it was saved.
   */
  createTemplate(template: CardTemplate, maxPerAccount: number): Promise<boolean>;
  /** The account's template; undefined when it has none of that id (another account's is never found). */
  getTemplate(accountId: string, id: string): Promise<CardTemplate | undefined>;
  /** The account's templates, oldest (createdAt) first. */
  listTemplates(accountId: string): Promise<CardTemplate[]>;
  /** Replaces the template's name, kind and fields; the stored template, or undefined when the account has none of that id. */
  updateTemplate(accountId: string, id: string, change: Pick<CardTemplate, 'name' | 'kind' | 'fields' | 'updatedAt'>): Promise<CardTemplate | undefined>;
  /** Whether there was such a template of the account (now gone). */
  deleteTemplate(accountId: string, id: string): Promise<boolean>;

  /** Where a signed card link's card was stored (by its render job id), until `expiresAt`; undefined when unknown or expired. */
  cardLinkRender(jobId: string, now: Date): Promise<CardLinkRender | undefined>;
  putCardLinkRender(jobId: string, render: CardLinkRender, expiresAt: Date): Promise<void>;

  /**
   * Why the store cannot take writes now, or undefined: SQLite's file deleted, replaced or not
   * writable (see StoreFileWatch; a write then throws StoreUnavailableError, `503
   * store_unavailable`). Synchronous and cheap, for `/readyz`. Redis: always undefined (its
   * outages show in its ping, and its commands fail on their own).
   */
  unavailable(): string | undefined;

  close(): Promise<void>;
}
