import type { RandomSource } from '../../runtime/random-source.ts';
import type { EmojiDetails } from './emoji-catalog.ts';
import type { EmojiCategory } from './emoji-categories.ts';

export interface EmojiFilter {
  category?: EmojiCategory | undefined;
  isSymbol?: boolean | undefined;
}

/** Answers draws from the catalog, with each filter's pool computed once and reused. */
export class EmojiPicker {
  readonly #catalog: readonly EmojiDetails[];
  readonly #pools = new Map<string, readonly EmojiDetails[]>();

  constructor(catalog: readonly EmojiDetails[]) {
    this.#catalog = catalog;
  }

  pool(filter: EmojiFilter): readonly EmojiDetails[] {
    const key = `${filter.category ?? '*'}|${filter.isSymbol ?? '*'}`;
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = this.#catalog.filter(
        (emoji) =>
          (filter.category === undefined || emoji.category === filter.category) &&
          (filter.isSymbol === undefined || emoji.isSymbol === filter.isSymbol),
      );
      this.#pools.set(key, pool);
    }
    return pool;
  }

  /** Up to `count` distinct emojis, uniformly chosen; fewer only when the pool is smaller. */
  pick(filter: EmojiFilter, count: number, random: RandomSource): EmojiDetails[] {
    const pool = this.pool(filter);
    const wanted = Math.min(count, pool.length);
    const chosen = new Set<number>();
    while (chosen.size < wanted) chosen.add(random.integer(pool.length));
    return [...chosen].map((index) => pool[index] as EmojiDetails);
  }
}
