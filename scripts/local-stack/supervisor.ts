import { setTimeout as sleep } from 'node:timers/promises';
import type { Restarted } from './local-stack.ts';
import type { ServiceProcess } from './service-process.ts';

export interface RestartPolicy {
  /** Wait before the first restart; doubled after each restart that did not last. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A process that ran this long before exiting starts the backoff over. */
  healthyAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 1000, maxDelayMs: 30_000, healthyAfterMs: 60_000 };

export interface SupervisorParts {
  restart(service: ServiceProcess): Promise<Restarted>;
  /** True once the stack is shutting down: exits are expected then, and nothing is restarted. */
  stopping(): boolean;
  log(line: string): void;
  policy?: RestartPolicy;
}

/**
 * Keeps one service of the local stack running: whenever it exits on its own (a crash, an OOM
 * kill, a SIGKILL), it is started again after a backoff (1 s, 2 s, 4 s ... up to 30 s, back to 1 s
 * once a run lasted a minute), and each step is logged. Returns when the stack stops.
 */
export async function supervise(first: ServiceProcess, parts: SupervisorParts): Promise<void> {
  const policy = parts.policy ?? DEFAULT_RESTART_POLICY;
  let current = first;
  let startedAt = Date.now();
  let quickExits = 0;
  for (;;) {
    const { code, signal } = await current.exited;
    if (parts.stopping()) return;
    if (Date.now() - startedAt >= policy.healthyAfterMs) quickExits = 0;
    const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** quickExits);
    quickExits += 1;
    parts.log(`${current.name} exited (code ${code}, signal ${signal}); restarting it in ${delayMs / 1000} s (restart ${quickExits})`);
    await sleep(delayMs);
    if (parts.stopping()) return;
    startedAt = Date.now();
    let restarted: Restarted;
    try {
      restarted = await parts.restart(current);
    } catch (error) {
      if (parts.stopping()) return; // stopping began during the wait
      throw error;
    }
    const { service, ready } = restarted;
    current = service;
    try {
      await ready;
      parts.log(`${service.name} restarted (pid ${service.child.pid})`);
    } catch (error) {
      // It exited (or was killed) before it was ready: the loop waits for that exit and tries again.
      parts.log(`${service.name} did not come back: ${firstLine(error)}`);
    }
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
