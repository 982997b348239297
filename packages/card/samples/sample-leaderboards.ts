import type { LeaderboardInput } from '../src/leaderboard/render-leaderboard.ts';
import { sampleAbstractPng, sampleAvatarPng, sampleLightPhotoJpeg } from './sample-images.ts';

export type SampleLeaderboard = { name: string; description: string; input: LeaderboardInput };

const avatars = [sampleAvatarPng(), sampleAvatarPng(205), sampleAvatarPng(120), sampleAvatarPng(320)];

const NAMES = ['Ada', 'Kai 🐉', 'Grace Hopper', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Alan'];

const topTen = NAMES.map((name, index) => ({ rank: index + 1, name, level: 42 - index * 3, score: 98_765 - index * 8_123 }));

export const SAMPLE_LEADERBOARDS: readonly SampleLeaderboard[] = [
  {
    name: 'leaderboard-top10-highlight-extra',
    description: 'Ten rows with podium colors, avatars on some rows (default avatar on the others), and the asking member ranked #27 drawn under an ellipsis.',
    input: {
      kind: 'leaderboard',
      options: { title: 'Top chatters', rows: topTen, autoColorRank: true, highlight: { rank: 27, name: 'You (Mika)', level: 9, score: 4_210 } },
      avatars: [...topTen.map((_row, index) => avatars[index % 5]), avatars[1]],
    },
  },
  {
    name: 'leaderboard-three-highlight-in-place',
    description: 'Three rows with a custom score label and accent color; the asking member is #2 and highlighted in place; a very long name is cut at the 45 px name size.',
    input: {
      kind: 'leaderboard',
      options: {
        rows: [
          { rank: 1, name: 'The Extraordinarily Long Display Name That Keeps Going', level: 1_234_567, score: 1e12 },
          { rank: 2, name: 'مرحبا بالعالم', score: 512 },
          { rank: 3, name: 'Zoë', level: 3 },
        ],
        highlight: { rank: 2, name: 'مرحبا بالعالم' },
        scoreLabel: 'pts',
        accentColor: '#e11d48',
      },
      avatars: [avatars[0], undefined, avatars[2]],
    },
  },
  {
    name: 'leaderboard-podium-guild',
    description: 'Podium header (ranks 2, 1, 3) under a server header with an icon and member count, seven list rows with a wide score label ("messages") and long names, the asking member #5 highlighted in place.',
    input: {
      kind: 'leaderboard',
      options: {
        title: 'Most active this week',
        rows: topTen.map((row) => (row.rank === 7 ? { ...row, name: 'Barbara Liskov-Wing' } : row)),
        podium: true,
        autoColorRank: true,
        scoreLabel: 'messages',
        guild: { name: 'Café Nocturne 🌙', memberCount: 12_480 },
        highlight: { rank: 5, name: 'Margaret' },
        accentColor: '#14b8a6',
      },
      avatars: topTen.map((_row, index) => avatars[index % 4]),
      guildIcon: sampleAbstractPng(9),
    },
  },
  {
    name: 'leaderboard-light-photo',
    description: 'A light sky photo as background: the header and every row box darkened by measure until their text reaches its contrast; no icon (initials), the asking member #14 under an ellipsis.',
    input: {
      kind: 'leaderboard',
      options: {
        rows: topTen.slice(0, 5),
        guild: { name: 'pixel garden', memberCount: 1 },
        highlight: { rank: 14, name: 'Mika', level: 9, score: 4_210 },
        accentColor: '#ffe08a',
      },
      avatars: [...topTen.slice(0, 5).map((_row, index) => avatars[index % 4]), avatars[3]],
      background: sampleLightPhotoJpeg(),
    },
  },
];
