/**
 * Names in any script chat users write must draw with real glyphs, not Pango's hex boxes: every
 * code point of one sample per script is looked up in the cmaps of the files the card registers
 * (fontkit reads the same files), and each sample is drawn with the card's own text drawing, where
 * no code point may come out as Pango's hex box.
 */
import test from 'ava';
import { createCanvas } from 'canvas';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import { prepareCardFonts } from '../../../packages/card/src/fonts/card-fonts.ts';
import { cardFontFiles, EMOJI_FAMILY } from '../../../packages/card/src/fonts/font-files.ts';
import { drawText, splitRuns, type TextStyle } from '../../../packages/card/src/text/rich-text.ts';

// Before any canvas exists: node-canvas starts fontconfig with its first context, and only a
// fontconfig started after prepareCardFonts() is limited to the card's fonts.
prepareCardFonts();

/** One name-like sample per script or block; symbols are text-default and must come from text fonts. */
const SAMPLES: Record<string, string> = {
  Latin: 'Zoë Łukasz Đorđe Ångström',
  Greek: 'Ελληνικά Ωμέγα',
  Cyrillic: 'Привет Ёжик Ђорђе',
  Arabic: 'مرحبا بالعالم',
  Hebrew: 'שלום לכולם',
  Devanagari: 'नमस्ते दुनिया',
  Bengali: 'বাংলা ভাষা',
  Tamil: 'தமிழ் மொழி',
  Telugu: 'తెలుగు భాష',
  Kannada: 'ಕನ್ನಡ ಭಾಷೆ',
  Malayalam: 'മലയാളം ഭാഷ',
  Gujarati: 'ગુજરાતી ભાષા',
  Gurmukhi: 'ਪੰਜਾਬੀ ਭਾਸ਼ਾ',
  Oriya: 'ଓଡ଼ିଆ ଭାଷା',
  Sinhala: 'සිංහල භාෂාව',
  Thai: 'ภาษาไทย สวัสดี',
  Lao: 'ພາສາລາວ',
  Khmer: 'ភាសាខ្មែរ',
  Myanmar: 'မြန်မာဘာသာ',
  Georgian: 'ქართული ენა',
  Armenian: 'Հայերեն լեզու',
  Ethiopic: 'አማርኛ ቋንቋ',
  Cherokee: 'ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ',
  'Canadian syllabics': 'ᐃᓄᒃᑎᑐᑦ',
  CJK: '東京 汉字 漢字',
  Hangul: '한국어 조선말',
  Kana: 'ひらがな カタカナ',
  Mongolian: 'ᠮᠣᠩᠭᠣᠯ ᠬᠡᠯᠡ',
  Runic: 'ᚠᚢᚦᚨᚱᚲ',
  Tifinagh: 'ⵜⴰⵎⴰⵣⵉⵖⵜ',
  Javanese: 'ꦧꦱꦗꦮ',
  Vai: 'ꕙꔤ ꕞꕌꔳ',
  "N'Ko": 'ߒߞߏ ߞߊ߲',
  Syriac: 'ܠܫܢܐ ܣܘܪܝܝܐ',
  Tibetan: 'བོད་སྐད་',
  Thaana: 'ދިވެހި',
  'Ol Chiki': 'ᱥᱟᱱᱛᱟᱲᱤ',
  Adlam: '𞤀𞤣𞤤𞤢𞤥',
  'Musical symbols': '𝄞 𝅘𝅥𝅮 𝄢',
  'Egyptian hieroglyphs': '𓀀 𓂀 𓃒',
  Math: '∑ ∫ √ ∞ ≠ 𝔸 𝕓 𝒞',
  Symbols: '♫ ⌘ ⚙ ★ ☯ ✓ → © ♠ ☂',
};

/** Code points that select or join rather than draw: no font needs a glyph for them. */
const INVISIBLE = new Set([0x20, 0x200c, 0x200d, 0xfe0e, 0xfe0f]);

/** The text faces the card registers (the color emoji font excluded: these samples are text). */
const textFonts: { path: string; font: Font }[] = cardFontFiles()
  .filter((file) => file.family !== EMOJI_FAMILY)
  .flatMap((file) => {
    const opened = fontkit.openSync(file.path);
    const faces = 'fonts' in opened ? opened.fonts : [opened];
    return faces.map((font) => ({ path: file.path, font }));
  });

for (const [script, sample] of Object.entries(SAMPLES)) {
  test(`${script}: every code point has a glyph in a registered font`, (t) => {
    const missing = [...sample]
      .filter((character) => !INVISIBLE.has(character.codePointAt(0) ?? 0))
      .filter((character) => !textFonts.some(({ font }) => font.hasGlyphForCodePoint(character.codePointAt(0) ?? 0)))
      .map((character) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} ${character}`);
    t.deepEqual(missing, []);
  });
}

test('a check that would see a script without a font: Tifinagh is missing once its face is left out', (t) => {
  const tifinagh = 'ⵜ'.codePointAt(0) ?? 0;
  const others = textFonts.filter(({ path }) => !path.includes('Tifinagh'));
  t.true(textFonts.some(({ font }) => font.hasGlyphForCodePoint(tifinagh)));
  t.false(others.some(({ font }) => font.hasGlyphForCodePoint(tifinagh)));
});

test('every sample draws with the card text drawing, as text runs only, and leaves ink', (t) => {
  for (const [script, sample] of Object.entries(SAMPLES)) {
    t.deepEqual(splitRuns(sample).map((run) => run.kind), ['text'], `${script} is one text run`);
    const canvas = createCanvas(900, 60);
    const context = canvas.getContext('2d');
    const width = drawText(context, sample, 10, 40, { size: 28, weight: 700, color: '#ffffff' });
    t.true(width > 0, `${script} has a width`);
    const alpha = context.getImageData(0, 0, canvas.width, canvas.height).data.filter((_, index) => index % 4 === 3);
    t.true(alpha.some((value) => value > 128), `${script} left ink`);
  }
});

const BOX_STYLE: TextStyle = { size: 28, weight: 700, color: '#000000' };

type Ink = { width: number; height: number; framed: boolean };

/**
 * The ink of one character drawn alone: its bounding box, and whether all four sides of that box
 * are solid lines, as in the frame Pango draws around the hex digits of a character no font has.
 */
function inkOf(character: string): Ink {
  const canvas = createCanvas(120, 60);
  const context = canvas.getContext('2d');
  drawText(context, character, 20, 40, BOX_STYLE);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  const inked = (x: number, y: number) => (data[(y * canvas.width + x) * 4 + 3] ?? 0) > 128;
  let [left, top, right, bottom] = [canvas.width, canvas.height, -1, -1];
  for (let y = 0; y < canvas.height; y += 1) {
    for (let x = 0; x < canvas.width; x += 1) {
      if (!inked(x, y)) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  if (right < 0) return { width: 0, height: 0, framed: false };
  const share = (count: number, of: number) => count / of >= 0.9;
  const column = (x: number) => Array.from({ length: bottom - top + 1 }, (_, index) => inked(x, top + index)).filter(Boolean).length;
  const row = (y: number) => Array.from({ length: right - left + 1 }, (_, index) => inked(left + index, y)).filter(Boolean).length;
  const [width, height] = [right - left + 1, bottom - top + 1];
  const framed = width >= 10 && share(column(left), height) && share(column(right), height) && share(row(top), width) && share(row(bottom), width);
  return { width, height, framed };
}

/** Pango's box for a missing character, by the number of hex digits it shows (4, 5 or 6). */
const HEX_BOXES = new Map([[4, inkOf('\u0378')], [5, inkOf('\u{2FFFD}')], [6, inkOf('\u{10FFFD}')]]);

function isHexBox(character: string): boolean {
  const ink = inkOf(character);
  const box = HEX_BOXES.get(Math.max(4, (character.codePointAt(0) ?? 0).toString(16).length));
  return ink.framed && box !== undefined && ink.width === box.width && ink.height === box.height;
}

test('the hex box check sees the boxes of unassigned code points, and not a framed glyph of another size', (t) => {
  for (const [digits, box] of HEX_BOXES) t.true(box.framed, `the ${digits}-digit box is a frame (${box.width}x${box.height})`);
  t.true(isHexBox('\u0378'));
  t.true(isHexBox('\u{1B2FF}'), 'another unassigned code point with 5 digits');
  t.false(isHexBox('\u25A1'), 'WHITE SQUARE is a framed glyph, but not the box');
  t.false(isHexBox('A'));
});

test('no sample character draws as a hex box', (t) => {
  const boxed = Object.entries(SAMPLES)
    .map(([script, sample]) => [script, [...sample].filter((character) => !INVISIBLE.has(character.codePointAt(0) ?? 0) && isHexBox(character))] as const)
    .filter(([, boxes]) => boxes.length > 0);
  t.deepEqual(Object.fromEntries(boxed), {});
});
