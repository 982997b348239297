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
