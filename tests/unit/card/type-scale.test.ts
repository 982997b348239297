/**
 * The type scale at the size Discord shows a card (packages/card/src/layout/type-scale.ts): every
 * sample card, in every layout, and cards made to shrink their text (long names, tags, messages,
 * huge numbers) are rendered, and every text the layout placed (`RenderedCard.texts`, with its
 * size) is measured as it appears when the PNG is shown 400 px wide.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { renderCard, type CardInput, type RenderedCard } from '../../../packages/card/src/index.ts';
import type { PlacedText } from '../../../packages/card/src/layout/placed-text.ts';
import { DISPLAY_WIDTH, displayPx, MIN_DISPLAY_PX, TYPE_SCALE } from '../../../packages/card/src/layout/type-scale.ts';
import { WELCOME_TALL_NAME, WELCOME_TALL_SUBTITLE } from '../../../packages/card/src/layout/welcome-tall-layout.ts';
import { SAMPLE_CARDS } from '../../../packages/card/samples/sample-cards.ts';
import { CARD_FONT_FAMILIES, CARD_FONT_FAMILY_IDS, CARD_LAYOUTS } from '@utility-api/render-jobs';
import { familySizeFactor, xHeightOf } from '../../../packages/card/src/text/family-metrics.ts';

/** A run's height on screen when the whole PNG is shown DISPLAY_WIDTH px wide (texts are in 1x pixels). */
const onScreen = (run: PlacedText, card: RenderedCard, scale: number) => (run.style.size * scale * DISPLAY_WIDTH) / card.width;

function tooSmall(card: RenderedCard, scale: number): string[] {
  return card.texts.flatMap((run) => {
    const px = onScreen(run, card, scale);
    const least = run.role === 'name' ? MIN_DISPLAY_PX.name : MIN_DISPLAY_PX.text;
    return px < least ? [`${run.role} "${run.text}" is ${px.toFixed(1)} px at ${DISPLAY_WIDTH} px (least ${least})`] : [];
  });
}

const PROFILE = { userId: '175928847299117063', username: 'ada.codes.with.a.rather.long.username', displayName: 'Ada' };
const LONG = 'The Extraordinarily Long Display Name Of Someone Who Likes Typing';
const HUGE_RANK = { currentXp: 999_999_999_999_999, requiredXp: 1_000_000_000_000_000, level: 987_654_321_012, rank: 123_456_789_012_345, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true };

/** Cards that push every shrinking rule to its end, in every layout. */
const SHRINKING: [string, CardInput][] = CARD_LAYOUTS.flatMap((layout): [string, CardInput][] => [
  [
    `${layout}: long everything`,
    {
      profile: PROFILE,
      options: { layout, customUsername: LONG, customTag: `@${LONG}`, customSubtitle: `${LONG} ${LONG}`, message: `${LONG} ${LONG}`, headline: 'A headline of forty characters, at most', customDate: `Joined ${LONG}`, rankData: HUGE_RANK },
    },
  ],
  [`${layout}: long name, badges, bot`, { profile: { ...PROFILE, bot: true, badges: ['staff', 'partner', 'hypesquad_events', 'bug_hunter_level_1', 'early_supporter', 'active_developer'] }, options: { layout, customUsername: 'W'.repeat(40), badgesFrame: true } }],
]);

test('every text of every sample card is at least 11 px on screen at 400 px wide, the name 20 px', async (t) => {
  const problems: string[] = [];
  for (const sample of SAMPLE_CARDS) {
    const card = await renderCard(sample.input);
    t.true(card.texts.length > 0, `${sample.name} reports no texts`);
    for (const problem of tooSmall(card, sample.input.scale ?? 1)) problems.push(`${sample.name}: ${problem}`);
  }
  t.deepEqual(problems, []);
  const layouts = new Set(SAMPLE_CARDS.map((sample) => sample.input.options.layout ?? 'profile'));
  t.deepEqual([...layouts].sort(), [...CARD_LAYOUTS].sort(), 'the samples show every layout');
});

for (const [name, input] of SHRINKING) {
  test(`text shrunk to fit stays at the scale's minimum: ${name}`, async (t) => {
    const card = await renderCard(input);
    t.deepEqual(tooSmall(card, 1), []);
    // The case really shrinks: something sits at a minimum, not at its full size. The tall welcome
    // card (960 px wide) has its own floors, set for the same 11 px and 20 px on screen.
    const sizes = card.texts.map((run) => run.style.size);
    const floors = input.options.layout === 'welcome-tall' ? [WELCOME_TALL_SUBTITLE.minSize, WELCOME_TALL_NAME.twoLineMinSize] : [TYPE_SCALE.small, TYPE_SCALE.nameMin];
    t.true(floors.some((floor) => sizes.includes(floor)), `sizes ${sizes.join(', ')}`);
  });
}

/**
 * Every family, in every layout, pushed to its minimums: a style's size is the size in Inter, and
 * each family is drawn at the size that gives it Inter's x-height (family-metrics.ts). So the floor
 * holds twice: the layout's sizes, and the x-height each family is drawn with on screen, at least
 * Inter's at 11 px (6 px), whatever its font size in pixels (Press Start 2P's is smaller).
 */
for (const family of CARD_FONT_FAMILY_IDS) {
  test(`every layout in ${family} keeps its smallest text at 11 px on screen, by size and by x-height`, async (t) => {
    const name = CARD_FONT_FAMILIES[family].name;
    const leastXHeight = MIN_DISPLAY_PX.text * xHeightOf(CARD_FONT_FAMILIES.inter.name);
    for (const [caseName, input] of SHRINKING) {
      const card = await renderCard({ ...input, options: { ...input.options, fontFamily: family } });
      t.deepEqual(tooSmall(card, 1), [], caseName);
      for (const run of card.texts) {
        const xHeight = (run.style.size * familySizeFactor(run.style.family ?? name) * xHeightOf(run.style.family ?? name) * DISPLAY_WIDTH) / card.width;
        t.true(xHeight >= leastXHeight - 1e-9, `${caseName}: ${run.role} x-height ${xHeight.toFixed(2)} px on screen (least ${leastXHeight.toFixed(2)})`);
      }
    }
  });
}

test('the check fails on the old scale: a 16 px label is 7.1 px on screen, a 36 px name 16 px', (t) => {
  const card = { width: 900, texts: [] } as unknown as RenderedCard;
  const run = (role: string, size: number): PlacedText => ({ role, text: 'x', x: 0, baseline: 0, width: 1, style: { size, weight: 700, color: '#ffffff' }, minContrast: 4.5 });
  t.is(tooSmall({ ...card, texts: [run('level label', 16), run('name', 36), run('tag', 25), run('name', 45)] }, 1).length, 2);
  // A 2x card (1800 px wide) is shown at the same 400 px: its 1x layout sizes count the same.
  t.is(tooSmall({ ...card, width: 1800, texts: [run('date', 24)] }, 2).length, 1);
});

test('the scale holds its own minimums, and docs/card-design.md states every step in display pixels', (t) => {
  const steps = Object.entries(TYPE_SCALE);
  for (const [step, size] of steps) t.true(displayPx(size) >= MIN_DISPLAY_PX.text, `${step} is ${displayPx(size)} px on screen`);
  t.true(displayPx(TYPE_SCALE.nameMin) >= MIN_DISPLAY_PX.name);
  const docs = readFileSync(new URL('../../../docs/card-design.md', import.meta.url), 'utf8');
  for (const [step, size] of steps) {
    const row = `| \`${step}\` | ${size} px | ${displayPx(size).toFixed(1)} px |`;
    t.true(docs.includes(row), `docs/card-design.md lacks the row ${row}`);
  }
});
