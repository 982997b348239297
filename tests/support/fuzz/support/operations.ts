import type { OpenApiContract } from '../../../helpers/openapi-contract.ts';

/** One documented operation, read from the served OpenAPI document so the fuzz never drifts from it. */
export interface Operation {
  path: string;
  method: string;
  queryNames: string[];
  pathNames: string[];
  /** Top-level body properties, when the body is a documented object. */
  bodyFields: string[];
  hasBody: boolean;
  /** Documented statuses other than 5xx. */
  statuses: number[];
}

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function documentedOperations(contract: OpenApiContract): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(contract.document.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = (operation.parameters ?? []) as { name: string; in: string }[];
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        path,
        method: method.toUpperCase(),
        queryNames: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        pathNames: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        bodyFields: Object.keys(bodySchema?.properties ?? {}),
        hasBody: operation.requestBody !== undefined,
        statuses: Object.keys(operation.responses).map(Number).filter((status) => status < 500),
      });
    }
  }
  return operations;
}

/** The methods a path documents, as the `Allow` header should list them. */
export function documentedMethods(contract: OpenApiContract, path: string): string[] {
  return Object.keys(contract.document.paths[path] ?? {}).map((method) => method.toUpperCase());
}
