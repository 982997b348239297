import type { CardInput } from '../src/profile/card-profile.ts';
import { SAMPLE_CARDS, type SampleCard } from './sample-cards.ts';

function sample(name: string): CardInput {
  const found = SAMPLE_CARDS.find((card) => card.name === name);
  if (!found) throw new Error(`no sample card named ${name}`);
  return found.input;
}

/**
 * The three option sets every card benchmark times (`pnpm card:bench` and `pnpm bench`), so their
 * figures describe the same cards.
 */
export function benchCardSets(): SampleCard[] {
  const banner = sample('banner-rank-badges');
  const everything = sample('custom-everything');
  return [
    { name: 'minimal', description: 'no images, no options: generated background, default avatar', input: sample('newcomer-defaults') },
    {
      name: 'photo + rank',
      description: 'custom background photo (JPEG 1600x640), avatar, rank block, online',
      input: { ...banner, options: { ...banner.options, customBackground: 'https://example.com/landscape.jpg' }, images: { background: banner.profile.banner } },
    },
    {
      name: 'everything',
      description: 'custom background, 2 custom badges after 5 profile badges, decoration, subtitle, rank, emoji name',
      input: {
        ...everything,
        profile: { ...everything.profile, avatarDecoration: sample('decoration-offline').profile.avatarDecoration },
        options: {
          ...everything.options,
          overwriteBadges: true,
          badgesFrame: true,
          rankData: { currentXp: 1240, requiredXp: 5000, level: 12, rank: 3, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true },
        },
      },
    },
  ];
}

/** The same card with a different name and XP each time, so every PNG is a new picture. */
export function distinctBenchCard(input: CardInput, index: number): CardInput {
  const rankData = input.options.rankData ? { ...input.options.rankData, currentXp: 1000 + index * 7 } : undefined;
  return { ...input, options: { ...input.options, customUsername: `Member ${index} ✨`, ...(rankData ? { rankData } : {}) } };
}
