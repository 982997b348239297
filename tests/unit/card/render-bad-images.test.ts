/**
 * Bad images through the whole renderCard path (tests/card/images/ covers decodeImage alone):
 * images the caller chose (customBackground, customBadges) refuse the card with a CardImageError
 * naming the field; profile images (avatar, banner, decoration) fall back to the default art with
 * a warning, because the user of the API cannot fix someone's Discord profile.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Image } from 'canvas';
import { CardImageError, clearCardCaches, renderCard, type CardImageErrorReason, type CardInput } from '../../../packages/card/src/index.ts';
import { SAMPLE_CARDS } from '../../../packages/card/samples/sample-cards.ts';
import { sampleAvatarPng, sampleBadgePng, sampleLandscapeJpeg } from '../../../packages/card/samples/sample-images.ts';
import { rejectsWithCardImageError } from '../../support/card/images/card-image-assertions.ts';
import { ihdrChunk, PNG_SIGNATURE, pngChunk } from '../../fixtures/images.ts';

const goodPng = sampleAvatarPng();
const goodBadge = sampleBadgePng();

/** A complete, valid-CRC PNG whose header claims 30000x30000 (3.6 GB decoded); its data is one tiny row. */
const hugePngHeader = Buffer.concat([
  PNG_SIGNATURE,
  ihdrChunk(30000, 30000),
  pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
  pngChunk('IEND', Buffer.alloc(0)),
]);

const BAD_IMAGES: { name: string; bytes: Buffer; reason: CardImageErrorReason }[] = [
  { name: 'a truncated PNG', bytes: goodPng.subarray(0, Math.floor(goodPng.length / 2)), reason: 'corrupt' },
  { name: 'an HTML error page', bytes: Buffer.from('<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>'), reason: 'unsupported_format' },
  { name: 'a 30000x30000 PNG header', bytes: hugePngHeader, reason: 'too_large' },
  {
    name: 'an SVG',
    bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><image href="file:///etc/passwd"/></svg>'),
    reason: 'unsupported_format',
  },
];

const PROFILE = {
  userId: '175928847299117063',
  username: 'ada.codes',
  displayName: 'Ada',
  badges: ['staff'] as const,
};

for (const bad of BAD_IMAGES) {
  test(`${bad.name} as customBackground refuses the card: ${bad.reason}`, async (t) => {
    const input: CardInput = {
      profile: { ...PROFILE, avatar: goodPng },
      options: { customBackground: 'https://example.com/background.png' },
      images: { background: bad.bytes },
    };
    await rejectsWithCardImageError(t, renderCard(input), bad.reason, 'customBackground');
  });

  test(`${bad.name} as the second custom badge refuses the card: ${bad.reason}, field customBadges.1`, async (t) => {
    const input: CardInput = {
      profile: PROFILE,
      options: { customBadges: ['https://example.com/a.png', 'https://example.com/b.png'] },
      images: { customBadges: [goodBadge, bad.bytes] },
    };
    await rejectsWithCardImageError(t, renderCard(input), bad.reason, 'customBadges.1');
  });

  for (const field of ['avatar', 'banner', 'avatarDecoration'] as const) {
    test(`${bad.name} as the profile ${field} degrades to the card without it, with a warning`, async (t) => {
      const withBadImage = await renderCard({ profile: { ...PROFILE, [field]: bad.bytes }, options: {} });
      const without = await renderCard({ profile: PROFILE, options: {} });
      t.is(withBadImage.warnings.length, 1);
      t.true(withBadImage.warnings[0]?.startsWith(`${field}: `), withBadImage.warnings[0]);
      t.true(withBadImage.png.equals(without.png), 'the card should be exactly the one drawn without that image');
      t.deepEqual(without.warnings, []);
    });
  }
}

test('a bad image is refused every time: failures are never cached', async (t) => {
  const input: CardInput = { profile: PROFILE, options: {}, images: { background: goodPng.subarray(0, 200) } };
  for (let attempt = 0; attempt < 2; attempt += 1) await rejectsWithCardImageError(t, renderCard(input), 'corrupt', 'customBackground');
});

test('a refused custom badge is named by its index', async (t) => {
  clearCardCaches();
  const html = Buffer.from('<html></html>');
  const error = await t.throwsAsync(renderCard({ profile: PROFILE, options: {}, images: { customBadges: [goodBadge, goodBadge, html] } }), {
    instanceOf: CardImageError,
  });
  t.is(error?.field, 'customBadges.2');
});

test('a custom background replaces a broken banner without a warning about the banner', async (t) => {
  const card = await renderCard({
    profile: { ...PROFILE, banner: Buffer.from('not an image') },
    options: { customBackground: 'https://example.com/bg.jpg' },
    images: { background: sampleLandscapeJpeg() },
  });
  t.deepEqual(card.warnings, []);
});

// ------------------------------------------------------------------- only Buffers reach Image.src

const CARD_SOURCE = join(import.meta.dirname, '../../../packages/card/src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('in the package source, canvas never decodes an image: only images/ reads untrusted bytes, through sharp', (t) => {
  const sharpImports: string[] = [];
  for (const file of sourceFiles(CARD_SOURCE)) {
    const code = readFileSync(file, 'utf8');
    // node-canvas treats a string given to Image.src or loadImage as a file path or a URL to fetch,
    // and its own decoders (libpng, libjpeg, giflib) are the ones the metadata bombs went through.
    t.notRegex(code, /\.src\s*=/, `${file} sets an image src`);
    t.notRegex(code, /new Image\s*\(/, `${file} makes an Image`);
    t.notRegex(code, /loadImage\(/, `${file} calls loadImage`);
    if (/from 'sharp'/.test(code)) sharpImports.push(file.slice(CARD_SOURCE.length + 1));
  }
  // The animation encoder hands sharp only raw pixels the card drew, never bytes from a request.
  t.deepEqual(sharpImports.sort(), ['animation/encode-animation.ts', 'images/decode-animation.ts', 'images/decode-apng.ts', 'images/decode-image.ts']);
});

test.serial('drawing every sample card and every bad image never hands node-canvas image bytes to decode', async (t) => {
  const descriptor = Object.getOwnPropertyDescriptor(Image.prototype, 'src');
  if (!descriptor?.set) throw new Error('node-canvas no longer defines Image.prototype.src as an accessor');
  const seen: string[] = [];
  Object.defineProperty(Image.prototype, 'src', {
    ...descriptor,
    set(this: Image, value: unknown) {
      seen.push(Buffer.isBuffer(value) ? 'Buffer' : typeof value);
      descriptor.set?.call(this, value);
    },
  });
  let refused = 0;
  try {
    clearCardCaches();
    for (const sample of SAMPLE_CARDS) await renderCard(sample.input);
    for (const bad of BAD_IMAGES) {
      await renderCard({ profile: { ...PROFILE, avatar: bad.bytes, banner: bad.bytes }, options: {} });
      await t.throwsAsync(renderCard({ profile: PROFILE, options: {}, images: { background: bad.bytes } }), { instanceOf: CardImageError });
      refused += 1;
    }
  } finally {
    Object.defineProperty(Image.prototype, 'src', descriptor);
  }
  t.is(refused, BAD_IMAGES.length);
  t.deepEqual(seen, []);
});
