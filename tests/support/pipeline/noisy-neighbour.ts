/**
 * Fairness between keys over real HTTP, written once for both run modes: a noisy key keeps its
 * card slots full of slow (but legal) animated cards while a quiet key asks for plain cards, and
 * a noisy key that hangs up leaves nothing behind in the queue. Every bound is a count (cards
 * answered or drawn), never a duration: a loaded machine changes how long cards take, not the
 * order a fair scheduler draws them in.
 */
import type { TestFn } from 'ava';
import { eventually } from '../../helpers/processes.ts';
import { startImageServer, type ImageServer } from './image-server.ts';
import { animatedImage } from '../../fixtures/images.ts';

export const NOISY_KEY = 'noisy-key-0123456789abcdef';
export const QUIET_KEY = 'quiet-key-0123456789abcdef';
/** Both keys, as `API_KEYS` lists them. */
export const NOISY_NEIGHBOUR_KEYS = `${NOISY_KEY},${QUIET_KEY}`;
/** Cards the noisy key keeps in flight: CARDS_IN_FLIGHT_PER_KEY's default. */
const NOISY_IN_FLIGHT = 8;
const USER_ID = '302050872383242240';
const SLOW_PATH = '/slow-animation.webp';

/** The settings both modes run the scenario with: the defaults but for render workers, fixed at two. */
export const NOISY_NEIGHBOUR_ENV = { RENDER_WORKERS: '2', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMIT_PROFILE_IMAGE: '1000/60s' } as const;

export interface FairnessTarget {
  url: string;
  /** Render workers drawing cards across the whole deployment. */
  workers: number;
  /** Cards accepted and not yet being drawn: the queue a new card would wait behind. */
  queuedCards(): Promise<number>;
  /** Cards queued or being drawn. */
  cardsInProgress(): Promise<number>;
  /** Cards drawn so far (every renderer's `card_render_phase_seconds_count{phase="draw"}` together). */
  cardsDrawn(): Promise<number>;
  /**
   * Cards that may still start drawing after the clients hung up, before the drawing side hears of
   * it: none embedded (the gateway withdraws the pool's lane itself), one per worker distributed (a
   * renderer checks the jobs it holds for abandonment every ABANDONED_CHECK_MS, 500 ms, and a worker
   * freed in that window takes the next one).
   */
  startsBeforeAbandonNoticed: number;
}

/**
 * A moving background heavy enough that its card keeps a render worker busy for a while: 40
 * full-size frames, all different, within the 10 s an animated card plays.
 */
export async function startSlowCardImages(): Promise<ImageServer> {
  const colors = Array.from({ length: 40 }, (_, index) => `hsl(${index * 9}, 70%, 45%)`);
  const bytes = await animatedImage('webp', { width: 900, height: 300 }, colors, colors.map(() => 100));
  return startImageServer({ [SLOW_PATH]: (_request, respond) => respond(200, 'image/webp', bytes) });
}

/** A Prometheus sample's value from a /metrics text (0 when absent). */
export function metricValue(metrics: string, sample: string): number {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

let cardNumber = 0;
function postCard(url: string, key: string, body: Record<string, unknown>, signal?: AbortSignal) {
  cardNumber += 1;
  return fetch(`${url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({ customTag: `card ${cardNumber} ${process.pid}`, ...body }),
    signal,
  });
}

export function registerNoisyNeighbourTests(test: TestFn, target: () => FairnessTarget, images: () => ImageServer, mode: string): void {
  // An animated GIF card: drawing its frames and quantising each to 256 colours keeps a worker busy
  // for seconds, so the few answers in flight when a quiet card arrives weigh little in the counts.
  const slowCard = () => ({ animated: true, format: 'gif', customBackground: `${images().url}${SLOW_PATH}` });

  test.serial(`${mode}: a key that fills its card slots with slow cards does not hold another key's cards behind its queue`, async (t) => {
    const { url, workers } = target();
    const queuedCards = () => target().queuedCards();
    const noisyAnswers: { at: number; status: number }[] = [];
    let stop = false;
    const noisyLoop = async () => {
      while (!stop) {
        const response = await postCard(url, NOISY_KEY, slowCard());
        await response.arrayBuffer();
        noisyAnswers.push({ at: performance.now(), status: response.status });
      }
    };
    const loops = Array.from({ length: NOISY_IN_FLIGHT }, () => noisyLoop());
    try {
      // The noisy key's cards fill every worker and queue up behind them.
      await eventually(async () => ((await queuedCards()) >= NOISY_IN_FLIGHT - workers - 1 ? true : undefined), 60_000, 100);
      const quiet: { status: number; ms: number; noisyAnsweredMeanwhile: number }[] = [];
      for (let round = 0; round < 4; round += 1) {
        const sentAt = performance.now();
        const response = await postCard(url, QUIET_KEY, {});
        const body: unknown = await response.json();
        const answeredAt = performance.now();
        t.is(response.status, 200, JSON.stringify(body));
        quiet.push({ status: response.status, ms: Math.round(answeredAt - sentAt), noisyAnsweredMeanwhile: noisyAnswers.filter(({ at }) => at > sentAt && at < answeredAt).length });
      }
      t.log('quiet key:', JSON.stringify(quiet));
      for (const { noisyAnsweredMeanwhile } of quiet) {
        // Fair: the quiet card waits for the first worker to free up, so at most the cards the
        // noisy key had drawing finish meanwhile, plus answers already on their way when it was
        // sent (a loaded machine stores and answers late). First come, first served: it waits
        // behind the noisy key's whole queue (7 of 8 measured in both modes).
        t.true(noisyAnsweredMeanwhile <= workers + 2, `the quiet card waited behind ${noisyAnsweredMeanwhile} noisy cards: ${JSON.stringify(quiet)}`);
      }
    } finally {
      stop = true;
      await Promise.all(loops);
    }
    const statuses: Record<number, number> = {};
    for (const { status } of noisyAnswers) statuses[status] = (statuses[status] ?? 0) + 1;
    t.log('noisy key statuses:', JSON.stringify(statuses));
    t.true(noisyAnswers.every(({ status }) => status === 200 || status === 504), 'the noisy key is slowed down, never failed');
  });

  test.serial(`${mode}: cards whose clients hung up leave the queue and are not drawn`, async (t) => {
    const { url, workers, startsBeforeAbandonNoticed } = target();
    const queuedCards = () => target().queuedCards();
    const cardsInProgress = () => target().cardsInProgress();
    const cardsDrawn = () => target().cardsDrawn();
    await eventually(async () => ((await cardsInProgress()) === 0 ? true : undefined), 120_000, 200);
    const drawnBefore = await cardsDrawn();
    const hangUp = new AbortController();
    const abandoned = Array.from({ length: NOISY_IN_FLIGHT }, () => postCard(url, NOISY_KEY, slowCard(), hangUp.signal).catch((error: unknown) => error));
    await eventually(async () => ((await queuedCards()) >= NOISY_IN_FLIGHT - workers - 1 ? true : undefined), 60_000, 100);
    hangUp.abort();
    // A card may have been answered while the queue filled (a loaded machine polls slowly): it was wanted.
    const answered = (await Promise.all(abandoned)).filter((outcome) => outcome instanceof Response).length;
    t.true(answered <= workers, `${answered} cards were answered before the hang-up`);
    // Back to an empty queue, and only the cards that were already drawing were finished.
    await eventually(async () => ((await queuedCards()) === 0 ? true : undefined), 30_000, 100);
    await eventually(async () => ((await cardsInProgress()) === 0 ? true : undefined), 120_000, 100);
    const drawnForNobody = (await cardsDrawn()) - drawnBefore - answered;
    t.log(`cards drawn for clients that had hung up: ${drawnForNobody} of ${NOISY_IN_FLIGHT - answered}`);
    // At most the cards that were already drawing (and those started before the hang-up was heard):
    // never one that was still queued.
    t.true(drawnForNobody <= workers + startsBeforeAbandonNoticed, `${drawnForNobody} cards were drawn for nobody`);
  });
}
