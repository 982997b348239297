import { freeLoopbackPort } from '../../scripts/local-stack/local-stack.ts';
import { REPO_ROOT as STACK_REPO_ROOT } from '../../scripts/local-stack/service-process.ts';

/** The tests start processes exactly as `./run stack` does; these names keep the tests readable. */
export const REPO_ROOT = STACK_REPO_ROOT;

/** A TCP port that was free a moment ago on loopback. */
export const freePort = freeLoopbackPort;

/** Polls until `probe` returns something other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`, { cause: lastError });
    // sleep-ok: the poll interval, bounded by the deadline above.
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * How long a test waits for a log line that an answer already owes: a renderer logs "card rendered"
 * before it hands the card back, but the answer can come through Redis and the gateway before the
 * line has crossed the renderer's stdout pipe (pino writes it a moment later).
 */
const OWED_LOG_LINE_MS = 10_000;

/** The "card rendered" log lines of the card stored under `mediaKey`, in the outputs given; waits for the first. */
export async function cardRenderedLines(outputs: () => readonly string[], mediaKey: string): Promise<string[]> {
  return eventually(async () => {
    const lines = outputs()
      .flatMap((output) => output.split('\n'))
      .filter((line) => line.includes('"card rendered"') && line.includes(mediaKey));
    return lines.length > 0 ? lines : undefined;
  }, OWED_LOG_LINE_MS, 20);
}

/** Each readiness check gives a dependency 1 s (`CHECK_TIMEOUT_MS` of the gateway and the renderer). */
const READINESS_CHECK_MS = 1000;

/**
 * The `/readyz` answer once it says ready. A storage or Redis ping slower than its 1 s check (an
 * S3 stand-in on a loaded machine) is a moment of "not ready" that an orchestrator's probe rides
 * out by asking again; so does this, for up to 15 checks, and fails with the last answer.
 */
export async function readinessOnceReady(url: string): Promise<{ status: string; checks: Record<string, string> }> {
  let last = '';
  try {
    return await eventually(async () => {
      const response = await fetch(url);
      const body = (await response.json()) as { status: string; checks: Record<string, string> };
      last = `${response.status} ${JSON.stringify(body)}`;
      return response.status === 200 ? body : undefined;
    }, 15 * READINESS_CHECK_MS, 250);
  } catch {
    throw new Error(`${url} never answered ready; last answer: ${last}`);
  }
}
