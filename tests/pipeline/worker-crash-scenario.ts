import { heavyProgressiveJpeg } from '../helpers/heavy-jpeg.ts';
import { killWorkerOnceDrawing } from '../helpers/render-workers.ts';
import { startImageServer, type ImageServer } from './image-server.ts';
import { USER_ID } from './profile-image-suite.ts';

export const HEAVY_PATH = '/heavy.jpg';

/** Serves one heavy-but-legal background (see heavyProgressiveJpeg) at HEAVY_PATH. */
export async function startHeavyImageServer(): Promise<ImageServer> {
  const heavy = heavyProgressiveJpeg(7);
  return startImageServer({ [HEAVY_PATH]: (_request, respond) => respond(200, 'image/jpeg', heavy) });
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

/**
 * Asks for a card with the heavy background and SIGSEGVs the render worker (a child of one of
 * `rendererPids`) that starts drawing it: the card is caught in the act, after its image was
 * fetched, while it decodes. Returns the killed worker's pid and the card's answer.
 */
export async function crashWorkerMidCard(options: { gatewayUrl: string; apiKey: string; images: ImageServer; rendererPids: readonly number[]; customTag: string }) {
  const answered = new AbortController();
  const reply = postCard(options.gatewayUrl, options.apiKey, { customBackground: `${options.images.url}${HEAVY_PATH}`, customTag: options.customTag });
  void reply.then(
    (settled) => answered.abort(new Error(`the card was answered before any worker drew it: ${settled.status} ${JSON.stringify(settled.body)}`)),
    (error: unknown) => answered.abort(error),
  );
  const killedPid = await killWorkerOnceDrawing(options.rendererPids, 'SIGSEGV', answered.signal);
  return { killedPid, reply: await reply };
}
