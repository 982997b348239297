import { z } from 'zod';
import { errorBodySchema } from '../../http/error-body.ts';
import { defineEndpoint, Reply } from '../../http/endpoint.ts';

const MESSAGES = {
  valid: 'The JSON is correctly formatted.',
  empty: 'The JSON is empty but valid.',
  missing: 'Please provide a JSON in the request body, as the value of the "json" field.',
  malformed: 'The JSON is incorrectly formatted.',
  notContainer: 'The JSON is incorrectly formatted: it must be an object or an array.',
} as const;

/** The problem a missing `json` field reports, told apart from a `json` of the wrong type. */
const MISSING_FIELD = 'is required';

const jsonValue = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.string()], {
  error: (issue) => (issue.input === undefined ? MISSING_FIELD : 'must be an object, an array or a string of JSON text'),
}).meta({
  description: 'The JSON to check: an object or an array, or a string holding JSON text (which is parsed and checked).',
  examples: [{ name: 'Ada', roles: ['admin'] }],
});

// Required, so the document says so; a missing field is still answered with this endpoint's own 400.
const bodySchema = z.object({ json: jsonValue });

const resultSchema = z.object({
  status: z.enum(['valid', 'invalid']),
  message: z.string(),
  jsonType: z.enum(['object', 'array', 'N/A']),
});

export type JsonValidationResult = z.infer<typeof resultSchema>;
export type JsonValidatorBody = z.infer<typeof bodySchema>;

function invalid(message: string): Reply<JsonValidationResult> {
  return new Reply(400, { status: 'invalid', message, jsonType: 'N/A' });
}

export function validateJson(body: JsonValidatorBody): JsonValidationResult | Reply<JsonValidationResult> {
  let value: unknown = body.json;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return invalid(MESSAGES.malformed);
    }
  }
  if (value === null || typeof value !== 'object') return invalid(MESSAGES.notContainer);
  const jsonType = Array.isArray(value) ? 'array' : 'object';
  const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
  return { status: 'valid', message: empty ? MESSAGES.empty : MESSAGES.valid, jsonType };
}

export function jsonValidatorEndpoint() {
  return defineEndpoint({
    operationId: 'jsonValidator',
    methods: ['POST'],
    path: '/v1/json-validator',
    summary: 'Check that a JSON object or array is valid, empty or malformed',
    description: [
      'Send `{"json": <value>}` as a JSON body. An object or array is `valid` (`jsonType` `object` or `array`);',
      'an empty one is valid with the message that it is empty. `json` may also be a string holding JSON text,',
      'which is parsed: text that does not parse, or parses to something other than an object or array, is `invalid`.',
      'A request body that is not valid JSON at all is answered like a malformed `json` (400, `invalid`, `jsonType` `N/A`),',
      'and a missing `json` field (or a body that is JSON but not an object: an array, a number, a string) asks for a JSON.',
      'Those 400s use this endpoint\'s own body, not the shared error body; only the authentication (401), nesting-depth',
      '(400 `body_too_deep`: the request body nested deeper than 32 levels, so a `json` value deeper than 31 inside its',
      '`{"json": …}` object), truncated-body (400 `incomplete_body`), size (413) and content-type (415) errors use the',
      'shared one. JSON text inside a string is parsed without that depth limit (the 1 MB body limit bounds it).',
    ].join(' '),
    authenticated: true,
    body: bodySchema,
    bodyExample: { json: { name: 'Ada', roles: ['admin'] } },
    // A body that is JSON but not an object (`5`, `"text"`) is answered like a top-level array: it lacks the `json` field.
    onMalformedBody: (kind) => invalid(kind === 'not_object' ? MESSAGES.missing : MESSAGES.malformed),
    onInvalidInput: (problems) =>
      invalid(problems.some((problem) => problem.field === 'json' && problem.message !== MISSING_FIELD) ? MESSAGES.notContainer : MESSAGES.missing),
    responses: {
      200: {
        description: 'The JSON is valid (possibly empty).',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: { status: 'valid', message: 'The JSON is correctly formatted.', jsonType: 'object' },
      },
      400: {
        description:
          'No `json`, or `json` incorrectly formatted: `status` `invalid`, `jsonType` `N/A`. A body nested deeper than 32 levels (a `json` value deeper than 31) ' +
          '(`body_too_deep`) or cut short before its declared length (`incomplete_body`) gets the shared error body instead.',
        // Both bodies are real 400s of this operation, so the document lists both shapes.
        schema: z.union([resultSchema, errorBodySchema]),
      },
    },
    handle: ({ body }) => validateJson(body),
  });
}
