/**
 * Schema-driven fuzz: requests generated from the served document's own parameter and body
 * schemas (json-schema-faker, seeded), sent to a real gateway and judged by the document, as a
 * validating proxy would: every answer has a documented status and matches its documented JSON
 * schema, nothing is a 5xx, and a request the document calls valid is never refused as invalid.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import test from 'ava';
import { generate, type JsonSchema } from 'json-schema-faker';
import { loadContract, type OpenApiContract } from '../../helpers/openapi-contract.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

/** Requests per operation; cards cost a render each, so fewer of them. */
const SAMPLES = 24;
const CARD_SAMPLES = 8;
/** Image URLs in generated card bodies point here: refused as not public (422) without any network lookup. */
const UNREACHABLE_IMAGE = 'http://127.0.0.1:9/generated.png';

interface Parameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: JsonSchema;
}
interface Operation {
  path: string;
  method: string;
  operationId: string;
  parameters: Parameter[];
  body?: { schema: JsonSchema; required: boolean };
  statuses: Set<string>;
}

let gateway: TestGateway;
let contract: OpenApiContract;

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RATE_LIMITS: 'off' } });
  contract = await loadContract(gateway.url);
});
test.after.always(async () => {
  await gateway?.close();
});

/** A body schema with its `#/components/schemas/...` references replaced by what they name: the generator and ajv see it whole. */
function withComponentsInlined(schema: unknown, schemas: Record<string, unknown>, depth = 0): unknown {
  if (depth > 20) throw new Error('component references nest too deep');
  if (Array.isArray(schema)) return schema.map((item) => withComponentsInlined(item, schemas, depth));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  const named = typeof $ref === 'string' && $ref.startsWith('#/components/schemas/') ? schemas[$ref.slice('#/components/schemas/'.length)] : undefined;
  const own = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withComponentsInlined(value, schemas, depth)]));
  return named === undefined ? { ...($ref === undefined ? {} : { $ref }), ...own } : { ...(withComponentsInlined(named, schemas, depth + 1) as object), ...own };
}

function operationsOf(document: Record<string, any>): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const json = operation.requestBody?.content?.['application/json'];
      operations.push({
        path,
        method: method.toUpperCase(),
        operationId: operation.operationId as string,
        parameters: (operation.parameters ?? []) as Parameter[],
        ...(json ? { body: { schema: withComponentsInlined(json.schema, document.components?.schemas ?? {}) as JsonSchema, required: operation.requestBody.required === true } } : {}),
        statuses: new Set(Object.keys(operation.responses as object)),
      });
    }
  }
  return operations;
}

/** Replaces every generated http(s) URL (they name random hosts) with one refused at once. */
function withUnreachableImages(value: unknown): unknown {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? UNREACHABLE_IMAGE : value;
  if (Array.isArray(value)) return value.map(withUnreachableImages);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withUnreachableImages(inner)]));
  return value;
}

async function generatedRequest(operation: Operation, seed: number) {
  const options = { seed, optionalsProbability: 0.5, maxItems: 5 };
  let path = operation.path;
  const query = new URLSearchParams();
  for (const [index, parameter] of operation.parameters.entries()) {
    if (!parameter.required && (seed + index) % 2 === 0) continue;
    const value = await generate(parameter.schema, { ...options, seed: seed * 31 + index });
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else query.set(parameter.name, String(value));
  }
  const body = operation.body && (operation.body.required || seed % 3 !== 0) ? withUnreachableImages(await generate(operation.body.schema, options)) : undefined;
  return { url: `${path}${query.size > 0 ? `?${query.toString()}` : ''}`, body };
}

/**
 * 400s that answer what the input means rather than refusing its form, each written in its
 * operation's description: JSON Schema cannot say them.
 */
const SEMANTIC_ANSWERS: readonly { operationId: string; answer: RegExp; why: string }[] = [
  { operationId: 'jsonValidator', answer: /^\{"status":"invalid"/, why: 'its result for JSON text that does not parse to an object or array' },
  { operationId: 'ageCalculator', answer: /is not a real calendar date|is in the future/, why: 'days per month and "not in the future"' },
  // A pattern cannot say "not after now": ids whose timestamp lies in the future are refused, as the descriptions say.
  ...['createProfileImage', 'createProfileImageForUser'].map((operationId) => ({ operationId, answer: /is a Discord id from the future/, why: 'snowflake timestamps after the clock' })),
  // One field compared with another: `previousLevel` below `level`; rankData required by the levelup layout.
  ...['createProfileImage', 'createProfileImageForUser'].map((operationId) => ({ operationId, answer: /must be below level|is required when layout is levelup/, why: 'one field against another' })),
  // Discord objects checked against the card's own user id (a query or path field), the body's `guildId`, each other, and a JSON size bound, as their descriptions say.
  ...['createProfileImage', 'createProfileImageForUser'].map((operationId) => ({
    operationId,
    answer: /not the card's user id|, not guildId|but user\.id is|\(primary_color or primaryColor\)|bytes of JSON/,
    why: 'discordUser/discordMember ids against the request, one object against another',
  })),
  { operationId: 'createLeaderboardImage', answer: /must have the row's userId as its id|\(primary_color or primaryColor\)|bytes of JSON/, why: "a row's discordUser id against its userId" },
  // uniqueItems compares whole rows, not one field of them: a rank given twice is refused, as the schema's description says.
  { operationId: 'createLeaderboardImage', answer: /appears twice/, why: 'ranks unique across rows' },
  // `podium` draws the top three rows: it needs rows ranked 1, 2 and 3, as its description says.
  { operationId: 'createLeaderboardImage', answer: /a podium needs rows ranked 1, 2 and 3/, why: 'podium against the rows' },
  // A template's design is checked as a card body is: `animated` with a still-only `format` is refused, a rule between two fields.
  ...['createTemplate', 'updateTemplate'].map((operationId) => ({ operationId, answer: /when animated is true: \w+ cannot move/, why: 'animated with png or avif' })),
];

const ajv = new Ajv2020({ strict: false, allErrors: true });
/** Whether the document itself calls the generated request valid (json-schema-faker is not always exact). */
function documentAccepts(operation: Operation, request: { url: string; body: unknown }): boolean {
  const url = new URL(request.url, 'http://x');
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query') continue;
    const raw = url.searchParams.get(parameter.name);
    if (raw === null) {
      if (parameter.required) return false;
      continue;
    }
    const type = (parameter.schema as { type?: string }).type;
    const value = type === 'integer' || type === 'number' ? Number(raw) : type === 'boolean' ? raw === 'true' : raw;
    if (!ajv.validate(parameter.schema as object, value)) return false;
  }
  if (operation.body && request.body !== undefined && !ajv.validate(operation.body.schema as object, request.body)) return false;
  return true;
}

test('generated requests get documented answers that match the document, never a 5xx, and valid ones are never refused', async (t) => {
  const problems: string[] = [];
  let sent = 0;
  for (const operation of operationsOf(contract.document)) {
    const samples = operation.path.startsWith('/v1/profile-image') ? CARD_SAMPLES : SAMPLES;
    for (let seed = 1; seed <= samples; seed += 1) {
      const request = await generatedRequest(operation, seed);
      const response = await fetch(`${gateway.url}${request.url}`, {
        method: operation.method,
        headers: { Authorization: TEST_API_KEY, ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      sent += 1;
      const text = await response.text();
      const where = `${operation.method} ${request.url} ${request.body === undefined ? '' : JSON.stringify(request.body).slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
      if (response.status >= 500) problems.push(`5xx: ${where}`);
      if (!operation.statuses.has(String(response.status))) problems.push(`undocumented status: ${where}`);
      if (operation.method !== 'HEAD' && response.headers.get('content-type')?.startsWith('application/json')) {
        const errors = contract.check(operation.path, operation.method, response.status, JSON.parse(text));
        if (errors.length > 0) problems.push(`answer does not match the document (${errors.join('; ')}): ${where}`);
      }
      const semantic = SEMANTIC_ANSWERS.some((known) => known.operationId === operation.operationId && known.answer.test(text));
      if (response.status === 400 && !semantic && documentAccepts(operation, request)) problems.push(`valid by the document, refused by the server: ${where}`);
    }
  }
  t.log(`${sent} generated requests`);
  // One line per kind of problem (operation, status, first words of the answer), so a report stays readable.
  const kinds = new Map<string, string>();
  for (const problem of problems) kinds.set(problem.replace(/ (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\S+?)[?\s].*→ (\d+).*?"message":"([^"]{0,60}).*$/s, ' $1 $2 → $3 $4'), problem.slice(0, 600));
  t.deepEqual([...kinds.values()], []);
});
