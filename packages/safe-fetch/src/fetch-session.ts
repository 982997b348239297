import { FetchBudget } from './fetch-budget.ts';
import { type FetchedImage, type ImageFetcher } from './image-fetcher.ts';

export interface FetchSession {
  /**
   * Like `ImageFetcher.fetchImage`, within the session: a URL already asked for (by any field)
   * shares that fetch, its bytes and its outcome; an error names the field that asked first.
   */
  fetchImage(url: string, field: string): Promise<FetchedImage>;
  readonly budget: FetchBudget;
  /**
   * Calls off every fetch still running (the unit of work failed and needs none of them): each
   * fails as `cancelled` and its connection is closed. Later calls to `fetchImage` fail at once.
   */
  cancel(): void;
}

/**
 * The fetches of one unit of work (one card): each distinct URL is fetched once, and all of them
 * draw on one byte budget of `budgetBytes`. A session is meant to live as long as that unit; it
 * keeps every image it fetched until it is dropped.
 */
export function createFetchSession(fetcher: ImageFetcher, budgetBytes: number): FetchSession {
  const budget = new FetchBudget(budgetBytes);
  const fetches = new Map<string, Promise<FetchedImage>>();
  const cancelled = new AbortController();
  return {
    budget,
    cancel: () => cancelled.abort(),
    fetchImage(url, field) {
      const key = sessionKey(url);
      let fetch = fetches.get(key);
      if (fetch === undefined) {
        fetch = fetcher.fetchImage(url, field, { budget, signal: cancelled.signal });
        fetches.set(key, fetch);
      }
      return fetch;
    },
  };
}

/**
 * Spellings of one request are one fetch: the parser normalises case, default ports and dot
 * segments, and the fragment is never sent. Anything unparseable keys on its text (and fails alike).
 */
function sessionKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}
