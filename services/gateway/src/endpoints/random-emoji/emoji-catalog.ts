import emojibaseData from 'emojibase-data/en/data.json' with { type: 'json' };
import emojibaseGroups from 'emojibase-data/meta/groups.json' with { type: 'json' };
import { EMOJI_CATEGORIES, type EmojiCategory } from './emoji-categories.ts';
import { emojiType } from './emoji-type.ts';
import { describingWords, emojiColor, emojiMood } from './emoji-words.ts';

export interface EmojiDetails {
  emoji: string;
  emojiName: string;
  unicode: string;
  category: EmojiCategory;
  emojiMood: string;
  emojiColor: string;
  isSymbol: boolean;
  emojiType: string;
}

function titleCase(label: string): string {
  return label.replace(/(^|[\s(-])(\p{Ll})/gu, (_match, before: string, letter: string) => before + letter.toUpperCase());
}

/** `U+<hex>` per code point, with at least four hex digits as Unicode writes them (`U+0023`, `U+1F355`). */
export function codePoints(emoji: string): string {
  return Array.from(emoji, (character) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/**
 * Every fully-qualified emoji of the Emojibase data set (the current Unicode emoji list, in its
 * default skin tone), built once at boot. Components and lone regional indicators are left out.
 */
export function buildEmojiCatalog(): readonly EmojiDetails[] {
  const subgroupKeys = emojibaseGroups.subgroups as Record<string, string>;
  const catalog: EmojiDetails[] = [];
  for (const entry of emojibaseData) {
    if (entry.group === undefined) continue;
    const category = (EMOJI_CATEGORIES as Record<number, EmojiCategory | undefined>)[entry.group];
    if (category === undefined) continue;
    const words = describingWords(entry.label, entry.tags ?? []);
    catalog.push(
      Object.freeze({
        emoji: entry.emoji,
        emojiName: titleCase(entry.label),
        unicode: codePoints(entry.emoji),
        category,
        emojiMood: emojiMood(words, category),
        emojiColor: emojiColor(words, category),
        isSymbol: category === 'Symbols',
        emojiType: emojiType(category, subgroupKeys[String(entry.subgroup)] ?? ''),
      }),
    );
  }
  return Object.freeze(catalog);
}
