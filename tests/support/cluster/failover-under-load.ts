import type { ExecutionContext } from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStackOn, type TopologyStack } from '../../helpers/redis-topology.ts';
import { USER_ID } from '../pipeline/profile-image-suite.ts';
import { FAILOVER_BOUND_MS, type ClusterNode } from './redis-cluster.ts';

/**
 * A master of the Redis Cluster dies (SIGKILL) while cards are being asked for without pause. Its
 * replica takes over; meanwhile every request is answered, with its card or with a clean 503 and
 * Retry-After, none hangs and none is a 500; once the cluster is whole again, new cards render.
 * Which master dies is the caller's (the render queue's, a gateway's reply stream's).
 */
export const FAILOVER_API_KEY = 'failover-key-0123456789abcdef';
const RENDER_TIMEOUT_MS = 20_000;
/** No answer can take longer than the gateway's own render deadline; the rest is a loaded machine. */
const ANSWER_BOUND_MS = RENDER_TIMEOUT_MS + 15_000;
const CLIENTS = 4;
/** Cards answered before the kill and after the recovery, so both sides are exercised. */
const CARDS_BEFORE = 4;
const CARDS_AFTER = 4;
/** The whole test's bound: the failover, the answers around it, the stack's start. */
export const FAILOVER_TEST_BOUND_MS = FAILOVER_BOUND_MS + 3 * ANSWER_BOUND_MS + 60_000;

export function startFailoverStack(env: Record<string, string> = {}): Promise<TopologyStack> {
  return startStackOn('cluster', {
    renderers: 2,
    apiKeys: FAILOVER_API_KEY,
    env: {
      LOG_LEVEL: 'info',
      RENDER_WORKERS: '1',
      RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS),
      CARDS_IN_FLIGHT_PER_KEY: '100',
      RATE_LIMIT_PROFILE_IMAGE: '100000/60s',
      RATE_LIMIT_DEFAULT: '100000/60s',
      ...env,
    },
  });
}

interface Outcome {
  startedAt: number;
  ms: number;
  status: number | 'hung' | 'network error';
  retryAfter: string | null;
  code?: string;
  url?: string;
}

async function requestCard(stack: TopologyStack, tag: string): Promise<Outcome> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${stack.gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
      method: 'POST',
      headers: { authorization: FAILOVER_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customTag: tag }),
      signal: AbortSignal.timeout(ANSWER_BOUND_MS),
    });
    const body = (await response.json()) as { url?: string; error?: { code?: string } };
    return { startedAt, ms: Date.now() - startedAt, status: response.status, retryAfter: response.headers.get('retry-after'), code: body.error?.code, url: body.url };
  } catch (error) {
    const hung = (error as Error).name === 'TimeoutError';
    return { startedAt, ms: Date.now() - startedAt, status: hung ? 'hung' : 'network error', retryAfter: null, code: (error as Error).message };
  }
}

/**
 * Runs the load, kills the master `pickDoomed` names (for `slot`) once cards flow, waits for the
 * cluster to heal and for cards after it, then checks every answer.
 */
export async function failoverUnderLoad(t: ExecutionContext, stack: TopologyStack, slot: number, what: string): Promise<void> {
  const cluster = stack.cluster!;
  const doomed: ClusterNode = await cluster.masterOf(slot);
  const outcomes: Outcome[] = [];
  let stopLoad = false;
  let counter = 0;
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (!stopLoad) outcomes.push(await requestCard(stack, `failover ${process.pid} ${(counter += 1)}`));
  });
  const cardsSince = (since: number) => outcomes.filter((outcome) => outcome.status === 200 && outcome.startedAt >= since).length;
  const waitForCards = async (since: number, count: number, when: string) => {
    const deadline = Date.now() + 3 * ANSWER_BOUND_MS;
    while (cardsSince(since) < count) {
      if (Date.now() > deadline) throw new Error(`fewer than ${count} cards ${when}: ${JSON.stringify(outcomes.slice(-10))}`);
      await sleep(50);
    }
  };

  try {
    await waitForCards(0, CARDS_BEFORE, 'before the kill');
    const killedAt = Date.now();
    await doomed.server.kill();
    await cluster.waitUntilHealthy(FAILOVER_BOUND_MS);
    const healedAt = Date.now();
    const promoted = await cluster.masterOf(slot);
    t.not(promoted.port, doomed.port, `another node serves ${what}`);
    t.log(`failover: ${what} (slot ${slot}) moved from :${doomed.port} to :${promoted.port} in ${healedAt - killedAt} ms (cluster view healthy again)`);
    await waitForCards(healedAt, CARDS_AFTER, 'after the failover');
  } finally {
    stopLoad = true;
    await Promise.all(clients);
  }

  const byStatus = new Map<string, number>();
  for (const outcome of outcomes) byStatus.set(`${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`, (byStatus.get(`${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`) ?? 0) + 1);
  t.log(`${outcomes.length} requests: ${[...byStatus].map(([status, count]) => `${count}× ${status}`).join(', ')}; slowest ${Math.max(...outcomes.map((outcome) => outcome.ms))} ms`);

  for (const outcome of outcomes) {
    if (outcome.status === 200) continue;
    t.is(outcome.status, 503, `every answer is a card or a 503: ${JSON.stringify(outcome)}`);
    t.regex(outcome.retryAfter ?? '', /^\d+$/, `a 503 says when to retry: ${JSON.stringify(outcome)}`);
  }
  // Every card answered is really stored: none was lost with the killed master.
  const cards = outcomes.filter((outcome) => outcome.status === 200);
  const media = await Promise.all(cards.map(async (card) => (await fetch(card.url!, { method: 'HEAD' })).status));
  t.deepEqual(media.filter((status) => status !== 200), [], 'every answered card can be fetched');
}
