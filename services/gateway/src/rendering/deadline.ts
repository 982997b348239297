import { DeadlineError, withDeadline as raceDeadline } from '@utility-api/infra';
import { RenderTimeoutError } from './render-queue.ts';

/** The shared deadline race, reported as the queue's own RenderTimeoutError (a 504 at the endpoint). */
export async function withDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  try {
    return await raceDeadline(work, deadlineMs, 'card render');
  } catch (error) {
    throw error instanceof DeadlineError ? new RenderTimeoutError(deadlineMs) : error;
  }
}
