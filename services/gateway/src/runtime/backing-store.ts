import { withDeadline } from '@utility-api/infra';

/**
 * The store the gateway depends on for keys (and, with Redis, for queues and limits). The status
 * endpoint and readiness probes ping it; the implementation says what "reachable" means.
 */
export interface BackingStore {
  /** A short label for logs, such as `memory` or `redis`. */
  readonly kind: string;
  /** Resolves when the store answered; rejects (or times out) when it did not. */
  ping(): Promise<void>;
}

/** Embedded mode keeps keys in process memory: always reachable. */
export const inMemoryBackingStore: BackingStore = {
  kind: 'memory',
  ping: async () => {},
};

export interface BackingStoreHealth {
  online: boolean;
  latencyMs: number;
}

export async function probeBackingStore(store: BackingStore, timeoutMs: number): Promise<BackingStoreHealth> {
  const started = performance.now();
  try {
    // Inside the try: a store whose ping throws synchronously is offline too.
    await withDeadline(store.ping(), timeoutMs, `${store.kind} ping`);
    return { online: true, latencyMs: performance.now() - started };
  } catch {
    return { online: false, latencyMs: performance.now() - started };
  }
}
