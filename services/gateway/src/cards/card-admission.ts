import type { Logger } from '@utility-api/infra';
import type { Quotas } from '../accounts/quotas.ts';
import type { ApiKeyIdentity } from '../auth/api-keys.ts';
import { ApiError } from '../http/api-error.ts';
import type { GuardStep } from '../http/request-pipeline.ts';
import type { RateLimits } from '../auth/rate-limits.ts';

/**
 * A card waiting for one of its key's slots looks again this often for slots freed by other
 * gateways (a slot freed in this process wakes its waiters at once).
 */
const SLOT_POLL_MS = 100;

/** A card admitted: it holds one of its key's slots and one unit of its account's cards quota until settled. */
export interface CardTicket {
  /**
   * The card is over: its slot goes back, and its unit of quota too unless it was answered
   * (`answered`: the caller got the card, drawn now or reused). Idempotent.
   */
  settle(answered: boolean): void;
}

export interface CardAdmissionOptions {
  /**
   * How long the card may wait for a slot of its key (a batch's item); 0 (the default, a single
   * card request) refuses it at once with `429 too_many_cards_in_flight` when the key holds all of them.
   */
  waitMs?: number;
  /** Aborts the wait when the client has gone. */
  gone?: AbortSignal | undefined;
}

/**
 * The one admission rule for every card drawn (a single card, each item of a batch, a card link's
 * fetch, a leaderboard, a playground preview): before it is queued a card takes one of its key's
 * `CARDS_IN_FLIGHT_PER_KEY` slots (counted across every gateway, RateLimits) and one unit of its
 * account's monthly cards quota (taken in the store, Quotas). Both are given back when the card is
 * over; the unit stays spent only when the card was answered. So a key never has more cards queued
 * or drawing than its slots, however it asks for them, and an account never gets more cards than
 * its quota, however many keys and gateways it uses. The render backend sees only admitted cards:
 * this module knows nothing of queues.
 */
export class CardAdmission {
  readonly #rateLimits: RateLimits | undefined;
  readonly #quotas: Quotas | undefined;
  readonly #slotsPerKey: number;
  readonly #logger: Logger;
  /** Cards of this process waiting for a slot, by key id: woken when a slot of their key is given back here. */
  readonly #waiting = new Map<string, Set<() => void>>();

  constructor(parts: { rateLimits: RateLimits | undefined; quotas: Quotas | undefined; slotsPerKey: number; logger: Logger }) {
    this.#rateLimits = parts.rateLimits;
    this.#quotas = parts.quotas;
    this.#slotsPerKey = parts.slotsPerKey;
    this.#logger = parts.logger;
  }

  /** Whether cards are limited at all (RATE_LIMITS on): otherwise admission holds nothing. */
  get limited(): boolean {
    return this.#rateLimits !== undefined;
  }

  /**
   * Admits one card of `key`: its ticket, or throws the refusal (`429 too_many_cards_in_flight`
   * after waiting `waitMs` for a slot, `429 quota_exceeded`, `503 store_unavailable`).
   */
  async admit(key: ApiKeyIdentity, options: CardAdmissionOptions = {}): Promise<CardTicket> {
    const release = await this.#slot(key.id, options.waitMs ?? 0, options.gone);
    let unit;
    try {
      unit = this.#quotas ? await this.#quotas.takeCard(key.accountId) : undefined;
    } catch (error) {
      release();
      throw error;
    }
    if (unit instanceof ApiError) {
      release();
      throw unit;
    }
    let settled = false;
    return {
      settle: (answered) => {
        if (settled) return;
        settled = true;
        release();
        if (!answered) unit?.giveBack();
      },
    };
  }

  /**
   * The guard of an endpoint whose each request is one card: admitted before the handler (a
   * refusal at once when the key's slots are held), settled however the handler ends; the card
   * counts as answered when the handler set `cardFormat` and the answer is not an error.
   */
  guard(): GuardStep {
    return async (ctx, next) => {
      const ticket = await this.admit(ctx.state.apiKey!);
      let answered = false;
      try {
        await next(ctx);
        answered = ctx.state.cardFormat !== undefined && ctx.status < 400;
      } finally {
        ticket.settle(answered);
      }
    };
  }

  /** One slot of the key, waiting up to `waitMs` for one: the function that gives it back. */
  async #slot(keyId: string, waitMs: number, gone: AbortSignal | undefined): Promise<() => void> {
    const rateLimits = this.#rateLimits;
    if (rateLimits === undefined) return () => {};
    const giveUpAt = performance.now() + waitMs;
    for (;;) {
      const release = await rateLimits.takeCardSlot(keyId);
      if (release) {
        let released = false;
        return () => {
          if (released) return;
          released = true;
          release();
          for (const wake of this.#waiting.get(keyId) ?? []) wake();
        };
      }
      const left = giveUpAt - performance.now();
      if (left <= 0 || gone?.aborted === true) break;
      await this.#freed(keyId, Math.min(left, SLOT_POLL_MS), gone);
    }
    this.#logger.debug({ keyId, cardsInFlight: this.#slotsPerKey }, 'too many cards in flight');
    const waited = waitMs > 0 ? ` (this card waited ${Math.round(waitMs / 1000)} s for one)` : '';
    throw new ApiError(
      'too_many_cards_in_flight',
      `This key already has ${this.#slotsPerKey} cards in progress, the most it may have at once${waited}; retry when one of them has been answered.`,
    );
  }

  /** Resolves when a slot of the key is given back in this process, after `ms`, or when `gone` aborts. */
  #freed(keyId: string, ms: number, gone: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      let waiters = this.#waiting.get(keyId);
      if (waiters === undefined) this.#waiting.set(keyId, (waiters = new Set()));
      const done = () => {
        clearTimeout(timer);
        gone?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0 && this.#waiting.get(keyId) === waiters) this.#waiting.delete(keyId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      gone?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }
}
