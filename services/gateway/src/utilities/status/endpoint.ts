import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import { probeBackingStore, type BackingStore, type BackingStoreHealth } from '../../runtime/backing-store.ts';
import { defineEndpoint, type HeaderValue, type HttpMethod, type RequestSnapshot } from '../../http/endpoint.ts';

const STATUS_PATH = '/v1/status';
const STATUS_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A store answering slower than this is reported as `slow`. */
const GOOD_STORE_LATENCY_MS = 50;
/** Handling slower than this is reported as not `latencyStable`. */
const STABLE_LATENCY_MS = 100;
const STORE_PING_TIMEOUT_MS = 1000;

/** Credentials are never echoed back: a status response may end up in a log or a screenshot. */
export const REDACTED_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'] as const;

export function redactHeaders(headers: Record<string, HeaderValue>): Record<string, string | string[]> {
  const echoed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    // Node lowercases header names, but a snapshot from elsewhere might not: compare case-insensitively.
    echoed[name] = (REDACTED_HEADERS as readonly string[]).includes(name.toLowerCase()) ? '[redacted]' : value;
  }
  return echoed;
}

const resultSchema = z.object({
  status: z.enum(['online', 'degraded']),
  latencyStable: z.boolean(),
  latency: z.string(),
  current_time: z.string(),
  version: z.literal('v1'),
  environment: z.string(),
  database: z.object({ status: z.enum(['online', 'offline']), latency: z.enum(['good', 'slow', 'unavailable']) }),
  request_details: z.object({
    method: z.string(),
    status_code: z.number().int(),
    url: z.string(),
    path: z.string(),
    root_url: z.string(),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    body: z.record(z.string(), z.unknown()),
    headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  }),
});

export type StatusResult = z.infer<typeof resultSchema>;

export interface StatusFacts {
  request: RequestSnapshot;
  body: Record<string, unknown>;
  store: BackingStoreHealth;
  environment: string;
  nowEpochMs: number;
  /** Milliseconds from the request's arrival to the moment the answer was assembled. */
  handlingMs: number;
}

export function describeStatus(facts: StatusFacts): StatusResult {
  const { request, store } = facts;
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.query)) if (value !== undefined) query[name] = value;
  // latencyStable judges the latency as shown, so "100.00ms" is never reported as stable.
  const latency = facts.handlingMs.toFixed(2);
  return {
    status: store.online ? 'online' : 'degraded',
    latencyStable: Number(latency) < STABLE_LATENCY_MS,
    latency: `${latency}ms`,
    current_time: new Date(facts.nowEpochMs).toISOString(),
    version: 'v1',
    environment: facts.environment,
    database: {
      status: store.online ? 'online' : 'offline',
      latency: !store.online ? 'unavailable' : store.latencyMs < GOOD_STORE_LATENCY_MS ? 'good' : 'slow',
    },
    request_details: {
      method: request.method,
      status_code: 200,
      url: request.url,
      path: request.path,
      root_url: STATUS_PATH,
      query,
      body: facts.body,
      headers: redactHeaders(request.headers),
    },
  };
}

export function statusEndpoint(dependencies: { store: BackingStore; environment: string; clock: Clock }) {
  return defineEndpoint({
    operationId: 'status',
    methods: STATUS_METHODS,
    path: STATUS_PATH,
    summary: 'API health, and an echo of the request',
    description: [
      `Answers ${STATUS_METHODS.join(', ')} alike (HEAD gets the headers only). A body may be JSON (an object) or a form;`,
      'other content types are a 415 and a JSON body that is not an object is a 400. `status` is `online` when the backing store',
      `answers and \`degraded\` when it does not (the light endpoints keep working). \`database.status\` is \`online\` or \`offline\`;`,
      `\`database.latency\` is \`good\` under ${GOOD_STORE_LATENCY_MS} ms, \`slow\` above, \`unavailable\` when offline.`,
      '`latency` is the measured time from the request reaching the API to this answer being assembled, in milliseconds with two',
      `decimals; \`latencyStable\` is true when it is under ${STABLE_LATENCY_MS} ms. \`environment\` is the deployment label`,
      '(`DEPLOYMENT_ENVIRONMENT`, default `prod`). `request_details.headers` echoes the request headers as received (lowercase),',
      `except that the values of ${REDACTED_HEADERS.map((name) => `\`${name}\``).join(', ')} are replaced by \`[redacted]\`.`,
      '`request_details.url` is the path with the query string; `query` holds repeated parameters as arrays.',
    ].join(' '),
    authenticated: true,
    body: z.record(z.string(), z.unknown(), { error: 'must be a JSON object or a form' }),
    bodyEncodings: ['json', 'form'],
    responses: {
      200: {
        description: 'Health and the echoed request.',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          status: 'online',
          latencyStable: true,
          latency: '0.59ms',
          current_time: '2024-06-15T12:00:00.000Z',
          version: 'v1',
          environment: 'prod',
          database: { status: 'online', latency: 'good' },
          request_details: {
            method: 'GET',
            status_code: 200,
            url: '/v1/status',
            path: '/v1/status',
            root_url: '/v1/status',
            query: {},
            body: {},
            headers: { host: 'api.example.com', authorization: '[redacted]', accept: '*/*', 'user-agent': 'curl/8.5.0' },
          },
        },
      },
      400: { description: 'A JSON body that is not an object, or malformed JSON.' },
    },
    handle: async ({ request, body }) => {
      const store = await probeBackingStore(dependencies.store, STORE_PING_TIMEOUT_MS);
      const { environment, clock } = dependencies;
      return describeStatus({ request, body, store, environment, nowEpochMs: clock.now(), handlingMs: performance.now() - request.receivedAt });
    },
  });
}
