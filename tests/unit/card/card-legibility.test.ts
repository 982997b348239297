/**
 * Legibility measured from the rendered PNG: for every text a card draws (where, at what size and
 * in what color: `RenderedCard.texts`), the pixels behind it in the PNG itself must give it WCAG
 * contrast (4.5:1 for small text, 3:1 for the name and the big rank numbers), on white, black,
 * busy and light photos, at any brightness and with light, dark and mid-tone chosen colors.
 */
import { CARD_FONT_FAMILY_IDS, type CardLayout, parseHexColor, type Rgb } from '@utility-api/render-jobs';
import test from 'ava';
import type { PNG } from 'pngjs';
import { renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { MIN_TEXT_SIZE } from '../../../packages/card/src/layout/card-layout.ts';
import type { PlacedText } from '../../../packages/card/src/layout/placed-text.ts';
import { contrastRatio, relativeLuminance } from '../../../packages/card/src/legibility/contrast.ts';
import { SAMPLE_CARDS } from '../../../packages/card/samples/sample-cards.ts';
import { sampleBusyPng, sampleLandscapeJpeg, sampleLightPhotoJpeg, sampleSolidPng } from '../../../packages/card/samples/sample-images.ts';
import { decodePng } from '../../support/card/golden-images.ts';

const PROFILE = { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada' };
const RANK = { currentXp: 1240, requiredXp: 5000, level: 12, rank: 7, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true };

/** Colour emoji are pictures, not text in the run's colour: runs with one are not measured. */
const HAS_EMOJI = /\p{Extended_Pictographic}/u;
/** Pixels this close to the text colour are the glyphs themselves (antialiased edges are beyond). */
const GLYPH_DISTANCE = 60;
/** Antialiased edges reach this far from a glyph core; they are neither text nor ground. */
const EDGE_PX = 2;
/** The share of ground pixels allowed to be lighter (for light text) than the one measured. */
const IGNORED_SHARE = 0.05;

interface Measured {
  role: string;
  text: string;
  contrast: number;
  required: number;
}

function pixelAt(png: PNG, x: number, y: number): Rgb {
  const offset = (y * png.width + x) * 4;
  return { r: png.data[offset] ?? 0, g: png.data[offset + 1] ?? 0, b: png.data[offset + 2] ?? 0 };
}

/**
 * The colour a run's glyphs have at device column `x`: its colour, or for a gradient name (a role
 * gradient, holographic) the stops interpolated across the run's width, as canvas paints them.
 */
function glyphColorAt(run: PlacedText, x: number, scale: number): Rgb {
  const stops = run.style.gradient?.map(parseHexColor);
  if (!stops || stops.length < 2) return parseHexColor(run.style.color);
  const position = Math.min(1, Math.max(0, (x / scale - run.x) / Math.max(1, run.width))) * (stops.length - 1);
  const index = Math.min(stops.length - 2, Math.floor(position));
  const [from, to] = [stops[index]!, stops[index + 1]!];
  const share = position - index;
  return { r: from.r + (to.r - from.r) * share, g: from.g + (to.g - from.g) * share, b: from.b + (to.b - from.b) * share };
}

/**
 * The contrast between a run's colour and the ground around its glyphs, read from the PNG alone:
 * glyph pixels are found by colour, their antialiased edges skipped, and the ground's lightest
 * (darkest, for dark text) few percent ignored. A gradient run is measured with its `color`, the
 * stop hardest to read (name-fill.ts), so every stop is held to the name's contrast.
 */
/** Luminance per 24-bit colour, computed by the card's own formula once per colour seen. */
const luminances = new Map<number, number>();
function luminanceAt(png: PNG, x: number, y: number): number {
  const offset = (y * png.width + x) * 4;
  const [r, g, b] = [png.data[offset] ?? 0, png.data[offset + 1] ?? 0, png.data[offset + 2] ?? 0];
  const key = (r << 16) | (g << 8) | b;
  let luminance = luminances.get(key);
  if (luminance === undefined) {
    luminance = relativeLuminance({ r, g, b });
    luminances.set(key, luminance);
  }
  return luminance;
}

function measure(png: PNG, run: PlacedText, scale: number): Measured {
  const color = parseHexColor(run.style.color);
  const left = Math.max(0, Math.floor(run.x * scale));
  const right = Math.min(png.width, Math.ceil((run.x + run.width) * scale));
  const top = Math.max(0, Math.floor((run.baseline - run.style.size * 0.8) * scale));
  const bottom = Math.min(png.height, Math.ceil((run.baseline + run.style.size * 0.25) * scale));
  const width = right - left;
  const height = bottom - top;
  // The glyph's expected colour depends on the column only (a gradient runs left to right).
  const expected = Array.from({ length: width }, (_, x) => glyphColorAt(run, left + x, scale));
  const glyph = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const pixel = pixelAt(png, left + x, top + y);
      const { r, g, b } = expected[x]!;
      if (Math.hypot(pixel.r - r, pixel.g - g, pixel.b - b) < GLYPH_DISTANCE) glyph[y * width + x] = 1;
    }
  }
  // Glyph pixels summed over every rectangle from the corner (an integral image): a pixel is near a
  // glyph when the square of EDGE_PX around it holds one, read in four lookups.
  const stride = width + 1;
  const sums = new Uint32Array(stride * (height + 1));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      sums[(y + 1) * stride + x + 1] = glyph[y * width + x]! + sums[y * stride + x + 1]! + sums[(y + 1) * stride + x]! - sums[y * stride + x]!;
    }
  }
  const ground: number[] = [];
  const edge = EDGE_PX * scale;
  for (let y = 0; y < height; y += 1) {
    const [y0, y1] = [Math.max(0, y - edge), Math.min(height, y + edge + 1)];
    for (let x = 0; x < width; x += 1) {
      const [x0, x1] = [Math.max(0, x - edge), Math.min(width, x + edge + 1)];
      const nearGlyph = sums[y1 * stride + x1]! - sums[y0 * stride + x1]! - sums[y1 * stride + x0]! + sums[y0 * stride + x0]! > 0;
      if (!nearGlyph) ground.push(luminanceAt(png, left + x, top + y));
    }
  }
  const textLuminance = relativeLuminance(color);
  const lightText = contrastRatio(textLuminance, 0) >= contrastRatio(textLuminance, 1);
  ground.sort((first, second) => (lightText ? second - first : first - second));
  const worst = ground[Math.floor(ground.length * IGNORED_SHARE)] ?? (lightText ? 1 : 0);
  return { role: run.role, text: run.text, contrast: contrastRatio(textLuminance, worst), required: run.minContrast };
}

async function shortfalls(input: CardInput): Promise<string[]> {
  const card = await renderCard(input);
  const png = decodePng(card.png);
  return card.texts
    .filter((run) => !HAS_EMOJI.test(run.text))
    .map((run) => measure(png, run, input.scale ?? 1))
    .filter((measured) => measured.contrast < measured.required)
    .map((measured) => `${measured.role} "${measured.text}": ${measured.contrast.toFixed(2)}:1 < ${measured.required}:1`);
}

const BACKGROUNDS = {
  white: sampleSolidPng('#ffffff'),
  black: sampleSolidPng('#000000'),
  busy: sampleBusyPng(),
  'light photo': sampleLightPhotoJpeg(),
  'dark photo': sampleLandscapeJpeg(),
} as const;

/** Default (white), dark, mid-tone and light-yellow names, each with the texts that follow them. */
const NAME_COLORS = [undefined, '#1f2937', '#7c3aed', '#ffe08a'] as const;

type Layout = CardLayout;

/**
 * Every text's shortfall on one background, for each layout and brightness given and every name
 * colour, the card otherwise full (message, rank block, subtitle); `extra` adds options (a panel).
 */
async function contrastProblems(background: Buffer, cases: readonly (readonly [Layout, number])[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const problems: string[] = [];
  for (const [layout, backgroundBrightness] of cases) {
    for (const usernameColor of NAME_COLORS) {
      const options = {
        layout,
        message: 'You are member #1,234',
        customBackground: 'https://example.com/background.png',
        backgroundBrightness,
        rankData: RANK,
        customSubtitle: 'A subtitle in the smallest text',
        ...extra,
        ...(usernameColor === undefined ? {} : { usernameColor }),
      };
      for (const problem of await shortfalls({ profile: PROFILE, options, images: { background } })) {
        problems.push(`${layout}, brightness ${backgroundBrightness}, name ${usernameColor ?? 'default'}: ${problem}`);
      }
    }
  }
  return problems;
}

for (const [backgroundName, background] of Object.entries(BACKGROUNDS)) {
  test(`every text reaches its contrast on a ${backgroundName} background, at any brightness and name colour, in every layout`, async (t) => {
    const cases = [['profile', 1], ['profile', 40], ['profile', 60], ['profile', 100], ['welcome', 60], ['welcome', 100], ['levelup', 60], ['levelup', 100], ['welcome-tall', 60], ['welcome-tall', 100]] as const;
    t.deepEqual(await contrastProblems(background, cases, { presenceStatus: 'online' }), []);
  });
}

test('a light tag beside a dark name, and a light level colour on a light panel, still reach their contrast', async (t) => {
  const options = { customBackground: 'https://example.com/white.png', backgroundBrightness: 100, usernameColor: '#111827', tagColor: '#f9fafb', rankData: { ...RANK, levelColor: '#fde68a' } };
  t.deepEqual(await shortfalls({ profile: PROFILE, options, images: { background: BACKGROUNDS.white } }), []);
});

test('every text of every sample card reaches its contrast, and none is smaller than the type scale\'s minimum at 1x', async (t) => {
  const problems: string[] = [];
  for (const sample of SAMPLE_CARDS) {
    for (const problem of await shortfalls(sample.input)) problems.push(`${sample.name}: ${problem}`);
    const card = await renderCard(sample.input);
    for (const run of card.texts) if (run.style.size < MIN_TEXT_SIZE) problems.push(`${sample.name}: ${run.role} "${run.text}" at ${run.style.size} px`);
  }
  t.deepEqual(problems, []);
});

test('the measurement catches illegible text: white text on a white card without the legibility step would fail', async (t) => {
  // The same measurement on a picture made to fail: the white name drawn straight onto white (a
  // white name asked for, as a white background alone would give the card the light theme).
  const card = await renderCard({ profile: PROFILE, options: { customBackground: 'https://example.com/white.png', backgroundBrightness: 100, usernameColor: '#ffffff' }, images: { background: BACKGROUNDS.white } });
  const png = decodePng(card.png);
  const name = card.texts.find((run) => run.role === 'name')!;
  // Paint the ground behind the name white again, keeping the glyphs: what the card was before this step.
  const top = Math.floor(name.baseline - name.style.size * 0.8);
  for (let y = top; y < name.baseline + name.style.size * 0.25; y += 1) {
    for (let x = Math.floor(name.x); x < name.x + name.width; x += 1) {
      const offset = (y * png.width + x) * 4;
      const isGlyph = (png.data[offset] ?? 0) > 240 && (png.data[offset + 1] ?? 0) > 240 && (png.data[offset + 2] ?? 0) > 240;
      if (!isGlyph) png.data.fill(255, offset, offset + 3);
    }
  }
  const measured = measure(png, name, 1);
  t.true(measured.contrast < 1.5, `measured ${measured.contrast.toFixed(2)}:1`);
});

/**
 * The luminance standard deviation of the panel where no text is (right of the name, above the
 * rank row, no badges): how much of the photo shows through it.
 */
function photoShowing(png: PNG): number {
  const values: number[] = [];
  for (let y = 40; y < 160; y += 2) {
    for (let x = 620; x < 860; x += 2) values.push(relativeLuminance(pixelAt(png, x, y)));
  }
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
}

test('the glass panel shows the photo: more of its variation behind the panel than the frosted panel lets through', async (t) => {
  for (const name of ['busy', 'dark photo', 'light photo'] as const) {
    const input = (panel: 'frosted' | 'glass'): CardInput => ({ profile: PROFILE, options: { panel, customBackground: 'https://example.com/photo.png', rankData: RANK }, images: { background: BACKGROUNDS[name] } });
    const frosted = photoShowing(decodePng((await renderCard(input('frosted'))).png));
    const glass = photoShowing(decodePng((await renderCard(input('glass'))).png));
    t.true(glass > frosted * 1.5, `${name}: luminance deviation ${glass.toFixed(4)} on glass, ${frosted.toFixed(4)} frosted`);
  }
});

for (const [backgroundName, background] of Object.entries(BACKGROUNDS)) {
  test(`glass panel: every text still reaches its contrast on a ${backgroundName} background, in every layout`, async (t) => {
    const cases = [['profile', 60], ['profile', 100], ['welcome', 60], ['welcome', 100], ['levelup', 100], ['welcome-tall', 60], ['welcome-tall', 100]] as const;
    t.deepEqual(await contrastProblems(background, cases, { panel: 'glass' }), []);
  });
}

for (const fontFamily of CARD_FONT_FAMILY_IDS) {
  test(`in ${fontFamily}, every text reaches its contrast on a busy and a light photo, in every layout`, async (t) => {
    const cases = [['profile', 100], ['welcome', 100], ['levelup', 100], ['welcome-tall', 100]] as const;
    const problems = [...(await contrastProblems(BACKGROUNDS.busy, cases, { fontFamily })), ...(await contrastProblems(BACKGROUNDS['light photo'], cases, { fontFamily }))];
    t.deepEqual(problems, []);
  });
}
