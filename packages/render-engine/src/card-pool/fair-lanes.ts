/** What the lanes need of a card: whose it is, its place in arrival order, and whether it moves. */
export interface LaneCard {
  /** The lane it waits in: the API key that asked for it ('' for cards that name none). */
  readonly tenant: string;
  /** Arrival order: lower came first. */
  readonly id: number;
  /** An animated card: the heaviest kind, with its own limits (see `FairLaneLimits`). */
  readonly animated: boolean;
}

export interface FairLaneLimits {
  /** The most animated cards drawing at once, all tenants together (Infinity: no limit). */
  animatedAtOnce: number;
  /** The most animated cards one tenant may draw at once. */
  animatedPerTenant: number;
}

/** A count per tenant that forgets a tenant at zero. */
class TenantCounts {
  readonly #counts = new Map<string, number>();

  get(tenant: string): number {
    return this.#counts.get(tenant) ?? 0;
  }

  has(tenant: string): boolean {
    return this.#counts.has(tenant);
  }

  add(tenant: string): void {
    this.#counts.set(tenant, this.get(tenant) + 1);
  }

  remove(tenant: string): void {
    const left = (this.#counts.get(tenant) ?? 1) - 1;
    if (left <= 0) this.#counts.delete(tenant);
    else this.#counts.set(tenant, left);
  }
}

/**
 * Cards waiting for a worker, one FIFO lane per tenant, and the cards drawing per tenant. The next
 * card (`takeNext`) is the head of the lane whose tenant has the fewest cards drawing; among equals,
 * the tenant served longest ago (one never served, or not since its lane last ran empty, first;
 * then the oldest card): round robin. So a key's cards queue behind its own, and a key with many
 * slow cards holds no more workers than a waiting key once one frees up (drawing is never
 * interrupted: a card's time budget bounds how long that takes). An animated card waits while
 * `animatedAtOnce` animated cards draw, or while its tenant draws `animatedPerTenant` of them; the
 * other lanes go on. No I/O and no clock: the pool (card-render-pool.ts) hands what it takes to
 * workers and reports each card back with `finished`.
 */
export class FairLanes<T extends LaneCard> {
  readonly #limits: FairLaneLimits;
  readonly #lanes = new Map<string, T[]>();
  readonly #drawing = new TenantCounts();
  readonly #animated = new TenantCounts();
  /** When each tenant with cards waiting or drawing was last given a worker (a dispatch count). */
  readonly #lastServed = new Map<string, number>();
  #animatedDrawing = 0;
  #dispatches = 0;
  #waiting = 0;

  constructor(limits: FairLaneLimits) {
    this.#limits = limits;
  }

  /** Cards waiting, all tenants together. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Cards waiting, by tenant. */
  get waitingByTenant(): Record<string, number> {
    return Object.fromEntries([...this.#lanes].map(([tenant, lane]) => [tenant, lane.length]));
  }

  /** Cards drawing for `tenant` (between `takeNext` and `finished`). */
  drawingFor(tenant: string): number {
    return this.#drawing.get(tenant);
  }

  /** Puts the card at the end of its tenant's lane. */
  enqueue(card: T): void {
    const lane = this.#lanes.get(card.tenant);
    if (lane) lane.push(card);
    else this.#lanes.set(card.tenant, [card]);
    this.#waiting += 1;
  }

  /**
   * Takes the next card by the lanes' rule and counts it as drawing; undefined when no card waits
   * or every waiting lane's head is an animated card over its limits. Linear in the tenants with
   * cards waiting.
   */
  takeNext(): T | undefined {
    let chosen: T[] | undefined;
    let best = { drawing: Number.POSITIVE_INFINITY, served: Number.POSITIVE_INFINITY, id: Number.POSITIVE_INFINITY };
    const animatedMayStart = this.#animatedDrawing < this.#limits.animatedAtOnce;
    for (const [tenant, lane] of this.#lanes) {
      const head = lane[0]!;
      if (head.animated && (!animatedMayStart || this.#animated.get(tenant) >= this.#limits.animatedPerTenant)) continue;
      const rank = { drawing: this.#drawing.get(tenant), served: this.#lastServed.get(tenant) ?? -1, id: head.id };
      const better = rank.drawing !== best.drawing ? rank.drawing < best.drawing : rank.served !== best.served ? rank.served < best.served : rank.id < best.id;
      if (better) {
        chosen = lane;
        best = rank;
      }
    }
    const card = chosen?.shift();
    if (!card) return undefined;
    if (chosen!.length === 0) this.#lanes.delete(card.tenant);
    this.#waiting -= 1;
    this.#dispatches += 1;
    this.#lastServed.set(card.tenant, this.#dispatches);
    if (card.animated) {
      this.#animatedDrawing += 1;
      this.#animated.add(card.tenant);
    }
    this.#drawing.add(card.tenant);
    return card;
  }

  /** A card `takeNext` gave is drawn (or lost): its tenant draws one fewer. */
  finished(card: T): void {
    if (card.animated) {
      this.#animatedDrawing -= 1;
      this.#animated.remove(card.tenant);
    }
    this.#drawing.remove(card.tenant);
    this.#forgetIfIdle(card.tenant);
  }

  /** Drops a card that still waits (its caller gave up); false when it had already left its lane. */
  withdraw(card: T): boolean {
    const lane = this.#lanes.get(card.tenant);
    const at = lane?.indexOf(card) ?? -1;
    if (at === -1) return false;
    lane!.splice(at, 1);
    if (lane!.length === 0) this.#lanes.delete(card.tenant);
    this.#waiting -= 1;
    this.#forgetIfIdle(card.tenant);
    return true;
  }

  /** Empties every lane (the pool closes) and returns the cards that waited, lane by lane. */
  drain(): T[] {
    const waiting = [...this.#lanes.values()].flat();
    this.#lanes.clear();
    this.#lastServed.clear();
    this.#waiting = 0;
    return waiting;
  }

  /** A tenant with nothing waiting or drawing is forgotten: it comes back as a newcomer. */
  #forgetIfIdle(tenant: string): void {
    if (!this.#lanes.has(tenant) && !this.#drawing.has(tenant)) this.#lastServed.delete(tenant);
  }
}
