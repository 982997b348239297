import { ANIMATION_CAPS } from '@utility-api/card';
import { cardAnimationEncoding, cardOptionsSchema, renderJobId, renderJobPayloadSchema } from '@utility-api/render-jobs';
import test from 'ava';

const userId = '302050872383242240';

test('the job id names user, options and format: each format of a card is its own render, png being the default', (t) => {
  const options = { customTag: 'hi', backgroundBrightness: 42 };
  const png = renderJobId({ userId, options });
  t.is(renderJobId({ userId, options, format: 'png' }), png, 'no format is png');
  const ids = new Set((['webp', 'avif', 'gif'] as const).map((format) => renderJobId({ userId, options, format })));
  t.is(ids.size, 3);
  t.false(ids.has(png));
  t.is(renderJobId({ userId, options: { backgroundBrightness: 42, customTag: 'hi' }, format: 'webp' }), renderJobId({ userId, options, format: 'webp' }), 'key order does not matter');
  for (const id of [png, ...ids]) t.regex(id, /^card-[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('animated is part of the job id, and an animated job refuses png and avif', (t) => {
  const options = { customTag: 'moving' };
  const still = renderJobId({ userId, options, format: 'webp' });
  const animated = renderJobId({ userId, options: { ...options, animated: true }, format: 'webp' });
  t.not(animated, still);
  t.is(renderJobId({ userId, options: { animated: true, ...options }, format: 'webp' }), animated);
  t.not(renderJobId({ userId, options: { ...options, animated: true }, format: 'gif' }), animated);
  t.true(renderJobPayloadSchema.safeParse({ userId, options: { animated: true }, format: 'gif' }).success);
  t.true(renderJobPayloadSchema.safeParse({ userId, options: { animated: true } }).success);
  for (const format of ['png', 'avif'] as const) {
    const parsed = renderJobPayloadSchema.safeParse({ userId, options: { animated: true }, format });
    t.false(parsed.success);
    t.deepEqual(parsed.error?.issues.map((issue) => issue.path), [['format']]);
  }
});

test('an animated request is encoded as WebP, as GIF with format gif; its still card keeps the asked format, PNG by default', (t) => {
  t.is(cardAnimationEncoding({ options: {} }), undefined);
  t.is(cardAnimationEncoding({ options: { animated: false }, format: 'gif' }), undefined);
  t.deepEqual(cardAnimationEncoding({ options: { animated: true } }), { animation: 'webp', still: 'png' });
  t.deepEqual(cardAnimationEncoding({ options: { animated: true }, format: 'webp' }), { animation: 'webp', still: 'webp' });
  t.deepEqual(cardAnimationEncoding({ options: { animated: true }, format: 'gif' }), { animation: 'gif', still: 'gif' });
});

test("the animated field's description states the card package's animation caps", (t) => {
  const description = cardOptionsSchema.shape.animated.unwrap().meta()?.description ?? '';
  t.true(description.includes(`at most ${ANIMATION_CAPS.maxDurationMs / 1000} s`), description);
  t.true(description.includes(`at most ${ANIMATION_CAPS.maxFrames} frames`));
  t.true(description.includes(`(${Math.floor(ANIMATION_CAPS.maxOutputPixels / (1800 * 600))} at the 2x scale)`));
  t.true(description.includes(`at least ${ANIMATION_CAPS.minFrameMs} ms`));
  t.true(description.includes(`at most ${ANIMATION_CAPS.maxBytes / (1024 * 1024)} MiB`));
});

test('the job id is scoped to the requesting key: another key never shares a render', (t) => {
  const payload = { userId: '302050872383242240', options: { customTag: 'hi' } };
  t.not(renderJobId(payload, 'key_aaaaaaaaaaaa'), renderJobId(payload, 'key_bbbbbbbbbbbb'));
  t.is(renderJobId(payload, 'key_aaaaaaaaaaaa'), renderJobId({ ...payload, options: { customTag: 'hi' } }, 'key_aaaaaaaaaaaa'));
  t.not(renderJobId(payload, 'key_aaaaaaaaaaaa'), renderJobId(payload));
});
