import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CARD_FONT_FAMILY_IDS, CARD_FONT_FAMILIES, type CardFontFamily } from '@utility-api/render-jobs';

export interface FontFile {
  path: string;
  family: string;
  weight?: '400' | '600' | '700' | '800' | '900';
  /** Italic faces are registered as such, so Pango picks them for italic text instead of slanting the upright one. */
  style?: 'italic';
  /** Where the file comes from, for the error that names what to install. */
  source: string;
}

/**
 * The npm package and file name stem of each `fontFamily` (render-jobs' CARD_FONT_FAMILIES names
 * them). The @expo-google-fonts packages ship one TTF per weight and style, each covering every
 * script the family has (Latin, Greek and Cyrillic here: checked with fc-query, and by
 * tests/process/card/font-families.test.ts). Packages of WOFF or WOFF2 files (@fontsource) cannot be
 * used: registered here, their families drew nothing but the fallback (measured on this
 * machine's fontconfig, FreeType and node-canvas), and they split each family by subset. knip.json
 * lists these packages as used: knip does not see a package resolved for its files.
 */
const FAMILY_PACKAGES: Record<CardFontFamily, { packageName: string; stem: string }> = {
  inter: { packageName: '@expo-google-fonts/inter', stem: 'Inter' },
  manrope: { packageName: '@expo-google-fonts/manrope', stem: 'Manrope' },
  'fira-sans': { packageName: '@expo-google-fonts/fira-sans', stem: 'FiraSans' },
  comfortaa: { packageName: '@expo-google-fonts/comfortaa', stem: 'Comfortaa' },
  literata: { packageName: '@expo-google-fonts/literata', stem: 'Literata' },
  'eb-garamond': { packageName: '@expo-google-fonts/eb-garamond', stem: 'EBGaramond' },
  'roboto-slab': { packageName: '@expo-google-fonts/roboto-slab', stem: 'RobotoSlab' },
  'roboto-condensed': { packageName: '@expo-google-fonts/roboto-condensed', stem: 'RobotoCondensed' },
  'jetbrains-mono': { packageName: '@expo-google-fonts/jetbrains-mono', stem: 'JetBrainsMono' },
  'press-start-2p': { packageName: '@expo-google-fonts/press-start-2p', stem: 'PressStart2P' },
};

/** The weights the card draws (rich-text.ts TextStyle), as the packages name their folders. */
const WEIGHT_FOLDERS = [['400', '400Regular'], ['600', '600SemiBold'], ['700', '700Bold'], ['800', '800ExtraBold'], ['900', '900Black']] as const;

/**
 * A family's files for the weights the card draws, upright and italic, as far as the family has
 * them (Comfortaa stops at 700 and has no italics, Press Start 2P has one face): Pango takes the
 * nearest weight and slants an upright face where there is no italic. The regular face is listed
 * whether or not it is there, so a missing package is reported by name at start-up.
 */
function familyFiles(id: CardFontFamily): FontFile[] {
  const { packageName, stem } = FAMILY_PACKAGES[id];
  const source = `npm package ${packageName}`;
  let packageRoot: string;
  try {
    packageRoot = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  } catch {
    return [{ path: join(packageName, '400Regular', `${stem}_400Regular.ttf`), family: CARD_FONT_FAMILIES[id].name, weight: '400', source }];
  }
  return WEIGHT_FOLDERS.flatMap(([weight, folder]) =>
    (['', '_Italic'] as const).map((suffix): FontFile => ({
      path: join(packageRoot, `${folder}${suffix}`, `${stem}_${folder}${suffix}.ttf`),
      family: CARD_FONT_FAMILIES[id].name,
      weight,
      ...(suffix === '' ? {} : { style: 'italic' as const }),
      source,
    })),
  ).filter((file) => (file.weight === '400' && file.style === undefined) || existsSync(file.path));
}

const NOTO_CORE = '/usr/share/fonts/truetype/noto';
const NOTO_CJK = '/usr/share/fonts/opentype/noto';
const NOTO_CORE_SOURCE = 'Debian package fonts-noto-core';

/**
 * Faces the design names in its font stack (rich-text.ts) or that cover the scripts most chat names
 * use: a machine without them fails at start-up, naming the package, instead of drawing tofu.
 * `bold: false` marks faces that exist in a regular weight only (Pango synthesizes bold for them).
 */
const REQUIRED_NOTO = [
  ...['NotoSans', 'NotoSansArabic', 'NotoSansHebrew', 'NotoSansDevanagari', 'NotoSansBengali', 'NotoSansTamil', 'NotoSansTelugu',
    'NotoSansKannada', 'NotoSansMalayalam', 'NotoSansGujarati', 'NotoSansGurmukhi', 'NotoSansSinhala', 'NotoSansThai', 'NotoSansLao',
    'NotoSansKhmer', 'NotoSansMyanmar', 'NotoSansGeorgian', 'NotoSansArmenian', 'NotoSansEthiopic', 'NotoSansCherokee',
    'NotoSansCanadianAboriginal', 'NotoSansSymbols'].map((face) => ({ face, bold: true })),
  ...['NotoSansMath', 'NotoSansSymbols2', 'NotoSansMongolian', 'NotoSansRunic'].map((face) => ({ face, bold: false })),
];

/** A script face's file in fonts-noto-core: `NotoSansJavanese-Bold.ttf` (italics do not match). */
const SCRIPT_FACE_FILE = /^(Noto\w+)-(Regular|Bold)\.ttf$/;
/**
 * Restyled duplicates of a script some Noto Sans face already covers: Kufi, Naskh and Nastaliq
 * Arabic, Rashi Hebrew, looped Thai and Lao, traditional Nüshu, display and slanted cuts, unjoined
 * Adlam and the regional Tifinagh variants. Registering them would only let fontconfig pick one of
 * them for a fallback instead of the plain Sans face.
 */
const RESTYLED_DUPLICATE = /^Noto(Kufi|Naskh|Nastaliq|Rashi|Looped|Traditional)|(Display|Slanted|Unjoined)$|^NotoSansTifinagh./;

/** A file's family is its name spaced out (`NotoSansSymbols2` is `Noto Sans Symbols 2`). */
const familyOf = (face: string) => face.replace(/([a-z])([A-Z0-9])/g, '$1 $2');

function notoFile(face: string, style: 'Regular' | 'Bold'): FontFile {
  return { path: join(NOTO_CORE, `${face}-${style}.ttf`), family: familyOf(face), weight: style === 'Bold' ? '700' : '400', source: NOTO_CORE_SOURCE };
}

/**
 * Every script face fonts-noto-core installs, read from its folder so that Tifinagh, Javanese,
 * Tibetan, hieroglyphs, musical symbols and the rest draw instead of hex boxes: Noto Sans faces,
 * plus Noto Serif faces for the scripts that have no Sans face (Tibetan, Ahom, Tangut...) and Noto
 * Music. The required faces are listed whether or not the folder has them, so a missing one is
 * reported by name.
 */
function notoScriptFiles(): FontFile[] {
  let names: string[] = [];
  try {
    names = readdirSync(NOTO_CORE);
  } catch {
    // No folder at all: the required faces below are reported missing at start-up.
  }
  const styles = new Map<string, Set<string>>();
  for (const name of names) {
    const [, face, style] = SCRIPT_FACE_FILE.exec(name) ?? [];
    if (!face || !style || RESTYLED_DUPLICATE.test(face)) continue;
    styles.set(face, (styles.get(face) ?? new Set()).add(style));
  }
  for (const { face, bold } of REQUIRED_NOTO) styles.set(face, new Set(bold ? ['Regular', 'Bold'] : ['Regular']));
  const hasSansFace = (face: string) => styles.has(face.replace(/^NotoSerif/, 'NotoSans'));
  return [...styles.entries()]
    .filter(([face]) => !face.startsWith('NotoSerif') || !hasSansFace(face))
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([face, faceStyles]) => (['Regular', 'Bold'] as const).filter((style) => faceStyles.has(style)).map((style) => notoFile(face, style)));
}

export const EMOJI_FAMILY = 'Noto Color Emoji';

export function cardFontFiles(): FontFile[] {
  return [
    ...CARD_FONT_FAMILY_IDS.flatMap(familyFiles),
    ...notoScriptFiles(),
    { path: join(NOTO_CJK, 'NotoSansCJK-Regular.ttc'), family: 'Noto Sans CJK JP', weight: '400', source: 'Debian package fonts-noto-cjk' },
    { path: join(NOTO_CJK, 'NotoSansCJK-Bold.ttc'), family: 'Noto Sans CJK JP', weight: '700', source: 'Debian package fonts-noto-cjk' },
    { path: join(NOTO_CORE, 'NotoColorEmoji.ttf'), family: EMOJI_FAMILY, source: 'Debian package fonts-noto-color-emoji' },
  ];
}
