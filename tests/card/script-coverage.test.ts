/**
 * Names in any script chat users write must draw with real glyphs, not Pango's hex boxes: every
 * code point of one sample per script is looked up in the cmaps of the files the card registers
 * (fontkit reads the same files), and each sample is drawn with the card's own text drawing.
 */
import test from 'ava';
import { createCanvas } from 'canvas';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import { prepareCardFonts } from '../../packages/card/src/fonts/card-fonts.ts';
import { cardFontFiles, EMOJI_FAMILY } from '../../packages/card/src/fonts/font-files.ts';
import { drawText, splitRuns } from '../../packages/card/src/text/rich-text.ts';

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
  prepareCardFonts();
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
