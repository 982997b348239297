import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/processes.ts';

/** The test vector of docs/card-links.md, read from the document itself so the two cannot drift apart. */
export interface CardLinkVector {
  baseUrl: string;
  apiKey: string;
  userId: string;
  options: Record<string, unknown>;
  expiresAt: number;
  keyId: string;
  optionsJson: string;
  signingKey: string;
  signedText: string;
  url: string;
}

export function documentedVector(): CardLinkVector {
  const text = readFileSync(join(REPO_ROOT, 'docs/card-links.md'), 'utf8');
  const block = /```json card-link-test-vector\n([\s\S]*?)```/.exec(text)?.[1];
  if (block === undefined) throw new Error('docs/card-links.md has no card-link-test-vector block');
  return JSON.parse(block) as CardLinkVector;
}
