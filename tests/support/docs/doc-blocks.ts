import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');

/** The documents whose examples must run: the README and every page under docs/. */
export const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

/** What a fence's info string says the block is; anything else in a document is an error. */
const KINDS = {
  shell: ['sh', 'bash', 'shell', 'console'],
  ts: ['ts', 'typescript'],
  js: ['js', 'javascript'],
  python: ['py', 'python'],
  json: ['json'],
  text: ['text'],
} as const;
export type BlockKind = keyof typeof KINDS;

/**
 * `<!-- example: covered by <file>: <command> -->` right above a block that cannot run here (it
 * needs Docker, or runs a long-lived server): <file> is the test (or CI script) that runs it, and
 * <command> the part of the block that file runs.
 */
export interface CoveredBy {
  file: string;
  command: string;
}

export interface DocBlock {
  document: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
  /** The info string as written (`sh`, `ts`...). */
  language: string;
  kind: BlockKind | undefined;
  /** The block's text with the fence's own indentation removed, ending in a newline. */
  code: string;
  coveredBy: CoveredBy | undefined;
}

const MARKER = /^<!-- example: covered by (\S+): (.+?) -->$/;

/** Every fenced block of a Markdown document, in order, with the marker written right above it. */
export function blocksOf(document: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, document), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    // The info string's first word is the language; words after it name the block for other readers (`json card-link-test-vector`).
    const open = /^(\s*)```(\S*)(?:\s+[^`\s][^`]*)?\s*$/.exec(lines[index]!);
    if (!open) continue;
    const [, indent, language] = open as unknown as [string, string, string];
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') {
      const line = lines[end]!;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
      end++;
    }
    let above = index - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const marker = above >= 0 ? MARKER.exec(lines[above]!.trim()) : null;
    const kind = (Object.keys(KINDS) as BlockKind[]).find((name) => (KINDS[name] as readonly string[]).includes(language));
    blocks.push({
      document,
      line: index + 1,
      language,
      kind,
      code: `${body.join('\n')}\n`,
      coveredBy: marker ? { file: marker[1]!, command: marker[2]! } : undefined,
    });
    index = end;
  }
  return blocks;
}

export const allBlocks = (): DocBlock[] => DOCUMENTS.flatMap(blocksOf);

export const describe = (block: DocBlock) => `${block.document}:${block.line} (${block.language || 'no language'})`;
