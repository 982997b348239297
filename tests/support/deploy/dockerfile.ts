import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/processes.ts';

export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined with a space. */
  text: string;
  line: number;
}

export interface Stage {
  /** The `FROM` argument with build args substituted (`node:24-bookworm-slim`, or a stage name). */
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Dockerfile {
  path: string;
  /** Build args declared before the first FROM, with their defaults. */
  globalArgs: Map<string, string>;
  stages: Stage[];
}

function logicalLines(source: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let current: { text: string; line: number } | undefined;
  source.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment lines end nothing: Docker drops them even inside a continued instruction.
    if (trimmed.startsWith('#')) return;
    if (current === undefined && trimmed === '') return;
    const continues = trimmed.endsWith('\\');
    const piece = continues ? trimmed.slice(0, -1).trim() : trimmed;
    current = current === undefined ? { text: piece, line: index + 1 } : { text: `${current.text} ${piece}`.trim(), line: current.line };
    if (!continues) {
      lines.push(current);
      current = undefined;
    }
  });
  if (current !== undefined) lines.push(current);
  return lines;
}

function substitute(text: string, args: Map<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced: string | undefined, bare: string | undefined) => args.get(braced ?? bare ?? '') ?? whole);
}

/** Reads a Dockerfile of this repository into stages; enough for our own rules, not a full parser. */
export function readDockerfile(relativePath: string): Dockerfile {
  const path = join(REPO_ROOT, relativePath);
  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const { text, line } of logicalLines(readFileSync(path, 'utf8'))) {
    const [keyword = '', ...rest] = text.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), text: rest.join(' '), line };
    if (instruction.keyword === 'FROM') {
      const words = rest.filter((word) => !word.startsWith('--'));
      const asIndex = words.findIndex((word) => word.toUpperCase() === 'AS');
      stages.push({ base: substitute(words[0] ?? '', globalArgs), name: asIndex >= 0 ? words[asIndex + 1] : undefined, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword === 'ARG') {
        const [name = '', value = ''] = instruction.text.split('=', 2);
        globalArgs.set(name.trim(), value.trim());
      }
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { path: relativePath, globalArgs, stages };
}

export function stageNamed(dockerfile: Dockerfile, name: string): Stage {
  const stage = dockerfile.stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`${dockerfile.path} has no stage "${name}"`);
  return stage;
}

/** The stage `docker build` produces when no --target is given. */
export function finalStage(dockerfile: Dockerfile): Stage {
  const stage = dockerfile.stages.at(-1);
  if (!stage) throw new Error(`${dockerfile.path} has no FROM`);
  return stage;
}

export function instructionsOf(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword);
}

/** Package names given to `apt-get install` in the stage's RUN instructions (flags left out). */
export function aptPackages(stage: Stage): string[] {
  return instructionsOf(stage, 'RUN').flatMap((run) =>
    run.text
      .split(/&&|;/)
      .map((command) => command.trim().split(/\s+/))
      .filter((words) => words.includes('apt-get') && words.includes('install'))
      .flatMap((words) => words.slice(words.indexOf('install') + 1).filter((word) => !word.startsWith('-'))),
  );
}

/** The exec-form JSON array of an instruction such as CMD, ENTRYPOINT or `HEALTHCHECK ... CMD [...]`. */
export function execForm(text: string): string[] {
  const start = text.indexOf('[');
  if (start < 0) throw new Error(`not in exec (JSON array) form: ${text}`);
  const parsed: unknown = JSON.parse(text.slice(start));
  if (!Array.isArray(parsed) || !parsed.every((word) => typeof word === 'string')) throw new Error(`not an array of strings: ${text}`);
  return parsed;
}

/** `KEY=value` pairs of the stage's ENV instructions (values without quotes or spaces). */
export function envOf(stage: Stage): Map<string, string> {
  const env = new Map<string, string>();
  for (const instruction of instructionsOf(stage, 'ENV')) {
    for (const pair of instruction.text.split(/\s+/)) {
      const [name, value] = pair.split('=', 2);
      if (name && value !== undefined) env.set(name, value);
    }
  }
  return env;
}
