import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../helpers/processes.ts';

function yamlParse(text: string): unknown {
  // Merge keys (`<<: *anchor`) are YAML 1.1; both compose versions resolve them.
  return parse(text, { merge: true });
}

export interface ComposeHealthcheck {
  test?: string[] | string;
  disable?: boolean;
  interval?: string;
  timeout?: string;
  start_period?: string;
  retries?: number;
}

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: ComposeHealthcheck;
  restart?: string;
  container_name?: string;
  stop_grace_period?: string;
  read_only?: boolean;
  tmpfs?: string[];
  deploy?: { replicas?: number; resources?: { limits?: { cpus?: string; memory?: string } } };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** docker-compose.yml as written (variables not substituted), merge keys resolved. */
export function readComposeFile(): ComposeFile {
  const parsed = yamlParse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('services' in parsed)) throw new Error('docker-compose.yml has no services');
  return parsed as ComposeFile;
}

/** `KEY=value` lines of an env file such as .env.example (no quoting, as compose reads it). */
export function readEnvFile(relativePath: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(join(REPO_ROOT, relativePath), 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) values.set(match[1]!, match[2]!);
  }
  return values;
}

const REFERENCE = /\$\{([A-Z][A-Z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;

/** Names of the variables a compose value refers to with `${NAME...}`. */
export function referencedVariables(value: string): string[] {
  return [...value.matchAll(REFERENCE)].map((match) => match[1]!);
}

/** Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}` substitution. */
export function substitute(value: string, variables: ReadonlyMap<string, string>): string {
  return value.replace(REFERENCE, (_whole, name: string, operator: string | undefined, argument: string | undefined) => {
    const current = variables.get(name);
    const unsetOrEmpty = current === undefined || (operator?.startsWith(':') === true && current === '');
    if (operator?.endsWith('?') && unsetOrEmpty) throw new Error(`${name}: ${argument}`);
    if (operator?.endsWith('-') && unsetOrEmpty) return argument ?? '';
    return current ?? '';
  });
}

/** The environment compose gives a service's containers, with `variables` as the .env file. */
export function serviceEnvironment(service: ComposeService, variables: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, substitute(String(value ?? ''), variables)]));
}

/** Seconds in a compose duration such as `30s`, `1m30s` or `500ms`. */
export function durationSeconds(duration: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 };
  let total = 0;
  for (const [, amount, unit] of duration.matchAll(/(\d+(?:\.\d+)?)(ms|us|h|m|s)/g)) total += Number(amount) * units[unit!]!;
  return total;
}
