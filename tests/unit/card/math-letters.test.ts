/**
 * Mathematical alphanumerics in names (𝐛𝐨𝐥𝐝, 𝘪𝘵𝘢𝘭𝘪𝘤, 𝓯𝓪𝓷𝓬𝔂, 𝚖𝚘𝚗𝚘) are drawn as plain letters in the
 * card's family with the weight or slant they stand for: the same pixels as the plain word drawn
 * in that style, never the maths font's glyphs. Alt text says the plain letters.
 */
import { createHash } from 'node:crypto';
import test from 'ava';
import { createCanvas } from 'canvas';
import { cardAltText, prepareCardFonts, renderCard } from '@utility-api/card';
import { mathLetterEmphasis, plainLetters, styledPieces } from '../../../packages/card/src/text/math-letters.ts';
import { drawInFamily, drawText, type TextStyle } from '../../../packages/card/src/text/rich-text.ts';

prepareCardFonts();

const NAME: TextStyle = { size: 48, weight: 800, color: '#000000' };

function pixelsOf(draw: (context: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void): string {
  const canvas = createCanvas(600, 80);
  draw(canvas.getContext('2d'));
  return createHash('sha256').update(canvas.toBuffer('raw')).digest('hex');
}

const drawn = (text: string, style: TextStyle = NAME) => pixelsOf((context) => drawText(context, text, 10, 60, style));

test('each styled alphabet maps to plain letters with its weight and slant', (t) => {
  const piece = (text: string) => styledPieces(text).map(({ text: plain, emphasis }) => `${plain}:${emphasis.bold ? 'b' : ''}${emphasis.italic ? 'i' : ''}${emphasis.monospace ? 'm' : ''}`);
  t.deepEqual(piece('𝐛𝐨𝐥𝐝'), ['bold:b']);
  t.deepEqual(piece('𝘪𝘵𝘢𝘭𝘪𝘤'), ['italic:i']);
  t.deepEqual(piece('𝒃𝒐𝒕𝒉'), ['both:bi']);
  t.deepEqual(piece('𝓯𝓪𝓷𝓬𝔂'), ['fancy:bi'], 'bold script: bold, and italic for the script');
  t.deepEqual(piece('𝚖𝚘𝚗𝚘'), ['mono:m']);
  t.deepEqual(piece('𝔉𝔯𝔞𝔨 𝕕𝕤'), ['Frak ds:'], 'fraktur and double-struck are plain letters, spaces stay with them');
  t.deepEqual(piece('Ada 𝐁𝐨𝐥𝐝!'), ['Ada :', 'Bold:b', '!:']);
  t.deepEqual(piece('ℬ𝑒𝓁𝓁𝒶 ℎℂ'), ['Bella:i', ' :', 'h:i', 'C:'], 'letterlike letters fill the holes of the block');
  t.deepEqual(piece('𝛀𝛚 𝟏𝟐'), ['Ωω:b', ' :', '12:b'], 'bold Greek and digits');
  t.deepEqual(piece('𝐞\u0301'), ['é:b'], 'a combining mark stays with its letter and composes');
  t.deepEqual(piece('℃ № ™ x'), ['℃ № ™ x:'], 'letterlike symbols that are no styled letter stay as they are');
});

test('every assigned character of the mathematical alphanumerics block has a plain form and an emphasis', (t) => {
  const unmapped: string[] = [];
  for (let code = 0x1d400; code <= 0x1d7ff; code += 1) {
    const character = String.fromCodePoint(code);
    if (!/\p{Assigned}/u.test(character)) continue;
    const plain = character.normalize('NFKC');
    if (mathLetterEmphasis(code) === undefined || plain === character || [...plain].length !== 1) unmapped.push(`U+${code.toString(16).toUpperCase()}`);
  }
  t.deepEqual(unmapped, []);
});

test('mathematical bold, italic, bold italic and monospace draw the pixels of the plain word in that style', (t) => {
  t.is(drawn('𝐛𝐨𝐥𝐝'), drawn('bold', { ...NAME, weight: 900 }), 'bold is one weight heavier than the name');
  t.is(drawn('𝘪𝘵𝘢𝘭𝘪𝘤'), drawn('italic', { ...NAME, italic: true }));
  t.is(drawn('𝒃𝒐𝒕𝒉'), drawn('both', { ...NAME, weight: 900, italic: true }));
  t.is(drawn('𝚖𝚘𝚗𝚘'), pixelsOf((context) => drawText(drawInFamily(context, 'JetBrains Mono'), 'mono', 10, 60, NAME)));
  t.is(drawn('𝔉𝔯𝔞𝔨'), drawn('Frak'));
  // The comparison sees a difference of style: bold is not the name's own weight, italic is not upright.
  t.not(drawn('𝐛𝐨𝐥𝐝'), drawn('bold'));
  t.not(drawn('𝘪𝘵𝘢𝘭𝘪𝘤'), drawn('italic'));
});

test('in another family the styled letters follow it', (t) => {
  const inSerif = (text: string, style: TextStyle = NAME) => pixelsOf((context) => drawText(drawInFamily(context, 'Literata'), text, 10, 60, style));
  t.is(inSerif('𝘪𝘵𝘢𝘭𝘪𝘤'), inSerif('italic', { ...NAME, italic: true }));
  t.not(inSerif('𝘪𝘵𝘢𝘭𝘪𝘤'), drawn('𝘪𝘵𝘢𝘭𝘪𝘤'));
});

test('on the card the name keeps its characters for layout, and the alt text says plain letters', async (t) => {
  const input = { profile: { userId: '302050872383242240', username: 'ada' }, options: { customUsername: '𝓐𝓭𝓪 𝐁𝐨𝐥𝐝' } };
  const card = await renderCard(input);
  t.is(card.texts.find((text) => text.role === 'name')?.text, '𝓐𝓭𝓪 𝐁𝐨𝐥𝐝');
  t.is(cardAltText(input), 'Profile card for Ada Bold (@ada).');
  t.is(plainLetters('ℍ𝕚 𝚝𝚑𝚎𝚛𝚎'), 'Hi there');
});
