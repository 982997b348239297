import { renderJobId } from '@utility-api/render-jobs';
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
