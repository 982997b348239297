import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { loadContract, type OpenApiContract } from '../../../helpers/openapi-contract.ts';
import { startTestGateway, type TestGateway } from '../../../helpers/test-gateway.ts';
import { RawHttpClient, type RawRequest, type RawResponse } from './raw-http.ts';
import { describeExchange, ResponseRules, type Expectation } from './response-rules.ts';

/** A real gateway over real HTTP (the whole embedded one, or the app without the render path), with the OpenAPI document it serves. */
export interface FuzzTarget {
  gateway: TestGateway;
  contract: OpenApiContract;
  client: RawHttpClient;
  /** Sends the request and throws a readable account of it when a rule is broken. */
  exchange(request: RawRequest, expectation: Expectation): Promise<RawResponse>;
  close(): Promise<void>;
}

/** `render`: the whole embedded gateway, for properties that need cards drawn; else the app with the light endpoints. */
export async function startFuzzTarget(env: Record<string, string> = {}, options: { render?: boolean } = {}): Promise<FuzzTarget> {
  // Rate limits would turn a long run into 429s; they are tolerated anyway if this is ignored.
  const gatewayOptions = { env: { RATE_LIMITS: 'off', ...env } };
  const gateway = await startTestGateway({ ...gatewayOptions, render: options.render === true });
  const contract = await loadContract(gateway.url);
  const rules = new ResponseRules(contract);
  const client = new RawHttpClient(gateway.url);
  return {
    gateway,
    contract,
    client,
    async exchange(request, expectation) {
      const response = await client.send(request);
      const problems = rules.problems(request, response, expectation);
      if (problems.length > 0) throw new Error(describeExchange(request, response, problems));
      return response;
    },
    async close() {
      client.close();
      await gateway.close();
    },
  };
}

/** A failing run stops shrinking here and reports what it has, before ava's own timeout. */
const RUN_TIME_LIMIT_MS = 40_000;

/**
 * fast-check settings for one property. The seed is logged, and fast-check prints it with the
 * counterexample path on failure: `FUZZ_SEED=<seed>` replays a run (with ava's `--match` for one
 * property), `FUZZ_PATH=<path>` with it replays just the counterexample; `FUZZ_RUNS_SCALE=10` runs
 * ten times as many cases for a longer local session.
 */
export function fuzzParameters<T>(t: ExecutionContext, numRuns: number): fc.Parameters<T> {
  const seed = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 0x7fffffff) : Number(process.env.FUZZ_SEED);
  const scale = Number(process.env.FUZZ_RUNS_SCALE ?? '1');
  const runs = Math.max(1, Math.round(numRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
  t.log(`fast-check seed ${seed}, ${runs} runs (replay with FUZZ_SEED=${seed})`);
  return {
    seed,
    numRuns: runs,
    ...(process.env.FUZZ_PATH === undefined ? {} : { path: process.env.FUZZ_PATH }),
    // ava prints the message, not the cause: the broken rule has to be in the message.
    includeErrorInReport: true,
    plugins: [fc.interruptAfterTimeLimit(RUN_TIME_LIMIT_MS * Math.max(1, scale)) as fc.Plugin<T>],
  };
}
