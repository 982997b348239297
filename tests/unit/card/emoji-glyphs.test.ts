import test from 'ava';
import { prepareCardFonts } from '../../../packages/card/src/index.ts';
import { emojiGlyph } from '../../../packages/card/src/text/emoji-glyphs.ts';

test('ZWJ sequences draw as one emoji, a text-default heart inside them included', (t) => {
  prepareCardFonts();
  // Pango asks fontconfig for the family "emoji" for these; before fonts.conf mapped that name, the
  // heart came from Noto Sans Symbols 2 and 👩‍❤️‍👨 drew as loose glyphs (224x121 instead of 124x121).
  for (const emoji of ['👩‍❤️‍👨', '❤️‍🔥', '❤️‍🩹', '👨‍👩‍👧', '🏳️‍🌈', '🧑‍🤝‍🧑']) {
    const glyph = emojiGlyph(emoji);
    if (!glyph) {
      t.fail(`no glyph for ${emoji}`);
      continue;
    }
    t.true(glyph.width < glyph.height * 1.4, `${emoji} is ${glyph.width}x${glyph.height}`);
  }
});

test('a lone heart with U+FE0F comes from the emoji font too, in color', (t) => {
  prepareCardFonts();
  const glyph = emojiGlyph('❤\uFE0F');
  if (!glyph) return t.fail('no glyph');
  const { data } = glyph.getContext('2d').getImageData(0, 0, glyph.width, glyph.height);
  // The text fonts' heart is a black silhouette; the emoji is red.
  let red = 0;
  for (let index = 0; index < data.length; index += 4) {
    if ((data[index + 3] ?? 0) > 200 && (data[index] ?? 0) > 180 && (data[index + 1] ?? 0) < 100) red += 1;
  }
  t.true(red > glyph.width * glyph.height * 0.3, `${red} red pixels`);
});
