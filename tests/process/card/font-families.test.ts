/**
 * Every `fontFamily` is drawn in its own face, for Latin, Greek and Cyrillic alike: each family's
 * file has a glyph for every sample character, and Pango's advance for that character is the one
 * the family's own file gives (a fallback font would give another), and the families draw
 * different pixels from one another.
 */
import { createHash } from 'node:crypto';
import { CARD_FONT_FAMILIES, CARD_FONT_FAMILY_IDS, cardOptionsSchema, type CardFontFamily } from '@utility-api/render-jobs';
import test from 'ava';
import { createCanvas, loadImage } from 'canvas';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import { prepareCardFonts } from '../../../packages/card/src/fonts/card-fonts.ts';
import { cardFontFiles } from '../../../packages/card/src/fonts/font-files.ts';
import { renderAnimatedCard, renderCard } from '../../../packages/card/src/index.ts';
import { TEXT_COLUMN } from '../../../packages/card/src/layout/card-layout.ts';
import { familySizeFactor, xHeightOf } from '../../../packages/card/src/text/family-metrics.ts';
import { drawInFamily, drawText, measureText, type TextStyle } from '../../../packages/card/src/text/rich-text.ts';
import { decodeFrames } from '../../support/card/animation/animated-fixtures.ts';
import { animatedImage } from '../../fixtures/images.ts';

// Before any canvas exists: only a fontconfig started after prepareCardFonts() is limited to the card's fonts.
prepareCardFonts();

/** Letters of each script a name may hold, accented and special ones included. */
const SAMPLES = {
  Latin: 'AaZzÅåÇçÉéÑñÖöŁłŒœßŠšŽžĞğİı',
  Greek: 'ΑαΒβΓγΔδΩωΆάΈέΰϊ',
  Cyrillic: 'АаБбЖжЩщЯяЁёЂђЇїҐґ',
} as const;

/** Large enough that Pango's whole-pixel rounding of an advance is small beside the widths compared. */
const SIZE = 100;
const REGULAR: TextStyle = { size: SIZE, weight: 400, color: '#000000' };
/** Pango rounds each advance to a whole pixel (hinted metrics): up to half a pixel off the file's value. */
const ROUNDING = 0.6;

function regularFace(family: CardFontFamily): Font {
  const file = cardFontFiles().find((candidate) => candidate.family === CARD_FONT_FAMILIES[family].name && candidate.weight === '400' && candidate.style === undefined);
  if (!file) throw new Error(`no regular face registered for ${family}`);
  const opened = fontkit.openSync(file.path);
  if ('fonts' in opened) throw new Error(`${file.path} is a collection`);
  return opened;
}

const measuring = createCanvas(10, 10).getContext('2d');

/** Characters whose advance, drawn in `family`, is not the one `face` gives: drawn in another font. */
function notFromFace(family: CardFontFamily, face: Font, sample: string): string[] {
  return [...sample].filter((character) => {
    const glyph = face.glyphForCodePoint(character.codePointAt(0) ?? 0);
    // A style's size is drawn at the family's x-height-adjusted size (family-metrics.ts).
    const expected = (glyph.advanceWidth / face.unitsPerEm) * SIZE * familySizeFactor(CARD_FONT_FAMILIES[family].name);
    const drawn = measureText(drawInFamily(measuring, CARD_FONT_FAMILIES[family].name), character, REGULAR);
    return Math.abs(drawn - expected) > ROUNDING;
  });
}

for (const family of CARD_FONT_FAMILY_IDS) {
  test(`${family}: its own file has every Latin, Greek and Cyrillic sample letter, and Pango draws them from it`, (t) => {
    const face = regularFace(family);
    for (const [script, sample] of Object.entries(SAMPLES)) {
      const missing = [...sample].filter((character) => !face.hasGlyphForCodePoint(character.codePointAt(0) ?? 0));
      t.deepEqual(missing, [], `${script} letters missing from ${family}`);
      t.deepEqual(notFromFace(family, face, sample), [], `${script} letters drawn in another font than ${family}`);
    }
  });
}

test('each family\'s x-height, measured from what Pango draws, is the top of its file\'s "x", and sizes every family to Inter\'s x-height', (t) => {
  const inter = xHeightOf(CARD_FONT_FAMILIES.inter.name);
  for (const family of CARD_FONT_FAMILY_IDS) {
    const face = regularFace(family);
    const name = CARD_FONT_FAMILIES[family].name;
    // Pango's ink extents are whole pixels at the 400 px it measures at: within 1/400 of the glyph's outline.
    const top = face.glyphForCodePoint('x'.codePointAt(0) ?? 0).bbox.maxY / face.unitsPerEm;
    t.true(Math.abs(xHeightOf(name) - top) <= 1 / 400 + 1e-9, `${family}: ${xHeightOf(name)} against ${top}`);
    t.true(Math.abs(xHeightOf(name) * familySizeFactor(name) - inter) < 1e-9, `${family} drawn with Inter's x-height`);
  }
  // The families the issue named: EB Garamond's small x-height is drawn larger, the pixel face smaller.
  t.true(familySizeFactor(CARD_FONT_FAMILIES['eb-garamond'].name) > 1.3);
  t.true(familySizeFactor(CARD_FONT_FAMILIES['press-start-2p'].name) < 0.75);
  // Script fallbacks are not card families and keep their size.
  t.is(familySizeFactor('Noto Sans CJK JP'), 1);
});

test('the advance check sees a fallback: letters drawn in Inter do not match the monospace face, nor a letter the face lacks', (t) => {
  const mono = regularFace('jetbrains-mono');
  t.true(notFromFace('inter', mono, SAMPLES.Latin).length > 10, 'Inter letters are not JetBrains Mono advances');
  // Press Start 2P has no Han characters: the CJK fallback draws 東, at its own width.
  const pixel = regularFace('press-start-2p');
  t.false(pixel.hasGlyphForCodePoint('東'.codePointAt(0) ?? 0));
});

test('each family draws the same words in different pixels', (t) => {
  const text = `${SAMPLES.Latin} ${SAMPLES.Greek} ${SAMPLES.Cyrillic}`;
  const digests = CARD_FONT_FAMILY_IDS.map((family) => {
    const canvas = createCanvas(2400, 60);
    const context = canvas.getContext('2d');
    drawText(drawInFamily(context, CARD_FONT_FAMILIES[family].name), text, 10, 44, { size: 32, weight: 800, color: '#000000' });
    return createHash('sha256').update(canvas.toBuffer('raw')).digest('hex');
  });
  t.is(new Set(digests).size, CARD_FONT_FAMILY_IDS.length);
});

test('every family registers an upright regular face; the ones that have them add bold and italic faces', (t) => {
  const files = cardFontFiles();
  for (const family of CARD_FONT_FAMILY_IDS) {
    const faces = files.filter((file) => file.family === CARD_FONT_FAMILIES[family].name);
    t.true(faces.some((file) => file.weight === '400' && file.style === undefined), family);
  }
  const inter = files.filter((file) => file.family === 'Inter');
  // The name is drawn at 800; mathematical bold at 900 and italic letters need these faces.
  for (const [weight, style] of [['800', undefined], ['800', 'italic'], ['900', undefined], ['900', 'italic']] as const) {
    t.true(inter.some((file) => file.weight === weight && file.style === style), `Inter ${weight} ${style ?? 'upright'}`);
  }
});

test('fontFamily accepts the listed families only, naming them in the error', (t) => {
  for (const family of CARD_FONT_FAMILY_IDS) t.true(cardOptionsSchema.safeParse({ fontFamily: family }).success, family);
  for (const bad of ['Comic Sans', 'Inter', 'inter ', '', 7, null, ['inter']]) {
    const result = cardOptionsSchema.safeParse({ fontFamily: bad });
    t.false(result.success, JSON.stringify(bad));
    t.deepEqual(result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`), [`fontFamily: must be one of ${CARD_FONT_FAMILY_IDS.join(', ')}`]);
  }
});

/** Mean channel difference of two 900x300 RGBA pictures over the text column. */
function textColumnDifference(first: ArrayLike<number>, second: ArrayLike<number>): number {
  let sum = 0;
  let count = 0;
  for (let y = 40; y < 280; y += 1) {
    for (let x = TEXT_COLUMN.left; x < TEXT_COLUMN.right; x += 1) {
      for (let channel = 0; channel < 3; channel += 1) {
        const offset = (y * 900 + x) * 4 + channel;
        sum += Math.abs((first[offset] ?? 0) - (second[offset] ?? 0));
        count += 1;
      }
    }
  }
  return sum / count;
}

test('an animated card draws its text in the fontFamily too (its static layers are drawn apart from the still card)', async (t) => {
  const avatar = await animatedImage('gif', { width: 96, height: 96 }, [[230, 40, 40, 255], [40, 60, 230, 255]], [100, 100]);
  const options = { customUsername: 'Ada Ωμέγα Привет', fontFamily: 'press-start-2p' as const };
  const profile = { userId: '175928847299117063', username: 'ada.codes', avatar };
  const animated = await renderAnimatedCard({ profile, options }, { format: 'webp' });
  t.true(animated.animated);
  const [frame] = (await decodeFrames(animated.bytes)).frames;
  const still = async (fontFamily: 'press-start-2p' | 'inter') => rgbaOf((await renderCard({ profile, options: { ...options, fontFamily } })).png);
  const [pixel, inter] = await Promise.all([still('press-start-2p'), still('inter')]);
  const same = textColumnDifference(frame!, pixel);
  const other = textColumnDifference(frame!, inter);
  t.true(same * 3 < other, `the frame is the pixel face (${same.toFixed(2)}), not Inter (${other.toFixed(2)})`);
});

async function rgbaOf(png: Buffer): Promise<ArrayLike<number>> {
  const canvas = createCanvas(900, 300);
  const context = canvas.getContext('2d');
  context.drawImage(await loadImage(png), 0, 0);
  return context.getImageData(0, 0, 900, 300).data;
}
