import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { BodyEncoding } from '../endpoints/endpoint.ts';
import { ApiError } from '../errors/api-error.ts';
import { exceedsJsonDepth } from './json-depth.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;

const MEDIA_TYPES: Record<BodyEncoding, readonly string[]> = {
  json: ['application/json', 'application/*+json'],
  form: ['application/x-www-form-urlencoded'],
};

export class MalformedBodyError extends ApiError {
  constructor(message: string) {
    super(400, 'malformed_body', message);
  }
}

interface CoBodyError {
  status?: number;
  type?: string;
  message?: string;
}

function bodyError(error: CoBodyError): ApiError {
  switch (error.type) {
    case 'entity.too.large':
      return new ApiError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new ApiError(415, 'unsupported_media_type', 'The body must be UTF-8 text without a content encoding.');
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError(400, 'incomplete_body', 'The request body ended before its declared length.');
    default:
      // co-body parses with @hapi/bourne, which refuses prototype-poisoning keys outright.
      if (error.message?.includes('forbidden prototype property')) {
        return new MalformedBodyError('The JSON body has a "__proto__" key, which is refused.');
      }
      return new MalformedBodyError('The request body is not valid JSON.');
  }
}

/**
 * Reads the body of POST, PUT, PATCH and DELETE requests into `ctx.request.body`, accepting only
 * the listed encodings (anything else is a 415) and rejecting bodies over 1 MB (413) or nested
 * deeper than MAX_JSON_DEPTH (400), so no later code walks an unbounded structure.
 * A request with no body leaves `ctx.request.body` undefined.
 */
export function bodyParser(encodings: readonly BodyEncoding[]): Middleware {
  const mediaTypes = encodings.flatMap((encoding) => MEDIA_TYPES[encoding]);
  const parse = koaBody({
    json: encodings.includes('json'),
    urlencoded: encodings.includes('form'),
    text: false,
    multipart: false,
    jsonStrict: true,
    jsonLimit: MAX_BODY_BYTES,
    formLimit: MAX_BODY_BYTES,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    onError: (error) => {
      throw bodyError(error);
    },
  });
  return async (ctx: ParameterizedContext, next: Next): Promise<void> => {
    // `Content-Length: 0` counts as no body, whatever the content type says (or does not say).
    const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) && ctx.request.length !== 0;
    const matched = hasBody ? ctx.request.is(mediaTypes) : null;
    if (matched === null) {
      await next();
      return;
    }
    if (matched === false) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Send the body as ${encodings.map((encoding) => MEDIA_TYPES[encoding][0]).join(' or ')}.`,
      );
    }
    await parse(ctx, async () => {});
    if (exceedsJsonDepth(ctx.request.body, MAX_JSON_DEPTH)) {
      throw new ApiError(400, 'body_too_deep', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    }
    await next();
  };
}
