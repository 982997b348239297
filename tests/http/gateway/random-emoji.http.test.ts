import test from 'ava';
import { seededRandomSource } from '../../../services/gateway/src/runtime/random-source.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

const CATEGORIES = [
  'Smileys & Emotion',
  'People & Body',
  'Animals & Nature',
  'Food & Drink',
  'Travel & Places',
  'Activities',
  'Objects',
  'Symbols',
  'Flags',
];

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway({ random: seededRandomSource(20240615) });
});
test.after.always(async () => {
  await gateway?.close();
});

function keys(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `emoji${index + 1}`);
}

/** The emoji objects of an answer, in key order. */
function emojisOf(body: Record<string, { emoji: string; category: string; isSymbol: boolean; emojiType: string }>) {
  return Object.values(body);
}

test('200 gives one emoji under emoji1 by default, with every field', async (t) => {
  const { status, body, response } = await gateway.json('/v1/random-emoji');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(Object.keys(body), ['emoji1']);
  const item = body.emoji1;
  t.deepEqual(Object.keys(item).sort(), ['category', 'emoji', 'emojiColor', 'emojiMood', 'emojiName', 'emojiType', 'isSymbol', 'unicode']);
  t.regex(item.unicode, /^U\+[0-9A-F]{4,6}( U\+[0-9A-F]{4,6})*$/);
  t.true(CATEGORIES.includes(item.category));
  t.is(typeof item.isSymbol, 'boolean');
  for (const field of ['emoji', 'emojiName', 'emojiMood', 'emojiColor', 'emojiType']) t.true(item[field].length > 0, field);
});

test('200 count=3 gives emoji1 to emoji3, all distinct', async (t) => {
  for (let round = 0; round < 10; round += 1) {
    const { status, body } = await gateway.json('/v1/random-emoji?count=3');
    t.is(status, 200);
    t.deepEqual(Object.keys(body), keys(3));
    t.is(new Set(emojisOf(body).map((item) => item.emoji)).size, 3);
  }
});

test('200 counts above 10 give 10', async (t) => {
  for (const count of ['10', '11', '50', '100000000000000000000', '%2B12']) {
    const { status, body } = await gateway.json(`/v1/random-emoji?count=${count}`);
    t.is(status, 200, count);
    t.deepEqual(Object.keys(body), keys(10), count);
    t.is(new Set(emojisOf(body).map((item) => item.emoji)).size, 10, count);
  }
});

test('200 filters by an encoded category name, in any case or as a slug', async (t) => {
  for (const category of ['Food%20%26%20Drink', 'food%20%26%20drink', 'Food+%26+Drink', 'FOOD%20%26%20DRINK', 'food-drink']) {
    const { status, body } = await gateway.json(`/v1/random-emoji?category=${category}&count=10`);
    t.is(status, 200, category);
    t.deepEqual(Object.keys(body), keys(10), category);
    t.deepEqual([...new Set(emojisOf(body).map((item) => item.category))], ['Food & Drink'], category);
  }
});

test('200 isSymbol=true gives only Symbols', async (t) => {
  for (const value of ['true', 'TRUE', 'True']) {
    const { status, body } = await gateway.json(`/v1/random-emoji?isSymbol=${value}&count=10`);
    t.is(status, 200);
    for (const item of emojisOf(body)) {
      t.is(item.category, 'Symbols');
      t.true(item.isSymbol);
      t.is(item.emojiType, 'Symbol');
    }
  }
});

test('200 isSymbol=false gives no Symbols', async (t) => {
  for (let round = 0; round < 20; round += 1) {
    const { status, body } = await gateway.json('/v1/random-emoji?isSymbol=false&count=10');
    t.is(status, 200);
    for (const item of emojisOf(body)) {
      if (item.category === 'Symbols' || item.isSymbol || item.emojiType === 'Symbol') t.fail(JSON.stringify(item));
    }
  }
});

test('200 category and isSymbol combine', async (t) => {
  const { status, body } = await gateway.json('/v1/random-emoji?category=Symbols&isSymbol=true&count=4');
  t.is(status, 200);
  t.deepEqual(Object.keys(body), keys(4));
  for (const item of emojisOf(body)) t.is(item.category, 'Symbols');
});

test('400 when count is not a whole number of 1 or more', async (t) => {
  for (const count of ['0', '-1', '1.5', 'abc', '', '-0', '1e2', '0x5']) {
    const { status, body } = await gateway.json(`/v1/random-emoji?count=${count}`);
    t.is(status, 400, count);
    t.is(body.error.code, 'invalid_request', count);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'count', message: 'must be a whole number, 1 or more' }], count);
    t.is(typeof body.requestId, 'string');
  }
});

test('400 when count is repeated', async (t) => {
  const { status, body } = await gateway.json('/v1/random-emoji?count=1&count=2');
  t.is(status, 400);
  t.deepEqual(body.error.details, [{ in: 'query', field: 'count', message: 'must be given only once' }]);
});

test('400 for an unknown category lists the valid names', async (t) => {
  for (const category of ['Pizza', 'Food', 'component', '']) {
    const { status, body } = await gateway.json(`/v1/random-emoji?category=${category}`);
    t.is(status, 400, category);
    t.is(body.error.code, 'invalid_request');
    t.is(body.error.details.length, 1);
    t.is(body.error.details[0].field, 'category');
    for (const name of CATEGORIES) {
      t.true(body.error.message.includes(name), `message names ${name}`);
      t.true(body.error.details[0].message.includes(name), `detail names ${name}`);
    }
  }
});

test('400 for an unencoded & in the category (the value is cut at the &)', async (t) => {
  const { status, body } = await gateway.json('/v1/random-emoji?category=Food%20&%20Drink');
  t.is(status, 400);
  t.is(body.error.details[0].field, 'category');
});

test('400 when isSymbol is not true or false', async (t) => {
  for (const value of ['maybe', '1', 'yes', '']) {
    const { status, body } = await gateway.json(`/v1/random-emoji?isSymbol=${value}`);
    t.is(status, 400, value);
    t.deepEqual(body.error.details, [{ in: 'query', field: 'isSymbol', message: 'must be true or false' }], value);
  }
});

test('404 when the filters leave no emoji', async (t) => {
  const { status, body } = await gateway.json('/v1/random-emoji?category=Food%20%26%20Drink&isSymbol=true');
  t.is(status, 404);
  t.is(body.error.status, 404);
  t.is(body.error.code, 'no_matching_emoji');
  t.is(typeof body.error.message, 'string');
  t.is(typeof body.requestId, 'string');

  const other = await gateway.json('/v1/random-emoji?category=Flags&isSymbol=true&count=3');
  t.is(other.status, 404);
});
