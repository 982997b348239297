/**
 * Every card fits Discord's 10 MiB upload limit by construction (issue 30, item 5): a still card at
 * the largest scale cannot pass the worst-case PNG size, an animated one stays under its 4 MiB cap
 * or is answered as the still card.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import sharp from 'sharp';
import { encodeCardImage } from '../../../packages/render-engine/src/card-pool/card-formats.ts';
import { CARD_BYTE_CAPS, DISCORD_UPLOAD_LIMIT_BYTES, renderAnimatedCard, renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { ANIMATION_CAPS } from '../../../packages/card/src/animation/timeline.ts';
import { worstCasePngBytes } from '../../../packages/card/src/card-bytes.ts';
import { WELCOME_TALL_FRAME } from '../../../packages/card/src/layout/welcome-tall-layout.ts';
import { animatedImage, type Rgba } from '../../fixtures/images.ts';

/** The largest still card: the tall welcome layout at 2x, 1920x1080 (the 3:1 cards are 1800x600). */
const LARGEST = { width: WELCOME_TALL_FRAME.width * 2, height: WELCOME_TALL_FRAME.height * 2 };

test('the caps: Discord\'s limit is 10 MiB; the worst still card at 2x and the animated cap are under it', (t) => {
  t.is(DISCORD_UPLOAD_LIMIT_BYTES, 10 * 1024 * 1024);
  const rawPixels = LARGEST.width * LARGEST.height * 4;
  t.is(CARD_BYTE_CAPS.still, worstCasePngBytes(LARGEST.width, LARGEST.height));
  t.true(CARD_BYTE_CAPS.still > rawPixels, 'the bound is above the raw pixels: no PNG can be larger');
  t.true(CARD_BYTE_CAPS.still < DISCORD_UPLOAD_LIMIT_BYTES);
  t.is(CARD_BYTE_CAPS.animated, ANIMATION_CAPS.maxBytes);
  t.true(CARD_BYTE_CAPS.animated <= DISCORD_UPLOAD_LIMIT_BYTES);
});

test('a PNG of pure noise, which deflate cannot shrink, stays under the worst-case bound', async (t) => {
  const { width, height } = LARGEST;
  const noise = await sharp(randomBytes(width * height * 4), { raw: { width, height, channels: 4 } }).png({ compressionLevel: 9 }).toBuffer();
  t.true(noise.length > width * height * 4 * 0.99, `${noise.length} bytes: the noise is incompressible`);
  t.true(noise.length <= CARD_BYTE_CAPS.still, `${noise.length} > ${CARD_BYTE_CAPS.still}`);
});

test('a card of noise at 2x, in every still format, stays under the still cap', async (t) => {
  const { width, height } = LARGEST;
  const noisePng = (w: number, h: number) => sharp(randomBytes(w * h * 4), { raw: { width: w, height: h, channels: 4 } }).png().toBuffer();
  const input: CardInput = {
    profile: { userId: '175928847299117063', username: 'noise', displayName: 'Noise', avatar: await noisePng(512, 512) },
    options: { layout: 'welcome-tall', panel: 'glass', backgroundBrightness: 100, customBackground: 'https://example.com/noise.png' },
    images: { background: await noisePng(width, height) },
    scale: 2,
  };
  const card = await renderCard(input);
  t.deepEqual([card.width, card.height], [width, height]);
  t.true(card.png.length <= CARD_BYTE_CAPS.still, `png ${card.png.length}`);
  for (const format of ['webp', 'avif', 'gif'] as const) {
    const bytes = await encodeCardImage(card.png, format);
    t.true(bytes.length <= CARD_BYTE_CAPS.still, `${format} ${bytes.length}`);
  }
});

test('an animation still over its byte cap at two frames is answered as the still card, never over the cap', async (t) => {
  const shade = (index: number): Rgba => [(index * 37) % 256, (index * 91) % 256, (index * 13) % 256, 255];
  const background = await animatedImage('webp', { width: 300, height: 100 }, Array.from({ length: 8 }, (_, index) => shade(index)), Array.from({ length: 8 }, () => 100));
  const input: CardInput = { profile: { userId: '175928847299117063', username: 'ada.codes' }, options: { customBackground: 'https://example.com/a.webp' }, images: { background } };
  const card = await renderAnimatedCard(input, { format: 'webp', maxBytes: 1000 });
  t.false(card.animated);
  t.true(card.bytes.equals((await renderCard(input)).png), 'the still card itself');
  t.true(card.warnings.some((warning) => warning.includes('over the 1000-byte cap')), card.warnings.join('; '));
});
