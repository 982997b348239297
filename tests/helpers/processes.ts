import { freeLoopbackPort } from '../../scripts/local-stack/local-stack.ts';
import { REPO_ROOT as STACK_REPO_ROOT, startServiceProcess, type ServiceProcess } from '../../scripts/local-stack/service-process.ts';

/** The tests start processes exactly as `pnpm stack` does; these names keep the tests readable. */
export const REPO_ROOT = STACK_REPO_ROOT;

/** A TCP port that was free a moment ago on loopback. */
export const freePort = freeLoopbackPort;

export interface ManagedProcess {
  child: ServiceProcess['child'];
  output(): string;
  /** Resolves with the first output line matching the pattern; rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited(): ServiceProcess['exited'];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs a TypeScript entry point with Node, as `pnpm start` does, collecting stdout and stderr. */
export function startNodeProcess(entry: string, env: Record<string, string>): ManagedProcess {
  const service = startServiceProcess({ name: entry, entry, env });
  return {
    child: service.child,
    output: () => service.output(),
    waitFor: (pattern, timeoutMs = 20_000) => service.waitFor(pattern, timeoutMs),
    exited: () => service.exited,
    stop: (signal) => service.stop(signal),
  };
}
