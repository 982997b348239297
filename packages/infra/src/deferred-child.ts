import type { Bindings, Logger } from 'pino';

/** What a deferred child knows; it is also the proxy's target. */
interface DeferredState {
  /** The real logger the bindings are relative to. */
  root: Logger;
  bindings: Bindings;
  /** pino's own child, created on first real use. */
  real: Logger | undefined;
}

/** Read through the proxy to reach its state; a real pino logger has no such property. */
const STATE = Symbol('deferred child state');
const LEVEL_METHODS = new Set<string | symbol>(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);

function ignore(): void {}

function stateOf(logger: Logger): DeferredState | undefined {
  return (logger as unknown as { [STATE]?: DeferredState })[STATE];
}

function materialize(state: DeferredState): Logger {
  state.real ??= state.root.child(state.bindings);
  return state.real;
}

/** `child` as seen through a deferred child, which is `this`. */
function deferredChildMethod(this: Logger, bindings: Bindings, options?: object): Logger {
  if (options !== undefined) return materialize(stateOf(this)!).child(bindings, options);
  return deferredChild(this, bindings);
}

// One handler for every deferred child (closures made per request are not free).
const handler: ProxyHandler<DeferredState> = {
  get(state, property) {
    if (property === STATE) return state;
    if (property === 'child') return deferredChildMethod;
    if (state.real === undefined && LEVEL_METHODS.has(property) && !state.root.isLevelEnabled(property as string)) return ignore;
    const real = materialize(state);
    const value: unknown = Reflect.get(real, property, real);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
  },
  set(state, property, value) {
    return Reflect.set(materialize(state), property, value);
  },
  has(state, property) {
    return Reflect.has(materialize(state), property);
  },
};

/**
 * A child logger that costs nothing until it writes. pino's `child()` serialises its bindings at
 * once, a few microseconds that a per-request logger would pay on every request, although most
 * requests never log through it. This one only records its bindings:
 * - `child(bindings)` of a deferred child is another deferred child with the bindings merged;
 * - a log call below the level is a no-op, without creating anything;
 * - anything else (a log call, `level`, `bindings()`, `child(bindings, options)`) creates pino's
 *   real child once and forwards to it, so it behaves as `parent.child(bindings)` would.
 */
export function deferredChild(parent: Logger, bindings: Bindings): Logger {
  const parentState = stateOf(parent);
  // Once the parent exists for real (its level may have been changed), hang from it instead.
  const state: DeferredState =
    parentState && parentState.real === undefined
      ? { root: parentState.root, bindings: { ...parentState.bindings, ...bindings }, real: undefined }
      : { root: parentState?.real ?? parent, bindings, real: undefined };
  return new Proxy(state, handler) as unknown as Logger;
}

/**
 * For a logger made by `deferredChild`: the real logger it hangs from and all the bindings it
 * adds. `root.info({ ...bindings, ...fields }, msg)` then writes exactly the line the child's own
 * `info(fields, msg)` would, without creating the child. Undefined for any other logger.
 */
export function deferredBindings(logger: Logger): { root: Logger; bindings: Bindings } | undefined {
  const state = stateOf(logger);
  return state && { root: state.root, bindings: state.bindings };
}
