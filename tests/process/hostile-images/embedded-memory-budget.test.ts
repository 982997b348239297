/**
 * The embedded gateway's memory promise (docs/run-modes.md), over real HTTP with default render
 * settings: the gateway process and its render workers together stay under 1 GiB whatever the
 * cards, here the heaviest small downloads there are (three 16-megapixel frames in ~200 KB, as
 * APNG and GIF), two at a time; and a worker that has drawn such a card answers the next one as a
 * fresh worker would.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { loadGatewayConfig } from '../../../services/gateway/src/config.ts';
import { animatedImage, bigApng, BLUE, GREEN, RED, type Rgba } from '../../fixtures/images.ts';
import { readJson } from '../../helpers/test-gateway.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { startImageServer, type ImageServer } from '../../support/pipeline/image-server.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';
import { GIB, mebibytes, sampleProcessTrees, treeResidentBytes } from '../../support/hostile-images/process-memory.ts';

const API_KEY = 'memory-budget-key-0123456789';
const SIDE = 4000;
const COLORS = [RED, GREEN, BLUE];
/**
 * Half-transparent frames blended OVER the last and disposed to the PREVIOUS canvas: the APNG
 * composite's worst case, which holds the canvas, a saved copy of it and the decoded frame.
 */
const SEE_THROUGH: Rgba[] = COLORS.map(([red, green, blue]) => [red, green, blue, 128]);
const APNG_DISPOSE_PREVIOUS = 2;
const APNG_BLEND_OVER = 1;

let gateway: GatewayProcess;
let images: ImageServer;
let renderTimeoutMs: number;

test.before(async () => {
  const [apng, gif] = [bigApng(SIDE, SEE_THROUGH, { dispose: APNG_DISPOSE_PREVIOUS, blend: APNG_BLEND_OVER }), await animatedImage('gif', { width: SIDE, height: SIDE }, COLORS, COLORS.map(() => 100))];
  images = await startImageServer({
    '/big.png': (_request, respond) => respond(200, 'image/png', apng),
    '/big.gif': (_request, respond) => respond(200, 'image/gif', gif),
  });
  // Nothing about rendering is set (an empty value is unset): RENDER_WORKERS, the worker ceilings
  // and the budgets are the defaults.
  const env = { RENDER_WORKERS: '', FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RATE_LIMITS: 'off' };
  renderTimeoutMs = loadGatewayConfig(env).renderTimeoutMs;
  gateway = await startGatewayProcess({ env: { API_KEYS: API_KEY, ...env } });
});

test.after.always(async () => {
  await gateway?.stop();
  await images?.close();
});

/** One card; `tag` makes it distinct, so it is drawn again rather than shared or refused as a repeat. */
async function card(path: string, tag: string, animated: boolean): Promise<{ status: number; body: any }> {
  const response = await gateway.postCard(USER_ID, { customBackground: `${images.url}${path}`, customTag: tag, animated });
  return { status: response.status, body: await readJson(response) };
}

/** The tree once the cards are done and the pool has settled (a recycled worker restarting). */
async function settledTreeBytes(): Promise<number> {
  // sleep-ok: only logged (t.log), never asserted: a recycled worker restarting settles meanwhile.
  await sleep(3000);
  return treeResidentBytes(gateway.process.child.pid!);
}

for (const [kind, path] of [['APNG', '/big.png'], ['GIF', '/big.gif']] as const) {
  test.serial(`four cards with a ${kind} background of three ${SIDE}x${SIDE} frames, two at a time, keep the embedded tree under 1 GiB`, async (t) => {
    t.timeout(renderTimeoutMs * 4 + 60_000);
    // Every 10 ms: the peaks of two cards drawn side by side last a few hundred ms.
    const sampler = sampleProcessTrees([{ name: 'embedded gateway', pid: gateway.process.child.pid! }], 10);
    const replies = [];
    // Still and animated both: the still card decodes the first frame, the animated one every frame.
    for (const animated of [false, true]) {
      replies.push(...(await Promise.all([card(path, `${kind} ${animated} a`, animated), card(path, `${kind} ${animated} b`, animated)])));
    }
    const [peak] = sampler.stop();
    const idleAfter = await settledTreeBytes();
    t.log(`${kind}: peak tree RSS ${mebibytes(peak!.peakTreeBytes)} (${peak!.samples} samples), gateway VmHWM ${mebibytes(peak!.highWaterBytes)}, tree after the cards ${mebibytes(idleAfter)}`);
    t.log(`statuses: ${replies.map((reply) => reply.status).join(', ')}`);
    for (const reply of replies) t.is(reply.status, 200, JSON.stringify(reply.body).slice(0, 300));
    t.true(peak!.peakTreeBytes < GIB, `the tree peaked at ${mebibytes(peak!.peakTreeBytes)}`);
  });
}

test.serial('a worker that drew a big card answers the same card as a fresh worker does', async (t) => {
  t.timeout(renderTimeoutMs * 4 + 60_000);
  // Every worker has drawn big cards above; each answers the card again (distinct tags: drawn anew).
  const replies = [];
  for (const round of [1, 2]) replies.push(...(await Promise.all([card('/big.png', `again ${round} a`, true), card('/big.png', `again ${round} b`, true)])));
  t.log(`statuses: ${replies.map((reply) => reply.status).join(', ')}`);
  for (const reply of replies) t.is(reply.status, 200, JSON.stringify(reply.body).slice(0, 300));
});
