import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

/**
 * Validates real responses against the OpenAPI document the gateway serves, so the document
 * cannot drift from what the handlers actually send.
 */
export class OpenApiContract {
  readonly document: Json;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

  constructor(document: Json) {
    this.document = document;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.#ajv);
    this.#ajv.addSchema({ $id: 'openapi-components', components: document.components }, 'openapi-components');
  }

  responseSchema(path: string, method: string, status: number): Json | undefined {
    const operation = this.document.paths?.[path]?.[method.toLowerCase()];
    let response = operation?.responses?.[String(status)];
    // Shared answers (401, 405, 500...) are references to `components.responses`.
    if (typeof response?.$ref === 'string') response = this.document.components?.responses?.[response.$ref.split('/').pop()];
    return response?.content?.['application/json']?.schema;
  }

  /** The documented answer (the response's example), to check a real answer against without copying it. */
  example(path: string, method: string, status = 200): unknown {
    return this.document.paths?.[path]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.['application/json']?.example;
  }

  /** Returns validation errors as text, or an empty list when the body matches. */
  check(path: string, method: string, status: number, body: unknown): string[] {
    const key = `${method} ${path} ${status}`;
    let validate = this.#compiled.get(key);
    if (!validate) {
      const schema = this.responseSchema(path, method, status);
      if (!schema) return [`the document has no JSON response for ${key}`];
      const rewritten = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"openapi-components#/components/'),
      ) as Json;
      validate = this.#ajv.compile(rewritten);
      this.#compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''}`);
  }
}

export async function loadContract(baseUrl: string): Promise<OpenApiContract> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  return new OpenApiContract((await response.json()) as Json);
}
