import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { SAMPLE_CARDS, type SampleCard } from '../../../packages/card/samples/sample-cards.ts';
import { SAMPLE_LEADERBOARDS } from '../../../packages/card/samples/sample-leaderboards.ts';

/** The leaderboard samples, compared with their goldens like the cards (their own renderer). */
export const GOLDEN_LEADERBOARDS = SAMPLE_LEADERBOARDS;

/**
 * What the golden tests compare and how. Shared by tests/unit/card/goldens.test.ts and
 * `pnpm card:goldens` (scripts/card-goldens.ts), which rewrites the references.
 */

export const GOLDEN_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'goldens');

/**
 * Every sample card drawn at 1x; the HiDPI sample is checked against its 1x twin instead (goldens
 * stay small). The HiDPI emoji card has its own golden too: emoji shadows are drawn apart from the
 * text's (rich-text.ts drawEmoji), and a comparison at 1x would blur away how they look at 2x.
 */
export const HIDPI_EMOJI_CARD = 'hidpi-emoji';
export const GOLDEN_CARDS: readonly SampleCard[] = SAMPLE_CARDS.filter((card) => (card.input.scale ?? 1) === 1 || card.name === HIDPI_EMOJI_CARD);

export const goldenPath = (name: string) => join(GOLDEN_FOLDER, `${name}.png`);

/**
 * pixelmatch's per-pixel color threshold (0-1, in YIQ space; anti-aliased pixels count too) and
 * the share of pixels that may differ. Renders on this machine are pixel-identical to the goldens
 * (0 differing pixels), so the slack is only for rounding differences in another build of cairo,
 * Pango or FreeType, which stay under the color threshold. Measured perturbations it catches:
 * one missing 30 px badge (before badges grew to 36 px) 632 px (0.23%), a changed date 371 px, level 12 → 13 263 px, XP
 * 1.2K → 1.3K 182 px, one letter of the tag 69 px; the bound is 54 px (0.02%).
 */
export const GOLDEN_TOLERANCE = { threshold: 0.1, includeAA: true, maxDifferentShare: 0.0002 } as const;

/**
 * For the 2x card scaled down and compared with the 1x card: text hinting and the avatar's
 * resampling differ between the two sizes (191 px differ at this threshold), while one missing
 * badge at the row's end makes 484; the bound is 324 px (0.12%).
 */
export const HIDPI_TOLERANCE = { threshold: 0.3, includeAA: false, maxDifferentShare: 0.0012 } as const;

export type Tolerance = typeof GOLDEN_TOLERANCE | typeof HIDPI_TOLERANCE;

export interface Comparison {
  width: number;
  height: number;
  differentPixels: number;
  share: number;
  matches: boolean;
  /** The diff picture (differences in red over a faded copy of the golden), as PNG. */
  diffPng(): Buffer;
}

export function decodePng(bytes: Buffer): PNG {
  return PNG.sync.read(bytes);
}

export function compareImages(actual: PNG, expected: PNG, tolerance: Tolerance = GOLDEN_TOLERANCE): Comparison {
  if (actual.width !== expected.width || actual.height !== expected.height) {
    const size = expected.width * expected.height;
    return { width: actual.width, height: actual.height, differentPixels: size, share: 1, matches: false, diffPng: () => PNG.sync.write(actual) };
  }
  const { width, height } = actual;
  const diff = new PNG({ width, height });
  const differentPixels = pixelmatch(actual.data, expected.data, diff.data, width, height, {
    threshold: tolerance.threshold,
    includeAA: tolerance.includeAA,
  });
  const share = differentPixels / (width * height);
  return { width, height, differentPixels, share, matches: share <= tolerance.maxDifferentShare, diffPng: () => PNG.sync.write(diff) };
}

/**
 * The golden file for a rendered card: the same pixels, re-encoded at zlib level 9 with adaptive
 * filtering (about 100 KB instead of the 150 KB the fast server setting gives).
 */
export function goldenBytes(renderedPng: Buffer): Buffer {
  return PNG.sync.write(decodePng(renderedPng), { deflateLevel: 9, filterType: -1 });
}

/** Writes the actual render and the diff next to each other in a new temp folder; returns the folder. */
export function saveMismatch(name: string, actualPng: Buffer, comparison: Comparison): string {
  const folder = mkdtempSync(join(tmpdir(), `card-golden-${name}-`));
  writeFileSync(join(folder, `${name}.actual.png`), actualPng);
  writeFileSync(join(folder, `${name}.diff.png`), comparison.diffPng());
  return folder;
}
