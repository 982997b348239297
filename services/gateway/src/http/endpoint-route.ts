import type { Middleware } from 'koa';
import type { EndpointDefinition, RequestSnapshot } from '../endpoints/endpoint.ts';
import { Reply } from '../endpoints/endpoint.ts';
import { validationError, type FieldProblem } from '../errors/api-error.ts';
import { bodyParser, MalformedBodyError } from './body-parser.ts';
import type { GatewayState } from './gateway-state.ts';
import { problemsFromZod, singleValuedQuery } from './input-problems.ts';

/**
 * Adapts an endpoint definition to Koa: parse and validate the query and body with the
 * endpoint's own schemas, call its handler, and write what it returns.
 */
export function endpointRoute(endpoint: EndpointDefinition): Middleware<GatewayState> {
  const parseBody = endpoint.body ? bodyParser(endpoint.bodyEncodings ?? ['json']) : undefined;
  const queryNames = endpoint.query ? Object.keys(endpoint.query.shape) : [];

  const rejectInput = (problems: readonly FieldProblem[]) => {
    if (endpoint.onInvalidInput) return endpoint.onInvalidInput(problems);
    throw validationError(problems);
  };

  return async (ctx) => {
    if (parseBody) {
      try {
        await parseBody(ctx, async () => {});
      } catch (error) {
        if (error instanceof MalformedBodyError && endpoint.onMalformedBody) {
          writeReply(ctx, endpoint.onMalformedBody());
          return;
        }
        throw error;
      }
    }

    const problems: FieldProblem[] = [];
    let query: Record<string, unknown> = {};
    if (endpoint.query) {
      const single = singleValuedQuery(ctx.query, queryNames);
      problems.push(...single.problems);
      const parsed = endpoint.query.safeParse(single.values);
      if (parsed.success) query = parsed.data;
      else {
        // A repeated parameter was left out of the values; its "is required" would only repeat the problem.
        const repeated = new Set(single.problems.map((problem) => problem.field));
        problems.push(...problemsFromZod(parsed.error, 'query').filter((problem) => !repeated.has(problem.field)));
      }
    }
    let params: Record<string, unknown> = {};
    if (endpoint.params) {
      const parsed = endpoint.params.safeParse(ctx.params ?? {});
      if (parsed.success) params = parsed.data;
      else problems.push(...problemsFromZod(parsed.error, 'path'));
    }
    let body: unknown;
    if (endpoint.body) {
      const parsed = endpoint.body.safeParse(ctx.request.body ?? {});
      if (parsed.success) body = parsed.data;
      else problems.push(...problemsFromZod(parsed.error, 'body'));
    }
    if (problems.length > 0) {
      writeReply(ctx, rejectInput(problems));
      return;
    }

    const request: RequestSnapshot = {
      method: ctx.method,
      url: ctx.originalUrl,
      path: ctx.path,
      query: ctx.query,
      headers: ctx.headers,
      receivedAt: ctx.state.receivedAt,
      requestId: ctx.state.requestId,
    };
    const pending: unknown = endpoint.handle({ query, body, params, request });
    // Most handlers are synchronous; awaiting their plain value would still cost a microtask turn.
    const result: unknown = pending instanceof Promise ? ((await pending) as unknown) : pending;
    if (result instanceof Reply) writeReply(ctx, result);
    else ctx.body = result;
  };
}

function writeReply(ctx: Parameters<Middleware<GatewayState>>[0], reply: Reply<unknown>): void {
  ctx.status = reply.status;
  ctx.set(reply.headers);
  ctx.body = reply.body;
}
