import { CARD_LIMITS } from '@utility-api/render-jobs';
import test from 'ava';
import fc from 'fast-check';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { SUITE_ENV, USER_ID } from '../../support/pipeline/profile-image-suite.ts';

let gateway: TestGateway;

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { ...SUITE_ENV } });
});

test.after.always(async () => {
  await gateway?.close();
});

/**
 * Code points a screen reader would say or that would reorder the sentence, none of which the
 * card shows as anything: every bidi control, default-ignorable characters (zero-width ones, word
 * joiner, BOM, soft hyphen, variation selectors, tags, Hangul fillers, invisible operators...) and
 * blanks the card treats as nothing (braille blank, null notehead, annotation controls).
 */
const UNSEEN = [
  ...'\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069',
  ...'\u200B\u200C\u200D\u2060\u2061\u2062\u2063\u2064\uFEFF\u00AD\u034F\u180E\u17B4\uFE0F\uFE00',
  '\u{E0001}',
  '\u{E0020}',
  '\u{E0067}',
  '\u{E007F}',
  '\u{1D173}',
  ...'\u3164\u115F\u1160\uFFA0\u2800\uFFF9\uFFFA\uFFFB',
  '\u{1D159}',
];

/** What the X-Alt-Text header says, decoded; undefined when it is not an RFC 8187 ext-value of attr-chars. */
function decodedAltText(header: string | null): string | undefined {
  const match = /^UTF-8''([A-Za-z0-9%!#$&+\-.^_`|~]*)$/.exec(header ?? '');
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** Characters alt text must not carry outside an emoji sequence: every bidi control and default-ignorable one, and lone surrogates. */
function unsaid(text: string): string[] {
  const outsideEmoji = text.replace(/\p{RGI_Emoji}/gv, '');
  const found: string[] = [...(outsideEmoji.match(/[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/gu) ?? [])];
  if (!text.isWellFormed()) found.push('lone surrogate');
  return found.map((character) => (character.length > 2 ? character : `U+${character.codePointAt(0)!.toString(16).toUpperCase()}`));
}

async function postCard(body: unknown, accept?: string) {
  return gateway.request(`/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
    // JSON.stringify writes a lone surrogate as a \ud800 escape: the gateway parses it back into one.
    body: JSON.stringify(body),
  });
}

test('a lone surrogate in any text field is U+FFFD in altText and X-Alt-Text, for every Accept, never a 500', async (t) => {
  const body = { customTag: 'a\uD800b', customSubtitle: 'c\uDC00\uD800d' };
  const expected = 'Profile card for User 2240 (a\uFFFDb): “c\uFFFD\uFFFDd”.';
  for (const accept of ['image/png', 'image/*', 'image/webp', 'image/gif']) {
    const response = await postCard(body, accept);
    t.is(response.status, 200, `${accept}: ${response.status} ${response.status === 200 ? '' : await response.text()}`);
    t.is(decodedAltText(response.headers.get('x-alt-text')), expected, accept);
    await response.arrayBuffer();
  }
  const json = await postCard(body);
  t.is(json.status, 200);
  const answer = (await json.json()) as { altText: string };
  t.is(answer.altText, expected);
  t.true(answer.altText.isWellFormed());
});

test('every bidi control, default-ignorable and blank character is left out of altText and X-Alt-Text', async (t) => {
  t.true(UNSEEN.length >= 29, `${UNSEEN.length}`);
  for (const character of UNSEEN) {
    const name = `U+${character.codePointAt(0)!.toString(16).toUpperCase()}`;
    const response = await postCard({ customUsername: `Ada${character}Love${character}lace`, customTag: `${character}tag` }, 'image/png');
    t.is(response.status, 200, name);
    await response.arrayBuffer();
    t.is(decodedAltText(response.headers.get('x-alt-text')), 'Profile card for AdaLovelace (tag).', name);
    const json = await postCard({ customUsername: `Ada${character}Love${character}lace`, customTag: `${character}tag` });
    t.is(((await json.json()) as { altText: string }).altText, 'Profile card for AdaLovelace (tag).', name);
  }
});

test('emoji sequences keep the joiners, variation selectors and tags that make them one emoji', async (t) => {
  // Family (ZWJ), Scotland's flag (tag characters), red heart (VS16), keycap one (VS16 and a mark).
  const emoji = '👩‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿 ❤️ 1️⃣';
  const response = await postCard({ customUsername: `Ada ${emoji}` }, 'image/png');
  t.is(response.status, 200);
  await response.arrayBuffer();
  t.is(decodedAltText(response.headers.get('x-alt-text')), `Profile card for Ada ${emoji}.`);
});

test('property: whatever the text fields hold, the card answers 200 (a blank name 400) and neither altText nor X-Alt-Text carries bidi, default-ignorable or lone surrogate characters', async (t) => {
  // Text built from plain letters, the unseen characters above, emoji, any code point and lone surrogates.
  const piece = fc.oneof(
    fc.constantFrom('a', 'Z', ' ', 'é', 'ש', 'ع', '中', '👩‍👩‍👧', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '❤️', '\u0301', ...UNSEEN),
    fc.string({ unit: 'binary', maxLength: 3 }),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  );
  const text = (max: number) => fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('').slice(0, max));
  const fields = fc.record(
    { customUsername: text(CARD_LIMITS.maxUsernameLength), customTag: text(CARD_LIMITS.maxTagLength), customSubtitle: text(CARD_LIMITS.maxSubtitleLength) },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fields, async (body) => {
      const response = await postCard(body, 'image/png');
      // The one refusal a text can earn: a blank customUsername, a 400 naming it.
      if (response.status === 400 && body.customUsername?.trim() === '') {
        const refusal = (await response.json()) as { error: { details: { field: string }[] } };
        if (refusal.error.details.some((detail) => detail.field === 'customUsername')) return;
      }
      if (response.status !== 200) throw new Error(`${response.status} for ${JSON.stringify(body)}: ${await response.text()}`);
      await response.arrayBuffer();
      const altText = decodedAltText(response.headers.get('x-alt-text'));
      if (altText === undefined) throw new Error(`X-Alt-Text is not an RFC 8187 value: ${response.headers.get('x-alt-text')}`);
      const found = unsaid(altText);
      if (found.length > 0) throw new Error(`${JSON.stringify(altText)} carries ${found.join(', ')}`);
    }),
    { numRuns: 25 },
  );
  t.pass();
});
