import { z } from 'zod';
import type { EndpointDefinition, HttpMethod } from '../endpoints/endpoint.ts';
import { errorBodySchema } from '../errors/error-body.ts';

interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  /** Whether the deployment limits requests (the 429 and the `RateLimit-*` headers). */
  rateLimited: boolean;
}

const BODYLESS: readonly HttpMethod[] = ['GET', 'HEAD', 'OPTIONS'];

type JsonSchema = Record<string, unknown>;

/**
 * OpenAPI 3.1 schema objects are JSON Schema 2020-12, which zod emits directly. `io` picks the
 * side of transforms to describe: clients send the input of a body and read the output of a
 * response; query fields are described by their parsed (typed) form.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  delete generated.$schema;
  return generated;
}

/** The rate-limit headers and the 429 response, as the document describes them. */
const RATE_LIMIT_HEADER_COMPONENTS = {
  'RateLimit-Limit': { description: "The key's budget for this endpoint: requests allowed per window.", schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends and the budget is full again.', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Policy': {
    description: 'The budget as `<limit>;w=<window in seconds>`, such as `600;w=60`.',
    schema: { type: 'string', pattern: '^\\d+;w=\\d+$' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
} as const;

const headerRef = (name: keyof typeof RATE_LIMIT_HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

/** On every response of an authenticated operation that got past the key check. */
const RATE_LIMIT_HEADERS = Object.fromEntries(
  (['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'] as const).map((name) => [name, headerRef(name)]),
);
const RATE_LIMITED_HEADERS = { 'Retry-After': headerRef('Retry-After'), ...RATE_LIMIT_HEADERS };
const RATE_LIMITED_DESCRIPTION =
  "Rate limited (code `rate_limited`): the key's budget for this endpoint is used up, or this client address sent too many " +
  'wrong keys. `Retry-After` says when to retry; the `RateLimit-*` headers are present when the key was the cause.';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

function parameters(endpoint: EndpointDefinition) {
  return [...parametersIn(endpoint.params, 'path'), ...parametersIn(endpoint.query, 'query')];
}

function parametersIn(schema: z.ZodObject | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const schema = jsonSchemaOf(field, 'output');
    const { description, examples, ...rest } = schema;
    return {
      name,
      in: location,
      // Whether a query field may be left out is read from the schema itself rather than repeated.
      required: location === 'path' || !field.safeParse(undefined).success,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] as unknown } : {}),
    };
  });
}

function requestBody(endpoint: EndpointDefinition) {
  if (!endpoint.body) return undefined;
  const schema = jsonSchemaOf(endpoint.body, 'input');
  const encodings = endpoint.bodyEncodings ?? ['json'];
  const content: Record<string, { schema: JsonSchema; example?: unknown }> = {};
  if (encodings.includes('json')) {
    content['application/json'] = endpoint.bodyExample === undefined ? { schema } : { schema, example: endpoint.bodyExample };
  }
  if (encodings.includes('form')) content['application/x-www-form-urlencoded'] = { schema };
  return { required: false, content };
}

function responses(endpoint: EndpointDefinition, rateLimited: boolean) {
  const documented: Record<string, Record<string, unknown>> = {};
  for (const [status, response] of Object.entries(endpoint.responses)) {
    if (!response.schema) {
      documented[status] = errorResponse(response.description);
      continue;
    }
    const media: Record<string, unknown> = { schema: jsonSchemaOf(response.schema, 'output') };
    if (response.example !== undefined) media.example = response.example;
    const content: Record<string, unknown> = { 'application/json': media };
    for (const type of response.binaryTypes ?? []) content[type] = { schema: { type: 'string', contentMediaType: type } };
    documented[status] = { description: response.description, content };
    if (response.headers) {
      documented[status].headers = Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
    }
  }
  if (endpoint.authenticated) {
    documented['401'] ??= errorResponse('Missing or invalid API key. Carries a `WWW-Authenticate` header.');
  }
  if (endpoint.authenticated && rateLimited) {
    for (const [status, response] of Object.entries(documented)) {
      if (status !== '401') response.headers = { ...RATE_LIMIT_HEADERS, ...(response.headers as object | undefined) };
    }
    // An endpoint that documents its own 429 (more reasons than the budget) still gets its headers.
    const own429 = documented['429'];
    if (own429) own429.headers = { ...RATE_LIMITED_HEADERS, ...(own429.headers as object | undefined) };
    else documented['429'] = { ...errorResponse(RATE_LIMITED_DESCRIPTION), headers: RATE_LIMITED_HEADERS };
  }
  documented['500'] ??= errorResponse('An unexpected failure on our side; the body names only the request id.');
  return documented;
}

/**
 * The docs renderer (Scalar) writes HEAD as `curl --request HEAD`, which makes curl wait for a body
 * that never comes; a HEAD operation carries its own sample, which the reference shows instead.
 */
function headCodeSamples(serverUrl: string, endpoint: EndpointDefinition) {
  const key = endpoint.authenticated ? " \\\n  --header 'Authorization: YOUR_SECRET_TOKEN'" : '';
  return [{ lang: 'curl', label: 'curl', source: `curl --head '${serverUrl}${endpoint.path}'${key}` }];
}

function operationId(endpoint: EndpointDefinition, method: HttpMethod): string {
  if (endpoint.methods.length === 1) return endpoint.operationId;
  return `${endpoint.operationId}${method[0]}${method.slice(1).toLowerCase()}`;
}

/** The OpenAPI 3.1 document, built from the same definitions (and zod schemas) that serve requests. */
export function buildOpenApiDocument(endpoints: readonly EndpointDefinition[], info: DocumentInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const pathItem = (paths[endpoint.path] ??= {});
    const operationParameters = parameters(endpoint);
    for (const method of endpoint.methods) {
      const body = BODYLESS.includes(method) ? undefined : requestBody(endpoint);
      pathItem[method.toLowerCase()] = {
        operationId: operationId(endpoint, method),
        summary: endpoint.summary,
        description: endpoint.description,
        tags: endpoint.tags ?? ['Utilities'],
        ...(endpoint.authenticated ? {} : { security: [] }),
        ...(operationParameters.length > 0 ? { parameters: operationParameters } : {}),
        ...(body ? { requestBody: body } : {}),
        responses: responses(endpoint, info.rateLimited),
        ...(method === 'HEAD' ? { 'x-codeSamples': headCodeSamples(info.serverUrl, endpoint) } : {}),
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Your API key as the whole header value (`Authorization: <key>`); `Authorization: Bearer <key>` works too.',
        },
      },
      schemas: { Error: jsonSchemaOf(errorBodySchema, 'output') },
      ...(info.rateLimited ? { headers: RATE_LIMIT_HEADER_COMPONENTS } : {}),
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
