/** A wait that ran past its deadline. The work itself goes on: a promise cannot be cancelled. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/**
 * `work`, or a DeadlineError naming `what` after `timeoutMs`; the timer never outlives the race.
 * The one place the services bound a wait on something that may hang (Redis, storage, Discord,
 * an injected dependency).
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
