import test from 'ava';
import { seededRandomSource } from '../../../services/gateway/src/runtime/random-source.ts';
import { loadContract } from '../../helpers/openapi-contract.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const FAMILY = '👩‍👩‍👧';
const KISS = '👩🏻‍❤️‍💋‍👨🏼';

function graphemesOf(text: string): string[] {
  return Array.from(segmenter.segment(text.normalize('NFC')), (part) => part.segment).sort();
}

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway({ random: seededRandomSource(20240615) });
});
test.after.always(async () => {
  await gateway?.close();
});

function scramble(word: string) {
  return gateway.json(`/v1/scramble?word=${encodeURIComponent(word)}`);
}

test('200 word=example is the documented example, scrambled by its own draw', async (t) => {
  const { status, body, response } = await gateway.json('/v1/scramble?word=example');
  t.is(status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  const documented = (await loadContract(gateway.url)).example('/v1/scramble', 'get') as { scrambled: string };
  t.deepEqual({ ...body, scrambled: documented.scrambled }, documented);
  t.not(body.scrambled, 'example');
  t.deepEqual([...body.scrambled].sort(), [...'example'].sort());
});

test('200 keeps emoji ZWJ sequences and accented letters whole', async (t) => {
  for (const word of [`${FAMILY}ab${FAMILY}`, 'café', 'cafe\u0301', `${KISS}🇺🇸x`]) {
    for (let round = 0; round < 5; round += 1) {
      const { status, body } = await scramble(word);
      t.is(status, 200, word);
      t.is(body.original, word);
      t.deepEqual(graphemesOf(body.scrambled), graphemesOf(word), word);
      t.not(body.scrambled, word.normalize('NFC'));
    }
  }
  const { body } = await scramble(`${FAMILY}ab`);
  t.is(body.wordLength, 3);
  t.is(body.hint, FAMILY);
  t.is(body.wordType, 'Other');
});

test('200 a two-letter word is always swapped', async (t) => {
  for (let round = 0; round < 20; round += 1) {
    const { status, body } = await gateway.json('/v1/scramble?word=ab');
    t.is(status, 200);
    t.is(body.scrambled, 'ba');
  }
});

test('200 a word of one repeated letter comes back unchanged', async (t) => {
  const { status, body } = await gateway.json('/v1/scramble?word=aaa');
  t.is(status, 200);
  t.is(body.scrambled, 'aaa');
  t.is(body.uniqueCharacterCount, 1);
  t.is(body.difficultyLevel, 'Easy');
});

test('200 difficulty and wordType for longer words', async (t) => {
  const hard = await gateway.json('/v1/scramble?word=Quickly');
  t.like(hard.body, { wordLength: 7, difficultyLevel: 'Medium', wordType: 'Adverb', hint: 'Q' });
  const expert = await gateway.json('/v1/scramble?word=Mississippian');
  t.like(expert.body, { wordLength: 13, difficultyLevel: 'Expert', scrambleComplexity: 3, uniqueCharacterCount: 6 });
});

test('200 for a word of exactly 64 characters, letters or long emojis', async (t) => {
  for (const word of ['ab'.repeat(32), KISS.repeat(63) + FAMILY, '👨‍👩‍👧‍👦'.repeat(64)]) {
    const { status, body } = await scramble(word);
    t.is(status, 200);
    t.is(body.wordLength, 64);
    t.is(body.difficultyLevel, 'Expert');
    t.deepEqual(graphemesOf(body.scrambled), graphemesOf(word));
  }
});

test('400 when word is missing', async (t) => {
  const { status, body } = await gateway.json('/v1/scramble');
  t.is(status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details, [{ in: 'query', field: 'word', message: 'is required' }]);
  t.is(typeof body.requestId, 'string');
});

test('400 when word is empty', async (t) => {
  const { status, body } = await gateway.json('/v1/scramble?word=');
  t.is(status, 400);
  t.deepEqual(body.error.details, [{ in: 'query', field: 'word', message: 'must not be empty' }]);
});

test('400 when word has whitespace', async (t) => {
  for (const word of ['two%20words', '%20', 'a%09b', 'a+b', 'a%0Ab', 'a%C2%A0b', 'word%E3%80%80']) {
    const { status, body } = await gateway.json(`/v1/scramble?word=${word}`);
    t.is(status, 400, word);
    t.is(body.error.details.length, 1, word);
    t.is(body.error.details[0].field, 'word');
    t.regex(body.error.details[0].message, /single word/);
  }
});

test('400 when word has control or invisible formatting characters', async (t) => {
  // NUL, BEL, DEL, C1 NEL, zero-width space, soft hyphen, right-to-left override, BOM, a lone tag letter.
  for (const word of ['a%00b', 'a%07', '%7F', 'a%C2%85', 'a%E2%80%8Bb', '%E2%80%8B', 'a%C2%ADb', 'abc%E2%80%AEdef', '%EF%BB%BFa', encodeURIComponent('a\u{e0061}')]) {
    const { status, body } = await gateway.json(`/v1/scramble?word=${word}`);
    t.is(status, 400, word);
    t.is(body.error.details[0].field, 'word');
    t.regex(body.error.details[0].message, /single word/);
  }
});

test('400 when word has 65 characters', async (t) => {
  for (const word of ['a'.repeat(65), FAMILY.repeat(65), `${'x'.repeat(64)}é`]) {
    const { status, body } = await scramble(word);
    t.is(status, 400);
    t.deepEqual(body.error.details.length, 1);
    t.is(body.error.details[0].field, 'word');
    t.regex(body.error.details[0].message, /at most 64 characters/);
  }
});

test('400 once, not twice, for a very long word', async (t) => {
  const { status, body } = await scramble('a'.repeat(3000));
  t.is(status, 400);
  t.is(body.error.details.length, 1);
  t.regex(body.error.details[0].message, /at most 64 characters/);
});

test('400 when word is repeated', async (t) => {
  const { status, body } = await gateway.json('/v1/scramble?word=abc&word=def');
  t.is(status, 400);
  t.deepEqual(body.error.details[0], { in: 'query', field: 'word', message: 'must be given only once' });
});
