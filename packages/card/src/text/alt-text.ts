import { compactNumber } from '@utility-api/compact-number';
import { ALT_TEXT_MAX_LENGTH, DEFAULT_CARD_LAYOUT, previousLevelOf, type PresenceStatus } from '@utility-api/render-jobs';
import type { CardInput } from '../profile/card-profile.ts';
import { resolveTexts, welcomeHeadline } from '../scene.ts';
import { cardWords } from './card-labels.ts';
import { spokenText, visibleText } from './clean-text.ts';
import { plainLetters } from './math-letters.ts';

/**
 * The rank words as a sentence says them when `labels` does not replace them. A replaced word is
 * said as given: the caller's "Niveau" is no more English than the rest, and the card draws it.
 * The sentence's own words ("Profile card for", "of", the status) stay English: translating them
 * would take a whole sentence per language, which `labels` does not carry.
 */
const SPOKEN_WORDS = { level: 'level', rank: 'rank', xp: 'XP' } as const;

const STATUS_WORDS: Record<PresenceStatus, string> = { online: 'online', idle: 'idle', dnd: 'do not disturb', offline: 'offline' };

/** Numbers as the card writes them (rounded down, so nothing reads higher than it is). */
const cardNumber = (value: number) => compactNumber(value, { round: 'down' });

/** Cut at a grapheme boundary so no emoji or accented letter is split, with an ellipsis to say so. */
function capped(text: string): string {
  if (text.length <= ALT_TEXT_MAX_LENGTH) return text;
  let kept = '';
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) {
    if (kept.length + segment.length > ALT_TEXT_MAX_LENGTH - 1) break;
    kept += segment;
  }
  return `${kept.trimEnd()}…`;
}

/**
 * One plain sentence saying what the card shows, for screen readers: "Profile card for Ada
 * (@ada.codes): level 12, rank #1, 1.2K of 5K XP, online." Built from the texts the card draws
 * (cleaned by the same rules, with the same defaults), at most ALT_TEXT_MAX_LENGTH characters.
 * Labels replace the rank words they translate (SPOKEN_WORDS). What the card draws as nothing is not said (`spokenText`): no bidi control, direction marks
 * included, and no default-ignorable or blank character outside an emoji sequence.
 */
export { capped as cappedAltText };

export function cardAltText(input: CardInput): string {
  const { options } = input;
  const texts = resolveTexts(input);
  const who = `${texts.name === '' ? 'a Discord user' : texts.name}${texts.tag === undefined ? '' : ` (${texts.tag})`}`;
  const details: string[] = [];
  const quoted = (text: string | undefined) => (text === undefined || text === '' ? [] : [`“${text}”`]);
  const layout = options.layout ?? DEFAULT_CARD_LAYOUT;
  if (layout === 'welcome' || layout === 'welcome-tall') {
    details.push(...quoted(welcomeHeadline(options.headline, 'welcome', cardWords(options.labels).welcome, texts.name)), ...quoted(visibleText(options.message)), ...quoted(texts.subtitle));
  } else if (layout === 'levelup') {
    const rank = options.rankData;
    details.push(...quoted(welcomeHeadline(options.headline, layout, undefined, texts.name)));
    if (rank) details.push(`level ${cardNumber(previousLevelOf(rank))} to level ${cardNumber(rank.level)}`);
    details.push(...quoted(visibleText(options.message)));
  } else {
    details.push(...quoted(texts.subtitle));
    const rank = options.rankData;
    const word = (label: keyof typeof SPOKEN_WORDS) => visibleText(options.labels?.[label]) ?? SPOKEN_WORDS[label];
    if (rank) details.push(`${word('level')} ${cardNumber(rank.level)}, ${word('rank')} #${cardNumber(rank.rank)}, ${cardNumber(rank.currentXp)} of ${cardNumber(rank.requiredXp)} ${word('xp')}`);
  }
  if (options.presenceStatus !== undefined) details.push(STATUS_WORDS[options.presenceStatus]);
  const kind = layout === 'welcome' || layout === 'welcome-tall' ? 'Welcome card' : layout === 'levelup' ? 'Level-up card' : 'Profile card';
  // Mathematical letters (𝓯𝓪𝓷𝓬𝔂) said as the plain letters the card draws: a screen reader names each one ("mathematical bold script small f").
  return capped(spokenText(plainLetters(`${kind} for ${who}${details.length === 0 ? '' : `: ${details.join(', ')}`}.`)));
}
