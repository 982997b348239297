import { ERROR_CODES, type ErrorCode } from '@utility-api/api-errors';
import { z } from 'zod';
import type { FieldProblem } from './api-error.ts';

/** The JSON body of every error except the json-validator's own documented 400s. */
export const errorBodySchema = z.object({
  error: z.object({
    status: z.number().int().meta({ description: 'The HTTP status, repeated for clients that only keep the body.' }),
    code: z.enum(ERROR_CODES).meta({ description: 'A stable machine-readable code: the table of every code, its status and its Retry-After is in the API description (Errors).' }),
    message: z.string().meta({ description: 'What went wrong and how to fix it, in English.' }),
    details: z
      .array(z.object({ in: z.enum(['query', 'body', 'path', 'header']), field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'For validation errors: every bad field, where it was and what is expected.' }),
  }),
  requestId: z.string().meta({ description: 'Also sent as the `X-Request-Id` header; quote it when reporting a problem.' }),
});

export function errorBody(status: number, code: ErrorCode, message: string, requestId: string, details?: readonly FieldProblem[]): z.infer<typeof errorBodySchema> {
  const error = details && details.length > 0 ? { status, code, message, details: [...details] } : { status, code, message };
  return { error, requestId };
}
