import type { LimitDecision } from './limit-decision.ts';
import type { RateCounter } from './rate-counter.ts';
import type { RateSpec } from './rate-spec.ts';

/** Addresses remembered as blocked; past this the expired ones, then the oldest, are dropped. */
const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * Limits failed authentications per client address (guessing keys). Failures are counted in the
 * shared counter; once an address is over its budget this gateway refuses it from memory, before
 * looking at any key, until the window ends. Another gateway learns it on that address's next
 * failure there. Only requests that present a credential count: a missing header guesses nothing.
 */
export class AuthFailureGuard {
  readonly #counter: RateCounter;
  readonly #spec: RateSpec;
  readonly #blockedUntil = new Map<string, number>();

  constructor(counter: RateCounter, spec: RateSpec) {
    this.#counter = counter;
    this.#spec = spec;
  }

  /** Milliseconds the address must still wait, 0 when it may try. */
  blockedFor(address: string): number {
    const until = this.#blockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return left;
    this.#blockedUntil.delete(address);
    return 0;
  }

  async recordFailure(address: string): Promise<LimitDecision> {
    const decision = await this.#counter.consume('auth-failures', address, this.#spec);
    if (!decision.allowed) this.#block(address, decision.resetMs);
    return decision;
  }

  #block(address: string, forMs: number): void {
    if (this.#blockedUntil.size >= MAX_BLOCKED_ADDRESSES) {
      const now = Date.now();
      for (const [blocked, until] of this.#blockedUntil) if (until <= now) this.#blockedUntil.delete(blocked);
      for (const blocked of this.#blockedUntil.keys()) {
        if (this.#blockedUntil.size < MAX_BLOCKED_ADDRESSES) break;
        this.#blockedUntil.delete(blocked);
      }
    }
    this.#blockedUntil.delete(address);
    this.#blockedUntil.set(address, Date.now() + forMs);
  }
}
