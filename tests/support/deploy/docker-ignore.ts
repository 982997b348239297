import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/processes.ts';

interface IgnoreRule {
  pattern: RegExp;
  exception: boolean;
}

function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '*' && pattern[index + 1] === '*') {
      // `**/` is any number of folders, none included; a trailing `**` is anything below.
      const folders = pattern[index + 2] === '/';
      source += folders ? '(?:.*/)?' : '.*';
      index += folders ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The rules of the repository's .dockerignore, in order. */
export function readDockerIgnore(): IgnoreRule[] {
  return readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const exception = line.startsWith('!');
      const pattern = (exception ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
      return { pattern: toRegExp(pattern), exception };
    });
}

/**
 * Whether Docker leaves a path (relative to the context root) out of the build context: the last
 * rule matching the path or one of its parent folders decides, as in Docker's own matcher.
 */
export function isExcludedFromContext(path: string, rules: readonly IgnoreRule[]): boolean {
  const parts = path.split('/');
  const candidates = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  let excluded = false;
  for (const rule of rules) {
    if (candidates.some((candidate) => rule.pattern.test(candidate))) excluded = !rule.exception;
  }
  return excluded;
}
