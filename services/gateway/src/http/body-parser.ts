import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { BodyEncoding } from '../endpoints/endpoint.ts';
import { ApiError } from '../errors/api-error.ts';
import { exceedsJsonDepth } from './json-depth.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

/** Body encodings undone before parsing; the size limit applies to the decoded bytes. */
export const CONTENT_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;

function bodyError(error: CoBodyError): ApiError {
  switch (error.type) {
    case 'entity.too.large':
      return new ApiError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', 'The body must be UTF-8 text.');
    case 'encoding.unsupported':
      return unsupportedEncoding();
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError(400, 'incomplete_body', 'The request body ended before its declared length.');
    default:
      // The decompressor refuses an unknown Content-Encoding with a bare 415 and no type.
      if (error.status === 415) return unsupportedEncoding();
      // co-body parses with @hapi/bourne, which refuses prototype-poisoning keys outright.
      if (error.message?.includes('forbidden prototype property')) {
        return new MalformedBodyError('The JSON body has a "__proto__" key, which is refused.');
      }
      return new MalformedBodyError('The request body is not valid JSON.');
  }
}

function unsupportedEncoding(): ApiError {
  return new ApiError(415, 'unsupported_media_type', `Send the body with a Content-Encoding of ${CONTENT_ENCODINGS.join(', ')}, or none.`);
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
    const hasBody = BODY_METHODS.has(ctx.method) && ctx.request.length !== 0;
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
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      // A failed read can leave the rest of the body on the wire (a compressed body stops being read
      // once it inflates past the limit, or at its first corrupt byte): the connection cannot carry
      // another request, and saying so keeps a keep-alive client from sending one into a closing socket.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      throw error;
    }
    if (exceedsJsonDepth(ctx.request.body, MAX_JSON_DEPTH)) {
      throw new ApiError(400, 'body_too_deep', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    }
    await next();
  };
}
