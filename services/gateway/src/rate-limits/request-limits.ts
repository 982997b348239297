import type { ApiKeyIdentity } from '../auth/api-key-store.ts';
import type { LimitDecision } from './limit-decision.ts';
import type { RateBudget } from './rate-budget.ts';
import type { RateCounter } from './rate-counter.ts';
import type { RateSpec } from './rate-spec.ts';

/** Per-key budgets: the key's own override when its record has one, else the configured budget. */
export class RequestLimits {
  readonly #counter: RateCounter;
  readonly #budgets: Readonly<Record<RateBudget, RateSpec>>;

  constructor(counter: RateCounter, budgets: Readonly<Record<RateBudget, RateSpec>>) {
    this.#counter = counter;
    this.#budgets = budgets;
  }

  consume(budget: RateBudget, key: ApiKeyIdentity): Promise<LimitDecision> {
    return this.#counter.consume(budget, key.id, key.limits?.[budget] ?? this.#budgets[budget]);
  }
}
