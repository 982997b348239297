export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/**
 * `work`, or a DeadlineError after `timeoutMs`. The work is not cancelled (the caller cannot), only
 * no longer waited for: for injected dependencies (image fetcher, cache) that should have their
 * own limits, so that a stuck one cannot hold a card request regardless.
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
