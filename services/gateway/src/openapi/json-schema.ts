import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * OpenAPI 3.1 schema objects are JSON Schema 2020-12, which zod emits directly. `io` picks the
 * side of transforms to describe: clients send the input of a body and read the output of a
 * response; query fields are described by their parsed (typed) form.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema;
  delete generated.$schema;
  return generated;
}

/** Whether a query field may be left out, read from the schema itself rather than repeated. */
export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}
