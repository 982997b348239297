import type { Middleware } from 'koa';
import { ApiError } from '../errors/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';

/**
 * How many card requests each key has in progress in this gateway process. The rate budget bounds
 * how many cards a key may ask for per window; this bounds how many it can hold open at once, so
 * one key's burst of slow cards (large images, a slow image server) cannot take every render slot
 * and every connection while the others wait.
 */
export class CardsInFlight {
  readonly perKey: number;
  readonly #counts = new Map<string, number>();

  constructor(perKey: number) {
    this.perKey = perKey;
  }

  /** A slot for `keyId`, released by calling the returned function (once; later calls do nothing), or `undefined` when all are taken. */
  acquire(keyId: string): (() => void) | undefined {
    const held = this.#counts.get(keyId) ?? 0;
    if (held >= this.perKey) return undefined;
    this.#counts.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#counts.get(keyId) ?? 1) - 1;
      if (left === 0) this.#counts.delete(keyId);
      else this.#counts.set(keyId, left);
    };
  }

  /** Slots `keyId` holds now (for tests and logs). */
  held(keyId: string): number {
    return this.#counts.get(keyId) ?? 0;
  }
}

/**
 * Holds one of the key's card slots while the rest of the request runs: a `429
 * too_many_cards_in_flight` with `Retry-After: 1` when the key already has all of them. The slot
 * is given back when the handler settles, however that happens: an answer, an error, or the render
 * deadline. A client that disconnects keeps its slot until then, because its card is still being
 * made; giving the slot back at once would let a client queue unbounded renders by hanging up.
 * Runs after `authenticate`.
 */
export function limitCardsInFlight(cards: CardsInFlight): Middleware<GatewayState> {
  return async (ctx, next) => {
    const key = ctx.state.apiKey;
    if (!key) throw new Error('limitCardsInFlight runs after authenticate');
    const release = cards.acquire(key.id);
    if (release === undefined) {
      ctx.state.log.info({ cardsInFlight: cards.perKey }, 'too many cards in flight');
      throw new ApiError(
        429,
        'too_many_cards_in_flight',
        `This key already has ${cards.perKey} cards in progress on this server, the most it may have at once; retry when one of them has been answered.`,
        { headers: { 'Retry-After': '1' } },
      );
    }
    try {
      await next();
    } finally {
      release();
    }
  };
}
