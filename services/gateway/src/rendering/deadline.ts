import { RenderTimeoutError } from './render-queue.ts';

/** Races a promise against the deadline; the timer never outlives the race. */
export async function withDeadline<T>(work: Promise<T>, deadlineMs: number, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          onTimeout?.();
          reject(new RenderTimeoutError(deadlineMs));
        }, deadlineMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
