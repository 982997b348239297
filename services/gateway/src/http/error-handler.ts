import type { Middleware } from 'koa';
import { ApiError } from '../errors/api-error.ts';
import { errorBody } from '../errors/error-body.ts';
import type { GatewayState } from './gateway-state.ts';
import { resetToApiResponseHeaders } from './response-headers.ts';

const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

interface HttpishError {
  status?: unknown;
  expose?: unknown;
  message?: unknown;
}

/** Errors from libraries (http-errors, co-body) that are safe to show: a 4xx they marked as exposed. */
function asClientError(error: unknown): ApiError | undefined {
  const candidate = error as HttpishError | null;
  if (!candidate || typeof candidate.status !== 'number' || candidate.status < 400 || candidate.status >= 500) return undefined;
  if (candidate.expose !== true) return undefined;
  const message = typeof candidate.message === 'string' ? candidate.message : 'The request could not be processed.';
  return new ApiError(candidate.status, STATUS_CODES[candidate.status] ?? 'client_error', message, { cause: error });
}

/**
 * The single place errors become responses. ApiErrors carry their public text; any other failure
 * is logged with its stack and answered with a bare 500 that only names the request id. Headers a
 * route set for the answer it did not finish (an image's caching, its ETag) are dropped.
 */
export function errorHandler(): Middleware<GatewayState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const apiError = error instanceof ApiError ? error : asClientError(error);
      const requestId = ctx.state.requestId;
      resetToApiResponseHeaders(ctx);
      if (apiError) {
        if (apiError.status >= 500) ctx.state.log.error({ err: error }, apiError.message);
        else ctx.state.log.debug({ code: apiError.code }, apiError.message);
        ctx.status = apiError.status;
        ctx.set(apiError.headers);
        ctx.body = errorBody(apiError.status, apiError.code, apiError.message, requestId, apiError.details);
        return;
      }
      ctx.state.log.error({ err: error }, 'unhandled error');
      ctx.status = 500;
      ctx.body = errorBody(
        500,
        'internal_error',
        'Something went wrong on our side. If it keeps happening, report this request id.',
        requestId,
      );
    }
  };
}
