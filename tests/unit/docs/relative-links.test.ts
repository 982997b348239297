import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every relative link of the repository's Markdown (README, docs/, the SDKs' READMEs) resolves in
 * any clone: the file or folder exists inside the repository, and a `#fragment` names a heading of
 * that page (GitHub's anchors). A link that leaves the repository (`../shared/...`) breaks for
 * everyone who clones it, so it fails too.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const pages = ['README.md', 'packages/sdk/README.md', 'sdk/python/README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Markdown links and HTML src/href outside fenced code blocks and inline code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
  const html = [...prose.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  return [...links, ...html].filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of prose.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

test('the anchor rule matches GitHub for the headings this repository uses', (t) => {
  t.deepEqual([...anchorsOf('# Quick start\n## `API_KEYS` and keys\n## Usage and quotas\n## Usage and quotas\n### A welcome card from a discord.js bot')], [
    'quick-start',
    'api_keys-and-keys',
    'usage-and-quotas',
    'usage-and-quotas-1',
    'a-welcome-card-from-a-discordjs-bot',
  ]);
});

test('the link finder sees Markdown and HTML links and skips code', (t) => {
  t.deepEqual(linksOf('[a](docs/a.md) <img src="docs/b.png"> `[c](nope.md)`\n```\n[d](nope.md)\n```\n[e](https://example.com) [f](#here)'), ['docs/a.md', '#here', 'docs/b.png']);
});

for (const page of pages) {
  test(`every relative link of ${page} resolves inside the repository`, (t) => {
    const markdown = readFileSync(join(root, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(markdown)) {
      const [path = '', fragment] = decodeURI(link).split('#');
      const target = path === '' ? join(root, page) : resolve(root, dirname(page), path);
      if (relative(root, target).startsWith('..') || !existsSync(target)) {
        broken.push(`${link} (no such file in the repository)`);
        continue;
      }
      if (fragment !== undefined && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(fragment)) {
        broken.push(`${link} (no heading #${fragment})`);
      }
    }
    t.deepEqual(broken, []);
  });
}
