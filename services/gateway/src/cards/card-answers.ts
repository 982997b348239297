import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { DeadlineError } from '@utility-api/infra';
import { StorageUnavailableError, type MediaStore } from '@utility-api/media-store';
import { MEDIA_FORMATS, type MediaFormat, type RenderFailure } from '@utility-api/render-jobs';
import accepts from 'accepts';
import { ApiError, storageUnavailableError } from '../http/api-error.ts';
import { RenderQueueUnavailableError, RequestGoneError } from './rendering/render-queue.ts';
import { Reply, type HeaderValue } from '../http/endpoint.ts';

/**
 * What every card endpoint (profile and leaderboard images) answers the same way: content
 * negotiation over Accept, the stored image's bytes, the alt-text header, and render and queue
 * failures as the documented errors.
 */

const JSON_TYPE = 'application/json';
const IMAGE_FORMATS = Object.keys(MEDIA_FORMATS) as MediaFormat[];
export const IMAGE_TYPES = IMAGE_FORMATS.map((format) => MEDIA_FORMATS[format]);
/** The types an animated card can be: PNG and AVIF are never animated here, so Accept cannot pick them for one. */
const ANIMATED_IMAGE_TYPES = [MEDIA_FORMATS.webp, MEDIA_FORMATS.gif];
const formatOfType = (type: string) => IMAGE_FORMATS.find((format) => MEDIA_FORMATS[format] === type)!;

/** How the answer is sent: the JSON result (the spec's answer), or the card's bytes in a format. */
export type Answer = { kind: 'json' } | { kind: 'image'; format: MediaFormat };

/**
 * Content negotiation over `Accept`, q-values included (the `accepts` negotiator Koa itself uses).
 * JSON is offered first, so no `Accept`, `*\/*` or a tie answers JSON as the spec shows. Without a
 * `format` field, an image type chosen by `Accept` is the format; with one, only that format's
 * type is offered, so an `Accept` naming another image type is a 406 saying so.
 */
export function negotiateAnswer(headers: Record<string, HeaderValue>, format: MediaFormat | undefined, animated: boolean): Answer {
  const negotiator = accepts({ headers } as IncomingMessage);
  // The offered type the client prefers, or false when it accepts none of them.
  const best = (offered: string[]) => negotiator.types(offered) as string | false;
  const imageTypes = animated ? ANIMATED_IMAGE_TYPES : IMAGE_TYPES;
  const chosen = best(format === undefined ? [JSON_TYPE, ...imageTypes] : [JSON_TYPE, MEDIA_FORMATS[format]]);
  if (chosen === JSON_TYPE) return { kind: 'json' };
  if (chosen !== false) return { kind: 'image', format: formatOfType(chosen) };
  const asked = best(IMAGE_TYPES);
  if (format !== undefined && asked !== false) {
    throw new ApiError(
      'not_acceptable',
      `format is ${format} but Accept asks for ${asked}: leave format out (Accept then picks the format) or accept ${MEDIA_FORMATS[format]}.`,
      { details: [{ in: 'body', field: 'format', message: `contradicts Accept (${asked})` }] },
    );
  }
  if (animated && asked !== false) {
    throw new ApiError('not_acceptable', `animated is true but Accept asks for ${asked}, which cannot move: accept ${ANIMATED_IMAGE_TYPES.join(' or ')} or ${JSON_TYPE}.`, {
      details: [{ in: 'body', field: 'animated', message: `contradicts Accept (${asked})` }],
    });
  }
  throw new ApiError('not_acceptable', `Accept names nothing this endpoint answers with: ${[JSON_TYPE, ...imageTypes].join(', ')}.`);
}

/**
 * The alt text as an HTTP header: header values are ASCII, so it is sent as an RFC 8187 ext-value
 * (`UTF-8''` and percent-encoded UTF-8, escaping every octet outside attr-char). The renderer's alt
 * text has no lone surrogate, but this must never throw on what it is given (encodeURIComponent
 * throws URIError on one, which was a 500 after the card was drawn): any left is U+FFFD, as UTF-8 has it.
 */
export function rfc8187(text: string): string {
  return `UTF-8''${encodeURIComponent(text.toWellFormed()).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** A failed render as the documented error: the user id is a path field, any other field a body one named first. */
export function renderFailureToApiError(failure: RenderFailure): ApiError {
  const answer = { status: failure.status, retryAfterSeconds: failure.retryAfterSeconds };
  if (failure.field === undefined) return new ApiError(failure.code, failure.detail, answer);
  const where = failure.field === 'userId' ? 'path' : 'body';
  const message = where === 'path' ? failure.detail : `${failure.field}: ${failure.detail}`;
  return new ApiError(failure.code, message, { ...answer, details: [{ in: where, field: failure.field, message: failure.detail }] });
}

/**
 * The stored card as a stream, for an image answer (a POST's with `Accept: image/*`, a signed link's,
 * which any number of fetchers may read, an animated card of megabytes): its bytes pass through from
 * the store, never all in memory at once. Just rendered or reused from the last minutes, it is in the
 * store (kept for days). The headers come from the store's metadata (`size` is the Content-Length);
 * the store failing to open it is the same 503 as failing to store it, and one failing mid-stream
 * ends the connection (the length it promised is not reached, so no client takes a cut image for
 * whole).
 */
async function openStoredImage(store: MediaStore, key: string, format: MediaFormat) {
  let opened;
  try {
    opened = await store.open(key, format);
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw storageUnavailableError();
    throw error;
  }
  if (!opened) throw storageUnavailableError();
  return opened;
}

/**
 * A card answered as the image itself: the stored bytes streamed with their type, length and
 * tag from the store, after the card's own headers.
 */
export async function storedImageReply(store: MediaStore, card: { mediaKey: string; format: MediaFormat }, headers: Readonly<Record<string, string>>): Promise<Reply<Readable>> {
  const { body, object } = await openStoredImage(store, card.mediaKey, card.format);
  return new Reply<Readable>(200, body, { ...headers, 'Content-Type': object.contentType, 'Content-Length': String(object.size), ETag: object.etag }, card.format);
}

/** The queue's thrown outcomes as the documented errors; everything else stays a 500. */
export function queueErrorToApiError(error: unknown, renderTimeoutMs: number): unknown {
  if (error instanceof DeadlineError) {
    return new ApiError('render_timeout', `The card was not ready within ${renderTimeoutMs} ms. Retry the same request: a card already being drawn is reused; one still queued was withdrawn and queues again behind this key's other cards.`);
  }
  if (error instanceof RenderQueueUnavailableError) {
    return new ApiError('queue_unavailable', 'The render queue is unavailable. Please retry shortly.');
  }
  if (error instanceof RequestGoneError) {
    // Nobody reads this answer: the status (nginx's "client closed request") is for the access log.
    return new ApiError('client_closed_request', 'The client closed the request before the card was ready.');
  }
  return error;
}
