/** A wait that ran past its deadline. The work itself goes on: a promise cannot be cancelled. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/**
 * `work`, or a DeadlineError naming `what` after `timeoutMs`; the timer never outlives the race.
 * The one place the services bound a wait on something that may hang (Redis, storage, Discord,
 * an injected dependency). With `signal`, the wait also ends when it aborts, with its reason
 * (a client that hung up); the listener never outlives the race either.
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    if (!signal) return;
    // The signal's reason, as AbortSignal-aware APIs reject (an Error unless the aborter chose otherwise).
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new DOMException('The wait was aborted', 'AbortError'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs readiness probes side by side, each bounded by `timeoutMs`: `ready` when all answered.
 * Shared by the gateway's and the renderers' `/readyz`.
 */
export async function checkReadiness(
  probes: Readonly<Record<string, () => Promise<void>>>,
  timeoutMs: number,
): Promise<{ ready: boolean; checks: Record<string, 'ok' | 'unavailable'> }> {
  const names = Object.keys(probes);
  const results = await Promise.allSettled(names.map((name) => withDeadline(probes[name]!(), timeoutMs, name)));
  const checks = Object.fromEntries(names.map((name, index) => [name, results[index]!.status === 'fulfilled' ? ('ok' as const) : ('unavailable' as const)]));
  return { ready: results.every((result) => result.status === 'fulfilled'), checks };
}
