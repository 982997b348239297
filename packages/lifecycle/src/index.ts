export { Lifecycle } from './lifecycle.ts';
export type { Closer, ShutdownReport } from './lifecycle.ts';
export { runUntilSignalled } from './signals.ts';
export { checkReadiness, DeadlineError, withDeadline } from './deadline.ts';
