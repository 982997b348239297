import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface FontFile {
  path: string;
  family: string;
  weight?: '400' | '600' | '700' | '800';
  /** Where the file comes from, for the error that names what to install. */
  source: string;
}

/** The design face: Inter, shipped as TTF in an npm package (woff/woff2 would silently fall back). */
function interFiles(): FontFile[] {
  const packageRoot = dirname(createRequire(import.meta.url).resolve('@expo-google-fonts/inter/package.json'));
  const weights = [['400', '400Regular'], ['600', '600SemiBold'], ['700', '700Bold'], ['800', '800ExtraBold']] as const;
  return weights.map(([weight, folder]) => ({
    path: join(packageRoot, folder, `Inter_${folder}.ttf`),
    family: 'Inter',
    weight,
    source: 'npm package @expo-google-fonts/inter',
  }));
}

const NOTO_CORE = '/usr/share/fonts/truetype/noto';
const NOTO_CJK = '/usr/share/fonts/opentype/noto';

/**
 * Scripts that show up in chat names, from Debian's fonts-noto-core: Inter covers Latin, Greek and
 * Cyrillic; these fill in everything else so no name draws as tofu boxes. A file's family is its
 * name spaced out (`NotoSansSymbols2` is `Noto Sans Symbols 2`).
 */
const NOTO_SCRIPTS = [
  'NotoSans', 'NotoSansArabic', 'NotoSansHebrew', 'NotoSansDevanagari', 'NotoSansBengali', 'NotoSansTamil', 'NotoSansTelugu',
  'NotoSansKannada', 'NotoSansMalayalam', 'NotoSansGujarati', 'NotoSansGurmukhi', 'NotoSansSinhala', 'NotoSansThai', 'NotoSansLao',
  'NotoSansKhmer', 'NotoSansMyanmar', 'NotoSansGeorgian', 'NotoSansArmenian', 'NotoSansEthiopic', 'NotoSansCherokee',
  'NotoSansCanadianAboriginal', 'NotoSansSymbols',
];

/** Faces that exist only in a regular weight (Pango synthesizes bold for them). */
const REGULAR_ONLY = ['NotoSansMath', 'NotoSansSymbols2', 'NotoSansMongolian', 'NotoSansRunic'];

const familyOf = (file: string) => file.replace(/([a-z])([A-Z0-9])/g, '$1 $2');

export const EMOJI_FAMILY = 'Noto Color Emoji';

export function cardFontFiles(): FontFile[] {
  const core = 'Debian package fonts-noto-core';
  return [
    ...interFiles(),
    ...NOTO_SCRIPTS.flatMap((file) => [
      { path: join(NOTO_CORE, `${file}-Regular.ttf`), family: familyOf(file), weight: '400' as const, source: core },
      { path: join(NOTO_CORE, `${file}-Bold.ttf`), family: familyOf(file), weight: '700' as const, source: core },
    ]),
    ...REGULAR_ONLY.map((file) => ({ path: join(NOTO_CORE, `${file}-Regular.ttf`), family: familyOf(file), source: core })),
    { path: join(NOTO_CJK, 'NotoSansCJK-Regular.ttc'), family: 'Noto Sans CJK JP', weight: '400', source: 'Debian package fonts-noto-cjk' },
    { path: join(NOTO_CJK, 'NotoSansCJK-Bold.ttc'), family: 'Noto Sans CJK JP', weight: '700', source: 'Debian package fonts-noto-cjk' },
    { path: join(NOTO_CORE, 'NotoColorEmoji.ttf'), family: EMOJI_FAMILY, source: 'Debian package fonts-noto-color-emoji' },
  ];
}
