import test from 'ava';
import { CountedCache } from '../../packages/card/src/cache/card-caches.ts';
import {
  cardCacheStats,
  clearCardCaches,
  configureCardCaches,
  DEFAULT_CARD_CACHE_LIMITS,
  renderCard,
  type CardInput,
} from '../../packages/card/src/index.ts';
import { sampleAbstractPng, sampleAvatarPng, sampleBadgePng, sampleLandscapeJpeg } from '../../packages/card/samples/sample-images.ts';

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
