/**
 * Every light endpoint's documented answer is what its handler answers to the documented request,
 * checked once here through the handler itself (the request built from the schemas' own examples,
 * the clock at the documented 2024-06-15T12:00:00Z), so no test keeps its own copy of an example.
 * Endpoints that draw at random are given a source that replays the draws behind their example.
 */
import test from 'ava';
import type { EndpointDefinition, RequestSnapshot } from '../../../../services/gateway/src/http/endpoint.ts';
import { utilityEndpoints } from '../../../../services/gateway/src/utilities/utility-endpoints.ts';
import { inMemoryBackingStore } from '../../../../services/gateway/src/runtime/backing-store.ts';
import { fixedClock } from '../../../../services/gateway/src/runtime/clock.ts';
import type { RandomSource } from '../../../../services/gateway/src/runtime/random-source.ts';
import { FIXED_NOW_MS } from '../../../helpers/test-gateway.ts';

/**
 * Replays `floats`, then walks the golden-ratio sequence: never one value for ever, which a shuffle
 * retried until it differs from its word would wait on without end.
 */
function replayedRandom(): RandomSource & { replay(floats: readonly number[]): void } {
  let floats: readonly number[] = [];
  let index = 0;
  const float = () => {
    const next = floats[index] ?? ((index - floats.length + 1) * 0.618_033_988_75) % 1;
    index += 1;
    return next;
  };
  return {
    float,
    integer: (maxExclusive) => Math.floor(float() * maxExclusive),
    replay(next) {
      floats = next;
      index = 0;
    },
  };
}

interface MetaCarrier {
  meta(): { examples?: unknown[] } | undefined;
  def: { innerType?: MetaCarrier; in?: MetaCarrier; out?: MetaCarrier };
}

/** A field's first documented example, looked up through its wrappers (optional, default, preprocess pipes). */
function firstExample(field: MetaCarrier | undefined, depth = 0): unknown {
  if (field === undefined || depth > 4) return undefined;
  const example = field.meta()?.examples?.[0];
  if (example !== undefined) return example;
  const { innerType, in: input, out } = field.def;
  return firstExample(innerType, depth + 1) ?? firstExample(out, depth + 1) ?? firstExample(input, depth + 1);
}

/** The documented request: each query field's first example (as the string a URL carries). */
function exampleQuery(endpoint: EndpointDefinition): Record<string, string> {
  const query: Record<string, string> = {};
  const shape: Record<string, unknown> = endpoint.query?.shape ?? {};
  for (const [name, field] of Object.entries(shape)) {
    const example = firstExample(field as MetaCarrier);
    // Query examples are numbers, booleans or strings: the text a URL carries.
    if (typeof example === 'string' || typeof example === 'number' || typeof example === 'boolean') query[name] = String(example);
  }
  return query;
}

function snapshot(endpoint: EndpointDefinition, method: string, query: Record<string, string>): RequestSnapshot {
  const search = new URLSearchParams(query).toString();
  return {
    method,
    url: `${endpoint.path}${search === '' ? '' : `?${search}`}`,
    path: endpoint.path,
    query,
    headers: { host: 'api.example.com', authorization: '[redacted]', accept: '*/*', 'user-agent': 'curl/8.5.0' },
    receivedAt: performance.now(),
    requestId: 'req_example',
    clientAddress: '127.0.0.1',
  };
}

async function answerToExample(endpoint: EndpointDefinition): Promise<unknown> {
  const method = endpoint.methods.includes('GET') ? 'GET' : endpoint.methods[0]!;
  const query = exampleQuery(endpoint);
  const parsedQuery = endpoint.query ? endpoint.query.parse(query) : {};
  // A request without a body reaches a handler that reads one as `{}`, as the router gives it.
  const body = endpoint.body ? endpoint.body.parse(endpoint.bodyExample ?? {}) : undefined;
  return endpoint.handle({ query: parsedQuery, body, params: {}, request: snapshot(endpoint, method, query) });
}

/**
 * Endpoints whose documented answer is one a random draw gives (the spec's observed pizza): the
 * test finds a first draw that gives exactly it, which proves the example is an answer the
 * handler can give. The others' examples are what the replayed sequence gives.
 */
const SEARCHED_FIRST_DRAW = new Set(['/v1/random-emoji']);
const DRAW_STEPS = 4096;

/**
 * Answers that measure the machine (how long the request took, how fast the store answered): the
 * documented value stands in when the handler's has the same type.
 */
const MEASURED: Readonly<Record<string, readonly string[]>> = { '/v1/status': ['latency', 'latencyStable', 'database.latency'] };

function withMeasuredFrom(answer: unknown, documented: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(answer) as Record<string, unknown>;
  for (const path of paths) {
    const keys = path.split('.');
    const last = keys.pop()!;
    const parentOf = (root: unknown) => keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root) as Record<string, unknown> | undefined;
    const target = parentOf(copy);
    const source = parentOf(documented);
    if (target && source && typeof target[last] === typeof source[last]) target[last] = source[last];
  }
  return copy;
}

const random = replayedRandom();
for (const probe of utilityEndpoints({ clock: fixedClock(FIXED_NOW_MS), random, store: inMemoryBackingStore, environment: 'prod' })) {
  test.serial(`${probe.path}: the documented answer is the handler's answer to the documented request`, async (t) => {
    const documented = probe.responses[200]?.example;
    t.not(documented, undefined, 'the 200 has an example');
    const answerWith = async (draws: readonly number[]) => {
      random.replay(draws);
      return withMeasuredFrom(await answerToExample(probe), documented, MEASURED[probe.path] ?? []);
    };
    if (SEARCHED_FIRST_DRAW.has(probe.path)) {
      for (let step = 0; step < DRAW_STEPS; step += 1) {
        if (JSON.stringify(await answerWith([(step + 0.5) / DRAW_STEPS])) === JSON.stringify(documented)) return t.pass();
      }
    }
    t.deepEqual(await answerWith([]), documented);
  });
}
