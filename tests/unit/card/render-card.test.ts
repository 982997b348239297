import { inflateSync } from 'node:zlib';
import test from 'ava';
import { Canvas } from 'canvas';
import { PNG_ENCODING, renderCard, warmUpCardRenderer } from '../../../packages/card/src/index.ts';
import { RENDER_STEPS } from '../../../packages/card/src/steps/render-steps.ts';
import { isRightToLeft, splitRuns } from '../../../packages/card/src/text/rich-text.ts';
import { decodePng } from '../../support/card/golden-images.ts';
import { parsePngChunks, PNG_SIGNATURE } from '../../fixtures/images.ts';

const PROFILE = { userId: '175928847299117063', username: 'ada.codes' };

test('a card is a 900x300 PNG at scale 1 and 1800x600 at scale 2, with transparent rounded corners', async (t) => {
  for (const scale of [1, 2] as const) {
    const card = await renderCard({ profile: PROFILE, options: {}, scale });
    t.deepEqual([card.width, card.height], [900 * scale, 300 * scale]);
    t.true(card.png.subarray(0, 8).equals(PNG_SIGNATURE));
    const pixels = decodePng(card.png);
    t.deepEqual([pixels.width, pixels.height], [card.width, card.height]);
    t.is(pixels.data[3], 0, 'the top-left corner is outside the rounded outline');
    const middle = (pixels.width * (pixels.height / 2) + pixels.width / 2) * 4;
    t.is(pixels.data[middle + 3], 255);
  }
});

test('timings name every render step and add up to no more than the whole', async (t) => {
  const started = performance.now();
  const card = await renderCard({ profile: PROFILE, options: { rankData: { currentXp: 1, requiredXp: 2, level: 1, rank: 1, barColor: '#fff', levelColor: '#fff', autoColorRank: true } } });
  const wall = performance.now() - started;
  t.deepEqual(Object.keys(card.timings.steps), RENDER_STEPS.map((step) => step.name));
  const stepsTotal = Object.values(card.timings.steps).reduce((sum, ms) => sum + ms, 0);
  t.true(stepsTotal <= card.timings.draw + 0.5);
  t.true(card.timings.prepare + card.timings.draw + card.timings.encode <= wall + 0.5);
});

test('the PNG really is written with the chosen settings: unfiltered rows, a middle zlib level', async (t) => {
  // Read from a Canvas instance the filter constants are undefined, and node-canvas silently
  // falls back to adaptive filtering: the rows' filter bytes show which one was used.
  t.is(PNG_ENCODING.filters, Canvas.PNG_FILTER_NONE);
  const card = await renderCard({ profile: PROFILE, options: {} });
  const chunks = parsePngChunks(card.png);
  const zlib = Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data));
  const rows = inflateSync(zlib);
  const stride = 1 + card.width * 4;
  t.is(rows.length, stride * card.height);
  const filters = new Set<number>();
  for (let row = 0; row < card.height; row += 1) filters.add(rows[row * stride] ?? -1);
  t.deepEqual([...filters], [0]);
  // zlib's header records a compression class: 1 is levels 2 to 5 (the default, 6, is class 2).
  t.is((zlib[1] ?? 0) >> 6, 1);
});

test('the warm-up draws a card with every script', async (t) => {
  const { ms } = await warmUpCardRenderer();
  t.true(ms > 0);
});

test('paragraph direction follows the first strong character, direction marks included', (t) => {
  t.true(isRightToLeft('مرحبا Ada'));
  t.false(isRightToLeft('Ada مرحبا'));
  t.true(isRightToLeft('23\u200F/11\u200F/2026'), 'an Arabic-locale date: digits and right-to-left marks');
  t.false(isRightToLeft('2026-11-23'));
  t.true(isRightToLeft('🌙 שלום'));
});

test('text splits into runs of plain text and single emoji graphemes', (t) => {
  t.deepEqual(splitRuns('Kai 🐉✨ 👩‍👩‍👧!'), [
    { kind: 'text', text: 'Kai ' },
    { kind: 'emoji', text: '🐉' },
    { kind: 'emoji', text: '✨' },
    { kind: 'text', text: ' ' },
    { kind: 'emoji', text: '👩‍👩‍👧' },
    { kind: 'text', text: '!' },
  ]);
  t.deepEqual(splitRuns('★彡 1'), [{ kind: 'text', text: '★彡 1' }], 'symbols without emoji presentation stay text');
});

test('emoji presentation follows Unicode: Emoji_Presentation, U+FE0F or an RGI sequence; text-default symbols stay text', (t) => {
  const kinds = (text: string) => splitRuns(text).map((run) => `${run.kind}:${run.text}`);
  // Text-default (Emoji_Presentation=No) without U+FE0F: drawn by the symbol fonts.
  t.deepEqual(kinds('⚙'), ['text:⚙']);
  t.deepEqual(kinds('♫ ⌘ ❤ © 1'), ['text:♫ ⌘ ❤ © 1']);
  // The same symbols with U+FE0F, and keycaps: color emoji.
  t.deepEqual(kinds('⚙\uFE0F'), ['emoji:⚙\uFE0F']);
  t.deepEqual(kinds('❤\uFE0F1\uFE0F\u20E3'), ['emoji:❤\uFE0F', 'emoji:1\uFE0F\u20E3']);
  // Emoji-default characters are emoji alone, and text with U+FE0E.
  t.deepEqual(kinds('⌚🐉'), ['emoji:⌚', 'emoji:🐉']);
  t.deepEqual(kinds('⌚\uFE0E'), ['text:⌚\uFE0E']);
  // Full sequences: skin tone, ZWJ with a text-default part, flags.
  t.deepEqual(kinds('👍🏽🏳️‍🌈🇯🇵'), ['emoji:👍🏽', 'emoji:🏳️‍🌈', 'emoji:🇯🇵']);
  t.deepEqual(kinds('gear ⚙ and ⚙️'), ['text:gear ⚙ and ', 'emoji:⚙️']);
});

test('cards drawn at the same time on the shared canvas are the cards drawn one by one', async (t) => {
  // Still cards of one frame and scale share a canvas (render-card.ts): safe only while nothing is
  // awaited between the first draw step and the PNG. An await there would mix two cards' pixels.
  const { SAMPLE_CARDS } = await import('../../../packages/card/samples/sample-cards.ts');
  const inputs = SAMPLE_CARDS.filter((card) => card.input.options.animated !== true).slice(0, 8).map((card) => card.input);
  const alone: Buffer[] = [];
  for (const input of inputs) alone.push((await renderCard(input)).png);
  const together = await Promise.all(inputs.map(async (input) => (await renderCard(input)).png));
  t.is(inputs.length, 8);
  together.forEach((png, index) => t.true(png.equals(alone[index]!), `card ${index} drawn beside the others differs from itself drawn alone`));
});
