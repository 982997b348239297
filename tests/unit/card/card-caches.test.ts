import test from 'ava';
import { createCanvas } from 'canvas';
import { CountedCache } from '../../../packages/card/src/cache/card-caches.ts';
import { measureText, type TextStyle } from '../../../packages/card/src/text/rich-text.ts';
import {
  cardCacheStats,
  clearCardCaches,
  configureCardCaches,
  DEFAULT_CARD_CACHE_LIMITS,
  prepareCardFonts,
  renderCard,
  type CardInput,
} from '../../../packages/card/src/index.ts';
import { sampleAbstractPng, sampleAvatarPng, sampleBadgePng, sampleLandscapeJpeg } from '../../../packages/card/samples/sample-images.ts';

// Serial: the caches are module state shared by every test in this process.

const sized = (limits: { maxEntries: number; maxBytes: number }) => new CountedCache<{ bytes: number }>(limits, (value) => value.bytes);

test.serial('the least recently used entry goes first when the entry count is exceeded', (t) => {
  const cache = sized({ maxEntries: 2, maxBytes: 1000 });
  cache.set('a', { bytes: 1 });
  cache.set('b', { bytes: 1 });
  t.truthy(cache.get('a')); // a is now the most recent
  cache.set('c', { bytes: 1 });
  t.truthy(cache.get('a'));
  t.is(cache.get('b'), undefined);
  t.truthy(cache.get('c'));
  t.like(cache.stats(), { entries: 2, bytes: 2, hits: 3, misses: 1, evictions: 1 });
});

test.serial('entries are evicted until the bytes fit, and a value larger than the budget is not kept', (t) => {
  const cache = sized({ maxEntries: 100, maxBytes: 10 });
  cache.set('a', { bytes: 4 });
  cache.set('b', { bytes: 4 });
  cache.set('c', { bytes: 4 });
  t.deepEqual([cache.get('a'), cache.get('b')?.bytes, cache.get('c')?.bytes], [undefined, 4, 4]);
  cache.set('huge', { bytes: 11 });
  t.is(cache.get('huge'), undefined);
  t.like(cache.stats(), { entries: 2, bytes: 8 });
  cache.set('b', { bytes: 2 }); // replacing an entry recounts its bytes
  t.like(cache.stats(), { entries: 2, bytes: 6 });
  cache.resize({ maxEntries: 1, maxBytes: 10 });
  t.like(cache.stats(), { entries: 1, bytes: 2 });
  t.is(cache.get('c'), undefined);
  t.throws(() => cache.resize({ maxEntries: -1, maxBytes: 10 }), { instanceOf: RangeError });
});

const PROFILE = { userId: '175928847299117063', username: 'ada.codes' };
const landscape = sampleLandscapeJpeg();

const withBackground = (background: Buffer, options: CardInput['options'] = {}, scale: 1 | 2 = 1): CardInput => ({
  profile: { ...PROFILE, avatar: sampleAvatarPng() },
  options: { customBackground: 'https://example.com/bg', ...options },
  images: { background },
  scale,
});

test.serial('a repeated background is decoded and softened once; blur, scale and the bytes are part of its key', async (t) => {
  clearCardCaches();
  await renderCard(withBackground(landscape));
  t.like(cardCacheStats().backgrounds, { entries: 1, hits: 0, misses: 1 });
  // The caller's buffer is never what the cache holds on to: an equal copy hits.
  await renderCard(withBackground(Buffer.from(landscape), { customUsername: 'someone else' }));
  t.like(cardCacheStats().backgrounds, { entries: 1, hits: 1, misses: 1 });
  await renderCard(withBackground(landscape, { moreBackgroundBlur: true }));
  await renderCard(withBackground(landscape, {}, 2));
  await renderCard(withBackground(sampleAbstractPng()));
  t.like(cardCacheStats().backgrounds, { entries: 4, hits: 1, misses: 4 });
  // The avatar went through the decoded-image cache, decoded at the size it is drawn: once at 1x
  // (then reused three times) and once at 2x.
  t.like(cardCacheStats().decodedImages, { entries: 2, hits: 3, misses: 2 });
});

test.serial('generated backgrounds are cached per user and palette', async (t) => {
  clearCardCaches();
  await renderCard({ profile: PROFILE, options: {} });
  await renderCard({ profile: PROFILE, options: { customUsername: 'again' } });
  await renderCard({ profile: { ...PROFILE, accentColor: '#ff0000' }, options: {} });
  await renderCard({ profile: { ...PROFILE, userId: '1083722195840204800' }, options: {} });
  t.like(cardCacheStats().backgrounds, { entries: 3, hits: 1, misses: 3 });
});

test.serial('the caches stay within the configured bounds', async (t) => {
  clearCardCaches();
  try {
    // Room for one 1x background (900x300x4 bytes) and two badge images.
    configureCardCaches({ backgrounds: { maxEntries: 10, maxBytes: 1_500_000 }, decodedImages: { maxEntries: 2, maxBytes: 10_000_000 } });
    await renderCard(withBackground(landscape));
    await renderCard(withBackground(sampleAbstractPng()));
    t.like(cardCacheStats().backgrounds, { entries: 1, bytes: 900 * 300 * 4, evictions: 1 });
    const badges = ['#ff0000', '#00ff00', '#0000ff'].map((color) => sampleBadgePng(color));
    await renderCard({ profile: PROFILE, options: {}, images: { customBadges: badges } });
    t.like(cardCacheStats().decodedImages, { entries: 2 });
    configureCardCaches({ backgrounds: { maxEntries: 0, maxBytes: 0 } });
    t.like(cardCacheStats().backgrounds, { entries: 0, bytes: 0 });
  } finally {
    configureCardCaches(DEFAULT_CARD_CACHE_LIMITS);
  }
});

const cardCanvasContext = (scale: number) => {
  const context = createCanvas(900 * scale, 300 * scale).getContext('2d');
  context.scale(scale, scale);
  return context;
};
/** What Pango says without the cache: the font and direction set as the card sets them, then measureText. */
function uncachedWidth(text: string, style: TextStyle): number {
  const context = cardCanvasContext(1);
  context.font = `${style.weight} ${style.size}px Inter, "Noto Sans", "Noto Sans CJK JP", "Noto Sans Symbols", "Noto Sans Symbols 2", "Noto Sans Math"`;
  return context.measureText(text).width;
}

test.serial('a text measurement is reused only for the same font, letter spacing and text', (t) => {
  clearCardCaches();
  prepareCardFonts();
  const context = cardCanvasContext(1);
  const style: TextStyle = { size: 20, weight: 600, color: '#fff' };
  const first = measureText(context, 'Level 12', style);
  t.is(first, uncachedWidth('Level 12', style));
  t.is(measureText(context, 'Level 12', style), first);
  t.like(cardCacheStats().textMeasurements, { entries: 1, hits: 1, misses: 1 });
  // Each of these differs from the cached one in one way and must be measured anew.
  const variants: [string, TextStyle][] = [
    ['Level 13', style],
    ['Level 12 ', style],
    ['Level 12', { ...style, size: 21 }],
    ['Level 12', { ...style, weight: 800 }],
  ];
  for (const [text, variant] of variants) t.is(measureText(context, text, variant), uncachedWidth(text, variant), `${text} at ${variant.weight} ${variant.size}px`);
  t.not(measureText(context, 'Level 12', { ...style, size: 21 }), first);
  // Letter spacing adds to the width once per letter, and is part of the key.
  t.is(measureText(context, 'Level 12', { ...style, letterSpacing: 1 }), first + 8);
  // The color is not part of the width: same entry.
  t.is(measureText(context, 'Level 12', { ...style, color: '#000' }), first);
  // Measured at scale 2 (HiDPI cards), Pango gives the same 1x widths, so entries are shared.
  t.is(measureText(cardCanvasContext(2), 'Level 12', style), first);
  t.like(cardCacheStats().textMeasurements, { entries: 6, misses: 6 });
});

test.serial('the text measurement cache stays within its bounds', (t) => {
  clearCardCaches();
  const context = cardCanvasContext(1);
  const style: TextStyle = { size: 16, weight: 400, color: '#fff' };
  try {
    configureCardCaches({ textMeasurements: { maxEntries: 50, maxBytes: 1_000_000 } });
    for (let index = 0; index < 200; index += 1) measureText(context, `card number ${index}`, style);
    t.like(cardCacheStats().textMeasurements, { entries: 50, evictions: 150 });
    configureCardCaches({ textMeasurements: { maxEntries: 1000, maxBytes: 4000 } });
    for (let index = 0; index < 200; index += 1) measureText(context, `card number ${index}`, style);
    t.true(cardCacheStats().textMeasurements.bytes <= 4000);
    t.true(cardCacheStats().textMeasurements.entries < 50);
    // The oldest are gone: measuring the first again is a miss, and still the right width.
    const misses = cardCacheStats().textMeasurements.misses;
    t.is(measureText(context, 'card number 0', style), uncachedWidth('card number 0', style));
    t.is(cardCacheStats().textMeasurements.misses, misses + 1);
    configureCardCaches({ textMeasurements: { maxEntries: 0, maxBytes: 0 } });
    t.is(measureText(context, 'card number 0', style), uncachedWidth('card number 0', style));
    t.like(cardCacheStats().textMeasurements, { entries: 0 });
  } finally {
    configureCardCaches(DEFAULT_CARD_CACHE_LIMITS);
  }
});

test.serial('static layers: one per design, the same pixels cold and warm, and bounded', async (t) => {
  // Default avatar (no picture): the whole avatar layer is cached, per palette and status.
  // Without a picture or an accent colour every card has the default accent: the third design's own accent gives it another palette.
  const card = (accentColor: string | undefined, presenceStatus: 'online' | 'dnd', scale: 1 | 2 = 1): CardInput => ({ profile: { ...PROFILE, accentColor }, options: { presenceStatus }, scale });
  const designs = [card(undefined, 'online'), card(undefined, 'dnd'), card('#e11d48', 'online'), card(undefined, 'online', 2)];
  const cold: Buffer[] = [];
  for (const input of designs) {
    clearCardCaches();
    cold.push((await renderCard(input)).png);
  }
  clearCardCaches();
  for (const [index, input] of designs.entries()) {
    await renderCard(input);
    const warm = await renderCard({ ...input, options: { ...input.options } });
    t.true(warm.png.equals(cold[index]!), `design ${index}: the warm card differs from the cold one`);
  }
  // The panel fill per ground and scale (2: all dark, 1x and 2x), the ring per palette, shape and
  // scale (3: the status is not part of it), the default avatar layer per design (4).
  const stats = cardCacheStats().staticLayers;
  t.is(stats.entries, 2 + 3 + 4);
  // Every warm card found its panel and its avatar layer.
  t.true(stats.hits >= designs.length * 2);
  try {
    configureCardCaches({ staticLayers: { maxEntries: 2, maxBytes: 100_000_000 } });
    await renderCard(designs[0]!);
    t.like(cardCacheStats().staticLayers, { entries: 2 });
    configureCardCaches({ staticLayers: { maxEntries: 0, maxBytes: 0 } });
    t.true((await renderCard(designs[1]!)).png.equals(cold[1]!));
    t.like(cardCacheStats().staticLayers, { entries: 0 });
  } finally {
    configureCardCaches(DEFAULT_CARD_CACHE_LIMITS);
  }
});
