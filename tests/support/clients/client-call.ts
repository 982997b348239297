import { cardUrl } from '@utility-api/client';

/** What each generated client's caller reports, and the card request they all send. */
export interface Call {
  operationId: string;
  status: number;
  /** What the client parsed: its `data` on success, its `error` otherwise. */
  body: unknown;
  headers: Headers;
}

export type CallEveryOperation = (baseUrl: string, key: string) => Promise<Call[]>;

export const USER_ID = '302050872383242240';

/** `rankData` is all or nothing: every field is required once it is given. */
export const RANK_DATA = { currentXp: 1200, requiredXp: 2000, level: 7, rank: 3, barColor: '#5865F2', levelColor: '#FFFFFF', autoColorRank: true } as const;

/** A template's design as the generated clients save and replace it. */
export const TEMPLATE_FIELDS = { layout: 'welcome', headline: 'Hi', borderColor: '#5865f2' } as const;

/**
 * A signed card link's query parameters, in the order they are signed (v, k, u, o, s): what a
 * generated client's `getCardLink` sends, built with the SDK as a bot builds a link.
 */
export function cardLinkQuery(key: string, card: Record<string, unknown>): { v: '1'; k: string; u: string; o?: string; e?: string; s: string } {
  const query = new URL(cardUrl({ baseUrl: 'http://localhost', apiKey: key, userId: USER_ID, card })).searchParams;
  const value = (name: string) => query.get(name) ?? undefined;
  return { v: '1', k: value('k')!, u: value('u')!, ...(value('o') === undefined ? {} : { o: value('o')! }), s: value('s')! };
}
