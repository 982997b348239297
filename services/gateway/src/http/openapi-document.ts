import { ERROR_CATALOGUE, type ErrorCode, type ErrorEntry } from '@utility-api/api-errors';
import { z } from 'zod';
import { KEY_SCOPES, type KeyScope } from './key-scopes.ts';
import type { EndpointDefinition, HttpMethod, ResponseDoc } from './endpoint.ts';
import { errorBodySchema } from './error-body.ts';
import { CONTENT_ENCODINGS, MAX_BODY_BYTES, sizeText } from './endpoint-route.ts';

interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  /** Whether the deployment limits requests (the 429 and the `RateLimit-*` headers). */
  rateLimited: boolean;
  /** What callers authenticate with: an API key (`/v1`), or the account area's session cookie. */
  credential?: 'apiKey' | 'session';
}

const BODY_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

type JsonSchema = Record<string, unknown>;
type ResponseObject = { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> } | { $ref: string };

/**
 * OpenAPI 3.1 schema objects are JSON Schema 2020-12, which zod emits directly. `io` picks the
 * side of transforms to describe: clients send the input of a body and read the output of a
 * response; query fields are described by their parsed (typed) form.
 */
/**
 * Object shapes given a zod `id` (`.meta({ id })`), written once under `components.schemas` and
 * referenced from every place they appear. Only where it matters: the Discord objects accept each
 * nested object under both spellings (`avatar_decoration_data` and discord.js's
 * `avatarDecorationData`), and client generators that name an inline object after its property
 * (orval) would make two types of one name from them. Filled as documents are built: an id always
 * names the same schema.
 */
const NAMED_SCHEMAS = new Map<string, JsonSchema>();

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  delete generated.$schema;
  const definitions = generated.$defs as Record<string, JsonSchema> | undefined;
  delete generated.$defs;
  const referenced = (json: JsonSchema) => JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [id, definition] of Object.entries(definitions ?? {})) NAMED_SCHEMAS.set(id, withUntaggedUnionsAsAnyOf(referenced(definition)));
  return withUntaggedUnionsAsAnyOf(definitions === undefined ? generated : referenced(generated));
}

/** The named schemas the paths refer to. */
function namedSchemasIn(paths: object): Record<string, JsonSchema> {
  const used = new Set([...JSON.stringify(paths).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!));
  for (const id of [...used]) for (const [, inner] of JSON.stringify(NAMED_SCHEMAS.get(id) ?? {}).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) used.add(inner!);
  return Object.fromEntries([...NAMED_SCHEMAS].filter(([id]) => used.has(id)).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * zod writes a discriminated union as `oneOf`, which promises the variants can be told apart. A
 * variant may leave its tag out (a template body without `kind` is a profile design), and no
 * property every variant requires then names the variant: such a union is written `anyOf`. The
 * server's check is the same either way (zod picks the variant by the tag or its absence).
 */
function withUntaggedUnionsAsAnyOf(node: unknown): JsonSchema {
  if (Array.isArray(node)) return node.map(withUntaggedUnionsAsAnyOf) as unknown as JsonSchema;
  if (node === null || typeof node !== 'object') return node as JsonSchema;
  const entries = Object.entries(node).map(([key, value]) => [key, withUntaggedUnionsAsAnyOf(value)] as const);
  const result = Object.fromEntries(entries) as JsonSchema;
  const variants = result.oneOf;
  if (Array.isArray(variants) && !hasRequiredTag(variants as JsonSchema[])) {
    result.anyOf = variants;
    delete result.oneOf;
  }
  return result;
}

/** Whether one property is required by every variant, each with its own constant. */
function hasRequiredTag(variants: readonly JsonSchema[]): boolean {
  const [first, ...rest] = variants;
  const requiredByFirst = (first?.required as string[] | undefined) ?? [];
  return requiredByFirst.some((name) => {
    const constants = variants.map((variant) => ((variant.required as string[] | undefined)?.includes(name) ? (variant.properties as Record<string, JsonSchema> | undefined)?.[name]?.const : undefined));
    return rest.length > 0 && constants.every((value) => value !== undefined) && new Set(constants).size === constants.length;
  });
}

/** Headers that more than one response carries, described once under `components.headers`. */
const SHARED_HEADERS = {
  'X-Request-Id': {
    description: 'The id of this request in our logs, on every response (yours, when you sent a valid `X-Request-Id`); quote it when reporting a problem.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
  },
  'WWW-Authenticate': {
    description: 'The authentication challenge: `Bearer realm="utility-api"`, with `error="invalid_token"` when a key was sent but refused.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  Allow: { description: 'The methods this path serves, comma separated.', schema: { type: 'string' } },
} as const;

/** The rate-limit headers, present only in deployments that limit keys. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: "The key's budget for this endpoint: requests allowed per window.", schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends and the budget is full again.', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Policy': {
    description: 'The budget as `<limit>;w=<window in seconds>`, such as `600;w=60`.',
    schema: { type: 'string', pattern: '^\\d+;w=\\d+$' },
  },
} as const;

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * Answers any operation may get whatever it does, described once. Node's own parser answers 400
 * (not HTTP), 408 (the request did not arrive within `REQUEST_TIMEOUT_MS`) and 431 before routing;
 * the router answers 405 for a method the path does not serve.
 */
const SHARED_RESPONSES: Record<string, { status: number; codes: readonly ErrorCode[]; description?: string; headers?: readonly string[] }> = {
  BadRequest: { status: 400, codes: ['invalid_request', 'malformed_request'], description: 'A query parameter given twice is an `invalid_request` too.' },
  Unauthorized: { status: 401, codes: ['unauthorized'], headers: ['WWW-Authenticate'] },
  MethodNotAllowed: { status: 405, codes: ['method_not_allowed'], headers: ['Allow'] },
  RequestTimeout: { status: 408, codes: ['request_timeout'] },
  PayloadTooLarge: { status: 413, codes: ['payload_too_large'], description: `The limit is ${MAX_BODY_BYTES / 1024 / 1024} MB.` },
  UnsupportedMediaType: { status: 415, codes: ['unsupported_media_type'], description: `Content-Encoding may be ${CONTENT_ENCODINGS.filter((encoding) => encoding !== 'identity').join(', ')} or none.` },
  HeadersTooLarge: { status: 431, codes: ['headers_too_large'] },
  InternalError: { status: 500, codes: ['internal_error'] },
};

const RATE_LIMITED_DESCRIPTION = describeCodes(
  ['rate_limited', 'quota_exceeded'],
  '`Retry-After` says when to retry; the `RateLimit-*` headers are present when the key was the cause. Requests refused by the quota do not count against it.',
);

/** A key made for part of the API calling another part: one response per scope, so each operation names the scope it needs. */
const SCOPE_RESPONSES: Readonly<Record<KeyScope, { name: string; operations: string }>> = {
  cards: { name: 'CardsScopeForbidden', operations: 'the card operations' },
  utility: { name: 'UtilityScopeForbidden', operations: 'the utility operations' },
};

function scopeResponseComponents(): Record<string, ResponseObject> {
  return Object.fromEntries(
    KEY_SCOPES.map((scope) => [
      SCOPE_RESPONSES[scope].name,
      {
        description: describeCodes(
          ['key_scope_forbidden'],
          `This operation needs \`${scope}\` (${SCOPE_RESPONSES[scope].operations}). Checked right after the key, before any rate budget or quota is spent.`,
        ),
        headers: headersOf([]),
        content: ERROR_CONTENT,
      },
    ]),
  );
}

function sharedResponseComponents(rateLimited: boolean) {
  const components: Record<string, ResponseObject> = {};
  for (const [name, shared] of Object.entries(SHARED_RESPONSES)) {
    components[name] = { description: describeCodes(shared.codes, shared.description), headers: headersOf(shared.headers ?? []), content: ERROR_CONTENT };
  }
  Object.assign(components, scopeResponseComponents());
  if (rateLimited) {
    components.TooManyRequests = {
      description: RATE_LIMITED_DESCRIPTION,
      headers: { ...headersOf(['Retry-After']), ...rateLimitHeaderRefs() },
      content: ERROR_CONTENT,
    };
  }
  return components;
}

/** `X-Request-Id` first (every response has it), then the named shared headers. */
function headersOf(names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(['X-Request-Id', ...names].map((name) => [name, headerRef(name)]));
}

function rateLimitHeaderRefs(): Record<string, unknown> {
  return Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, headerRef(name)]));
}

function parameters(endpoint: EndpointDefinition) {
  return [...parametersIn(endpoint.params, 'path'), ...parametersIn(endpoint.query, 'query'), ...acceptParameter(endpoint)];
}

/** The binary types an endpoint's 200 may carry instead of JSON, chosen by `Accept` (none for most). */
function answerBinaryTypes(endpoint: EndpointDefinition): readonly string[] {
  // An answer that is only ever an image (a card link) has no JSON to choose against.
  const answer = endpoint.responses[200];
  return answer?.schema === undefined ? [] : (answer.binaryTypes ?? []);
}

/**
 * `Accept` written out for an operation whose answer it picks (the card: JSON or the image), so the
 * docs' try-it offers the types as a list to pick from. Its example is JSON, the answer without
 * `Accept`, so the samples shown still get the spec's JSON.
 */
function acceptParameter(endpoint: EndpointDefinition) {
  const binaryTypes = answerBinaryTypes(endpoint);
  if (binaryTypes.length === 0) return [];
  return [
    {
      name: 'Accept',
      in: 'header',
      required: false,
      description: `Picks the answer: \`application/json\` (the default, also for no \`Accept\` or \`*/*\`) or the image itself as ${binaryTypes.map((type) => `\`${type}\``).join(', ')}. Any \`Accept\` is negotiated (q-values, wildcards); these are the types offered.`,
      schema: { type: 'string', enum: ['application/json', ...binaryTypes] },
      example: 'application/json',
    },
  ];
}

/**
 * Scalar's try-it sends its own `Accept` (every type of the 200, JSON first) and appends the one the
 * reader picks to it, so JSON always won. This Scalar extension turns its own off for the
 * operations whose `Accept` parameter above says what to send.
 */
function scalarExtensions(endpoint: EndpointDefinition) {
  if (answerBinaryTypes(endpoint).length === 0) return {};
  return { 'x-scalar-disable-parameters': { 'default-headers': { default: { accept: true } } } };
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
  // No body reaches the schema as `{}`: the body is required exactly when `{}` is refused.
  return { required: !endpoint.body.safeParse({}).success, content };
}

function headerObject(description: string | { description: string; schema: JsonSchema }) {
  return typeof description === 'string' ? { description, schema: { type: 'string' } } : description;
}

/** An error answer's text: each of its codes with the catalogue's summary, then what the endpoint adds. */
function describeCodes(codes: readonly ErrorCode[], extra = ''): string {
  return [...codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].summary}`), ...(extra === '' ? [] : [extra])].join(' ');
}

const carriesRetryAfter = (codes: readonly ErrorCode[]) => codes.some((code) => (ERROR_CATALOGUE[code] as ErrorEntry).retryAfter !== 'never');

/** An endpoint's own response: its JSON (or binary) content, or the shared error body. */
function ownResponse(response: ResponseDoc): { description: string; headers: Record<string, unknown>; content: Record<string, unknown> } {
  const codes = response.codes ?? [];
  const headers: Record<string, unknown> = headersOf(response.retryAfter || carriesRetryAfter(codes) ? ['Retry-After'] : []);
  for (const [name, description] of Object.entries(response.headers ?? {})) headers[name] = headerObject(description);
  if (!response.schema && response.binaryTypes?.length) {
    return { description: response.description, headers, content: Object.fromEntries(response.binaryTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])) };
  }
  if (!response.schema) return { description: describeCodes(codes, response.description), headers, content: ERROR_CONTENT };
  const media: Record<string, unknown> = { schema: jsonSchemaOf(response.schema, 'output') };
  if (response.example !== undefined) media.example = response.example;
  const content: Record<string, unknown> = { 'application/json': media };
  for (const type of response.binaryTypes ?? []) content[type] = { schema: { type: 'string', contentMediaType: type } };
  return { description: response.description, headers, content };
}

function responses(endpoint: EndpointDefinition, method: HttpMethod, rateLimited: boolean) {
  const documented: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(endpoint.responses)) {
    const own = ownResponse(response);
    // 204 and 304 have no body at all (RFC 9110 §15.3.5, §15.4.5).
    if (status === '204' || status === '304') delete (own as { content?: unknown }).content;
    documented[status] = own;
  }
  const shared = (status: number, name: string) => {
    documented[String(status)] ??= responseRef(name);
  };
  if (endpoint.session) Object.assign(documented, sessionResponses(endpoint, method, documented));
  if (endpoint.maxBodyBytes !== undefined && endpoint.body && BODY_METHODS.includes(method)) {
    documented['413'] ??= ownResponse({ description: `The limit is ${sizeText(endpoint.maxBodyBytes)}.`, codes: ['payload_too_large'] });
  }
  shared(400, 'BadRequest');
  // A signed link carries no key header: it is never a 401, and its own 403s are documented with it.
  const keyed = endpoint.authenticated && !endpoint.admit;
  if (keyed) shared(401, 'Unauthorized');
  if (keyed && endpoint.scope !== undefined) shared(403, SCOPE_RESPONSES[endpoint.scope].name);
  shared(405, 'MethodNotAllowed');
  shared(408, 'RequestTimeout');
  if (endpoint.body && BODY_METHODS.includes(method)) {
    shared(413, 'PayloadTooLarge');
    shared(415, 'UnsupportedMediaType');
  }
  // A session endpoint is limited only where it names its limits (the playground's previews).
  if ((endpoint.authenticated || (endpoint.session !== undefined && endpoint.limits !== undefined)) && rateLimited) {
    shared(429, 'TooManyRequests');
    // Every answer past the key check says where the key stands in its budget.
    for (const [status, response] of Object.entries(documented)) {
      if ('$ref' in response || status === '401') continue;
      response.headers = { ...response.headers, ...rateLimitHeaderRefs(), ...(status === '429' ? headersOf(['Retry-After']) : {}) };
    }
  }
  shared(431, 'HeadersTooLarge');
  shared(500, 'InternalError');
  if (method === 'HEAD') {
    // HEAD answers carry the headers of the GET answer and no body.
    for (const [status, response] of Object.entries(documented)) {
      const resolved = '$ref' in response ? sharedResponseComponents(rateLimited)[response.$ref.split('/').pop() ?? '']! : response;
      if ('$ref' in resolved) continue;
      const { content: _body, ...withoutBody } = resolved;
      documented[status] = withoutBody;
    }
  }
  return Object.fromEntries(Object.entries(documented).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Methods a page may send without proving where it came from (see sessionCredential). */
const SAFE_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'OPTIONS'];

/**
 * What the session credential answers before an account-area endpoint runs: no session (401), a
 * changing request from elsewhere or without the CSRF token (403), and the account store away (503).
 */
function sessionResponses(endpoint: EndpointDefinition, method: HttpMethod, documented: Record<string, ResponseObject>): Record<string, ResponseObject> {
  const required = endpoint.session?.signedIn === 'required';
  const changing = !SAFE_METHODS.includes(method);
  const own: Record<string, ResponseObject> = {};
  if (required && documented['401'] === undefined) own['401'] = ownResponse({ description: 'The page goes to the sign-in page.', codes: ['not_signed_in'] });
  if (changing && documented['403'] === undefined) own['403'] = ownResponse({ description: 'Checked before the session.', codes: required ? ['cross_origin_refused', 'csrf_token_invalid'] : ['cross_origin_refused'] });
  if (documented['503'] === undefined) own['503'] = ownResponse({ description: 'Nothing was changed.', codes: ['store_unavailable'] });
  return own;
}

/** An operation's `security`: none for public ones, the session cookie for the account area's. */
function operationSecurity(endpoint: EndpointDefinition) {
  if (endpoint.session) return { security: endpoint.session.signedIn === 'required' ? [{ session: [] }] : [] };
  return endpoint.authenticated && !endpoint.admit ? {} : { security: [] };
}

/** The credential every operation needs unless it says otherwise. */
function securitySchemes(credential: DocumentInfo['credential']) {
  if (credential === 'session') {
    return {
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: 'session',
        description: 'The account area\'s session cookie (`__Host-session` over https), set by signing in. Changing requests also need the session\'s `X-CSRF-Token` (from `GET /account/api/me`) and an `Origin` of the area itself.',
      },
    };
  }
  return {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        'Your API key as the whole header value (`Authorization: <key>`); `Authorization: Bearer <key>` works too. Keys are made in the account area (`/account`); a self-hosted gateway started without `API_KEYS` prints a key for that run (`./run start`), and `./run keys create` makes more.',
    },
  };
}

/**
 * The docs renderer (Scalar) writes HEAD as `curl --request HEAD`, which makes curl wait for a body
 * that never comes; a HEAD operation carries its own sample, which the reference shows instead.
 */
function headCodeSamples(serverUrl: string, endpoint: EndpointDefinition) {
  const key = endpoint.authenticated ? " \\\n  --header 'Authorization: YOUR_SECRET_TOKEN'" : '';
  return [{ lang: 'curl', label: 'curl', source: `curl --head '${serverUrl}${endpoint.path}'${key}` }];
}

/** The operation id of one method of an endpoint: its own, with the method appended when it serves several. */
export function operationIdOf(endpoint: EndpointDefinition, method: HttpMethod): string {
  if (endpoint.methods.length === 1) return endpoint.operationId;
  return `${endpoint.operationId}${method[0]}${method.slice(1).toLowerCase()}`;
}

/** What each tag groups, for the docs' navigation. */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'Profile image': 'Profile and welcome cards for Discord bots: PNG, WebP, AVIF or GIF, still or animated.',
  Utilities: 'Small, fast answers: time, colours, JSON checks, random picks, text and number helpers, and the API status.',
  Templates:
    "Saved designs of your key's account, of a kind: a `profile` design is named as `template` in a card request, a signed link or a batch item, a `leaderboard` design in a leaderboard request; the request adds the member's fields (or the board's rows).",
  Account: "Your key's account: its plan, this month's quotas and what they have used, and this key's own usage.",
};

/** The OpenAPI 3.1 document, built from the same definitions (and zod schemas) that serve requests. */
export function buildOpenApiDocument(endpoints: readonly EndpointDefinition[], info: DocumentInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const endpoint of endpoints) {
    const pathItem = (paths[endpoint.path] ??= {});
    const operationParameters = parameters(endpoint);
    for (const method of endpoint.methods) {
      const body = BODY_METHODS.includes(method) ? requestBody(endpoint) : undefined;
      const operationTags = endpoint.tags ?? ['Utilities'];
      for (const tag of operationTags) tags.add(tag);
      pathItem[method.toLowerCase()] = {
        operationId: operationIdOf(endpoint, method),
        // One path answering several methods gets one entry per method in the docs' navigation: name the method.
        summary: endpoint.methods.length > 1 ? `${endpoint.summary} (${method})` : endpoint.summary,
        description: endpoint.description,
        tags: operationTags,
        ...operationSecurity(endpoint),
        ...(operationParameters.length > 0 ? { parameters: operationParameters } : {}),
        ...(body ? { requestBody: body } : {}),
        responses: responses(endpoint, method, info.rateLimited),
        ...scalarExtensions(endpoint),
        ...(method === 'HEAD' ? { 'x-codeSamples': headCodeSamples(info.serverUrl, endpoint) } : {}),
      };
    }
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      contact: { name: `${info.title} support`, url: `${info.serverUrl}/docs` },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: info.serverUrl, description: 'This deployment' }],
    security: [info.credential === 'session' ? { session: [] } : { apiKey: [] }],
    tags: [...tags].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      securitySchemes: securitySchemes(info.credential),
      schemas: { Error: jsonSchemaOf(errorBodySchema, 'output'), ...namedSchemasIn(paths) },
      headers: { ...SHARED_HEADERS, ...(info.rateLimited ? RATE_LIMIT_HEADERS : {}) },
      responses: sharedResponseComponents(info.rateLimited),
    },
  };
  return withoutUnusedComponents(document);
}

/**
 * Drops the shared responses and headers no operation refers to (an endpoint may describe its own
 * 400, say), so the document lists nothing a client will never meet. Responses go first: a
 * dropped response may have been the only user of a header.
 */
function withoutUnusedComponents<Document extends { paths: object; components: { responses: object; headers: object } }>(document: Document): Document {
  const referenced = (json: unknown, kind: string) => new Set([...JSON.stringify(json).matchAll(new RegExp(`"#/components/${kind}/([^"]+)"`, 'g'))].map((match) => match[1]));
  const usedResponses = referenced(document.paths, 'responses');
  const responses = Object.fromEntries(Object.entries(document.components.responses).filter(([name]) => usedResponses.has(name)));
  const usedHeaders = referenced([document.paths, responses], 'headers');
  const headers = Object.fromEntries(Object.entries(document.components.headers).filter(([name]) => usedHeaders.has(name)));
  return { ...document, components: { ...document.components, responses, headers } };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
