import { setTimeout as sleep } from 'node:timers/promises';
import { heavyProgressiveJpeg } from '../../fixtures/images.ts';
import { killWorkerOnceDrawing } from '../../helpers/render-workers.ts';
import { startImageServer, type ImageServer } from './image-server.ts';
import { USER_ID } from './profile-image-suite.ts';

/** How many cards a crash scenario may spend before one is caught while its worker draws it. */
const CRASH_ATTEMPTS = 4;

/** The path of the heavy background for crash attempt `attempt` (1-based): each one a new image. */
export const heavyPath = (attempt: number) => `/heavy-${attempt}.jpg`;

const heavyImages = new Map<number, Buffer>();

/**
 * The heavy-but-legal background (see heavyProgressiveJpeg) of crash attempt `attempt`, each with
 * other content so no cache answers one attempt from another's decode. Made once, when first
 * needed: before the attempt's card is asked for, since making it takes seconds on a loaded machine
 * and a renderer fetching it meanwhile would give up at its fetch deadline.
 */
function heavyImage(attempt: number): Buffer {
  let bytes = heavyImages.get(attempt);
  if (bytes === undefined) {
    bytes = heavyProgressiveJpeg(6 + attempt);
    heavyImages.set(attempt, bytes);
  }
  return bytes;
}

/** Serves each crash attempt's heavy background at heavyPath(attempt). */
export async function startHeavyImageServer(): Promise<ImageServer> {
  const routes: Parameters<typeof startImageServer>[0] = {};
  for (let attempt = 1; attempt <= CRASH_ATTEMPTS; attempt += 1) {
    routes[heavyPath(attempt)] = (_request, respond) => respond(200, 'image/jpeg', heavyImage(attempt));
  }
  return startImageServer(routes);
}

export interface CardReply {
  status: number;
  headers: Headers;
  body: any;
}

export async function postCard(gatewayUrl: string, apiKey: string, body: unknown): Promise<CardReply> {
  const response = await fetch(`${gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The render pool's log lines for lost workers, parsed, in `output`. */
export function lostWorkers(output: string): { pid: number; hadCard: boolean; [field: string]: unknown }[] {
  return output
    .split('\n')
    .filter((line) => line.includes('render worker lost'))
    .map((line) => JSON.parse(line));
}

const readyWorkers = (output: string) => output.split('\n').filter((line) => line.includes('render worker ready')).length;

/**
 * Asks for a card with a heavy background and SIGSEGVs the render worker (a child of one of
 * `rendererPids`) that starts drawing it: the card is caught in the act, after its image was
 * fetched, while it decodes.
 *
 * The kill is aimed from outside by watching CPU time, so on a loaded machine it can land just
 * after the worker handed its card back. The render pool's own log says whether the worker held a
 * card when it died (`hadCard`); a miss is retried with a new card, once the replacement worker is
 * ready, and the misses are returned so the test can check their cards were answered 200.
 * `output` returns the log of every process in `rendererPids`.
 */
export async function crashWorkerMidCard(options: {
  gatewayUrl: string;
  apiKey: string;
  images: ImageServer;
  rendererPids: readonly number[];
  output: () => string;
  customTag: string;
}) {
  const misses: CardReply[] = [];
  for (let attempt = 1; attempt <= CRASH_ATTEMPTS; attempt += 1) {
    heavyImage(attempt);
    const body = { customBackground: `${options.images.url}${heavyPath(attempt)}`, customTag: options.customTag };
    const readyBefore = readyWorkers(options.output());
    const answered = new AbortController();
    const reply = postCard(options.gatewayUrl, options.apiKey, body);
    void reply.then(
      (settled) => answered.abort(new Error(`the card was answered before any worker drew it: ${settled.status} ${JSON.stringify(settled.body)}`)),
      (error: unknown) => answered.abort(error),
    );
    const killedPid = await killWorkerOnceDrawing(options.rendererPids, 'SIGSEGV', answered.signal);
    const settled = await reply;
    let lost = lostWorkers(options.output()).find((line) => line.pid === killedPid);
    while (lost === undefined) {
      await sleep(20);
      lost = lostWorkers(options.output()).find((line) => line.pid === killedPid);
    }
    if (lost.hadCard) return { killedPid, reply: settled, body, path: heavyPath(attempt), misses };
    misses.push(settled);
    // The replacement warms up on the CPU too: wait for it, or the next kill would aim at it.
    while (readyWorkers(options.output()) <= readyBefore) await sleep(20);
  }
  throw new Error(`no SIGSEGV caught a worker holding its card in ${CRASH_ATTEMPTS} attempts`);
}
