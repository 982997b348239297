import type { CardInput, CardProfile } from '../src/profile/card-profile.ts';
import { sampleAbstractPng, sampleAvatarPng, sampleBadgePng, sampleBusyPng, sampleDecorationPng, sampleLandscapeJpeg, sampleLightPhotoJpeg, sampleNameplatePng, sampleSolidPng } from './sample-images.ts';

/**
 * Named cards covering every option at least once, with names in many scripts. The preview
 * gallery draws them all, the golden tests compare them with committed references, and the
 * benchmark times three of them.
 */
export type SampleCard = { name: string; description: string; input: CardInput };

const landscape = sampleLandscapeJpeg();
const abstract = sampleAbstractPng();
const avatar = sampleAvatarPng();
const avatarBlue = sampleAvatarPng(205);
const decoration = sampleDecorationPng();
const goldBadge = sampleBadgePng('#ffb020');
const mintBadge = sampleBadgePng('#3ddc97');
const white = sampleSolidPng('#ffffff');
const black = sampleSolidPng('#000000');
const busy = sampleBusyPng();
const lightPhoto = sampleLightPhotoJpeg();

const ADA: CardProfile = {
  userId: '175928847299117063',
  username: 'ada.codes',
  displayName: 'Ada',
  accentColor: '#5b6cff',
  avatar,
  banner: landscape,
  badges: ['staff', 'partner', 'hypesquad_brilliance', 'early_supporter', 'active_developer'],
};

const NEWCOMER: CardProfile = { userId: '1083722195840204800', username: 'newcomer' };

/** A member as the Discord objects give it (discordUser, discordMember, discordRoleColors): every Discord extra at once. */
const MEMBER: CardProfile = {
  ...ADA,
  displayName: 'Ada Lovelace',
  avatarDecoration: decoration,
  nameplate: { colors: ['#2d5401', '#6aa624'], image: sampleNameplatePng() },
  serverTag: { tag: 'ADA', badge: sampleBadgePng('#ff5cae') },
  roleColors: { colors: ['#e91e63', '#5865f2'], holographic: false },
};

/** A member joining a server, for the tall welcome card: avatar, decoration and a two-colour profile theme. */
const PRIYA: CardProfile = {
  userId: '412345678901234567',
  username: 'priya.makes',
  displayName: 'Priya Raman',
  themeColors: ['#ff8a5b', '#7c5cff'],
  avatar: sampleAvatarPng(18),
  avatarDecoration: decoration,
  badges: ['hypesquad_balance', 'early_supporter'],
};

/** A member as most cards show one: a display name with an accent, an avatar, no banner. */
const MINA: CardProfile = { userId: '302050872383242240', username: 'mina.k', displayName: 'Mina Kovač', avatar: sampleAvatarPng(330) };

/**
 * Families with no other golden: each on the same profile card with a subtitle and a rank row, so
 * the goldens show every family at the same sizes (family-metrics.ts sizes them by x-height).
 */
const FAMILY_CARDS = ['manrope', 'fira-sans', 'comfortaa', 'eb-garamond', 'roboto-slab', 'jetbrains-mono', 'press-start-2p'] as const;

const rank = (overrides: Partial<NonNullable<CardInput['options']['rankData']>> = {}) => ({
  currentXp: 1240, requiredXp: 5000, level: 12, rank: 1, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true, ...overrides,
});

export const SAMPLE_CARDS: readonly SampleCard[] = [
  {
    name: 'newcomer-defaults',
    description: 'No avatar, no banner, no options: generated background, default avatar, creation date.',
    input: { profile: NEWCOMER, options: {} },
  },
  {
    name: 'banner-rank-badges',
    description: 'Banner photo, profile badges in a frame, online, rank 1 in gold.',
    input: { profile: ADA, options: { presenceStatus: 'online', badgesFrame: true, rankData: rank() } },
  },
  {
    name: 'custom-everything',
    description: 'Custom background, name, tag, subtitle, colors, square avatar, brightness 90, date, dnd, custom badges.',
    input: {
      profile: ADA,
      options: {
        customBackground: 'https://example.com/abstract.png',
        customUsername: 'Captain Ada 🚀',
        customTag: 'Welcome to the crew!',
        customSubtitle: 'Member #1,024 · joined today',
        usernameColor: '#ffe08a',
        tagColor: '#9ef0d0',
        borderColor: '#ffe08a',
        squareAvatar: true,
        backgroundBrightness: 90,
        customDate: 'Nov 22, 2026',
        presenceStatus: 'dnd',
        customBadges: ['https://example.com/gold.png', 'https://example.com/mint.png'],
      },
      images: { background: abstract, customBadges: [goldBadge, mintBadge] },
    },
  },
  {
    name: 'badges-merged',
    description: 'overwriteBadges: profile badges followed by custom ones; idle.',
    input: {
      profile: ADA,
      options: { customBadges: ['https://example.com/gold.png'], overwriteBadges: true, badgesFrame: true, presenceStatus: 'idle' },
      images: { customBadges: [goldBadge] },
    },
  },
  {
    name: 'stripped',
    description: 'removeBadges, removeBorder, removeAvatarFrame (decoration hidden), strong blur, brightness 20.',
    input: {
      profile: { ...ADA, avatarDecoration: decoration },
      options: { removeBadges: true, removeBorder: true, removeAvatarFrame: true, moreBackgroundBlur: true, backgroundBrightness: 20 },
    },
  },
  {
    name: 'decoration-offline',
    description: 'Avatar decoration shown, offline status, brightness 100 (no veil).',
    input: { profile: { ...ADA, avatarDecoration: decoration }, options: { presenceStatus: 'offline', backgroundBrightness: 100 } },
  },
  {
    name: 'custom-avatar',
    description: 'customAvatar (a green avatar) drawn in place of the profile avatar, under the decoration; guildId given (it changes what the profile is, never how the card draws it).',
    input: {
      profile: { ...ADA, avatarDecoration: decoration },
      options: { customAvatar: 'https://example.com/avatar.png', guildId: '613425648685547541', presenceStatus: 'dnd' },
      images: { avatar: sampleAvatarPng(130) },
    },
  },
  {
    name: 'rank-2-empty-bar',
    description: 'Rank 2 in silver with 0 XP: an empty bar.',
    input: { profile: ADA, options: { rankData: rank({ rank: 2, currentXp: 0, level: 3 }) } },
  },
  {
    name: 'rank-3-full-bar',
    description: 'Rank 3 in bronze, more XP than required (full bar), large numbers abbreviated.',
    input: { profile: ADA, options: { rankData: rank({ rank: 3, currentXp: 1_250_000, requiredXp: 1_200_000, level: 88, barColor: '#22c55e' }) } },
  },
  {
    name: 'rank-plain',
    description: 'Rank 1 with autoColorRank off (white), level color and bar color custom.',
    input: { profile: NEWCOMER, options: { rankData: rank({ autoColorRank: false, levelColor: '#38bdf8', barColor: '#f43f5e', currentXp: 4321 }) } },
  },
  {
    name: 'emoji-name',
    description: 'Color emoji, ZWJ sequences and a keycap in the name and tag.',
    input: { profile: { ...NEWCOMER, avatar: avatarBlue, accentColor: '#ff7a59' }, options: { customUsername: 'Kai 🐉✨ 👩‍👩‍👧 ❤️', customTag: '🎮 gamer · 1️⃣ · 🇯🇵', presenceStatus: 'online' } },
  },
  {
    name: 'cjk-name',
    description: 'Chinese, Japanese and Korean text.',
    input: { profile: { ...NEWCOMER, accentColor: '#e11d48' }, options: { customUsername: '東京タワー 한국어', customTag: '@さくら', customSubtitle: '欢迎来到服务器！' } },
  },
  {
    name: 'rtl-name',
    description: 'Arabic name with an emoji, Hebrew subtitle.',
    input: { profile: { ...NEWCOMER, accentColor: '#0ea5e9' }, options: { customUsername: 'مرحبا بالعالم 🌙', customSubtitle: 'שלום לכולם', localDateType: 'ar' } },
  },
  {
    name: 'marks-and-fancy-letters',
    description: 'Combining marks, mathematical letters and symbols users put in names.',
    input: {
      profile: { ...NEWCOMER, accentColor: '#a855f7' },
      options: { customUsername: 'Zoë Ñoño 𝓯𝓪𝓷𝓬𝔂 ★彡', customTag: 'Z̤͂ằl̈g̈ő ᴋɪɴɢ ♛ नमस्ते สวัสดี' },
    },
  },
  {
    name: 'math-letters-styled',
    description: 'A name in mathematical bold, italic, bold italic, monospace, double-struck and letterlike letters: drawn as plain letters in the name\'s family, bold heavier, italic slanted, monospace in JetBrains Mono.',
    input: {
      profile: { ...NEWCOMER, avatar, accentColor: '#22c55e' },
      options: { customUsername: '𝐁𝐨𝐥𝐝 𝘐𝘵𝘢𝘭𝘪𝘤 𝑩𝒐𝒕𝒉 𝚖𝚘𝚗𝚘 ℍ𝕚', customTag: '𝕕𝕠𝕦𝕓𝕝𝕖 ℬ𝑒𝓁𝓁𝒶 𝔉𝔯𝔞𝔨𝔱𝔲𝔯', rankData: rank({ rank: 4 }) },
    },
  },
  {
    name: 'font-literata-greek-cyrillic',
    description: 'fontFamily literata (a serif) with Latin, Greek and Cyrillic in the name, tag and subtitle, and a CJK word and an emoji from the fallback fonts.',
    input: {
      profile: ADA,
      options: { fontFamily: 'literata', customUsername: 'Ada Ωμέγα Привет', customTag: '@ada.codes · Ελληνικά', customSubtitle: 'Русский текст · Ђорђе · 東京 ✨', rankData: rank({ rank: 2 }), presenceStatus: 'online' },
    },
  },
  ...FAMILY_CARDS.map((family): SampleCard => ({
    name: `font-${family}`,
    description: `fontFamily ${family} on a profile card with a subtitle and a rank row: sized by its x-height to read as large as Inter${family === 'press-start-2p' ? '; the pixel face draws its labels unspaced, with wider gaps, and nothing is cut' : ''}.`,
    input: { profile: MINA, options: { fontFamily: family, customSubtitle: 'Designer · she/her · plays every Friday', rankData: rank({ rank: 4, currentXp: 4820, level: 23 }) } },
  })),
  {
    name: 'labels-german-bot',
    description: 'labels in German on a bot card with fontFamily roboto-condensed: STUFE, PLATZ, EP and the chip\'s KI instead of LEVEL, RANK, XP and BOT.',
    input: {
      profile: { ...NEWCOMER, username: 'helper-bot', displayName: 'Helfer', bot: true, badges: ['verified_bot'], avatar: avatarBlue },
      options: { fontFamily: 'roboto-condensed', labels: { level: 'Stufe', rank: 'Platz', xp: 'EP', bot: 'KI' }, rankData: rank({ rank: 3, currentXp: 4321 }) },
    },
  },
  {
    name: 'labels-long-words',
    description: 'labels at their longest: the level and rank words are cut with an ellipsis to share what the numbers leave, the XP text is kept to under half the row.',
    input: {
      profile: ADA,
      options: {
        labels: { level: 'Erfahrungsstufe ABCD', rank: 'Ranglistenplatz ABCD', xp: 'Erfahrungspunkte ABC' },
        rankData: rank({ rank: 12345, currentXp: 999_950, requiredXp: 1_000_000, level: 1234 }),
      },
    },
  },
  {
    name: 'long-name',
    description: 'A name too long for the line: it shrinks, then ends with an ellipsis.',
    input: {
      profile: ADA,
      options: {
        customUsername: 'The Extraordinarily Long Display Name That Keeps Going And Going',
        customTag: 'and a tag that is also much longer than the space we have for it on the card',
        rankData: rank({ rank: 12345, currentXp: 999_950, requiredXp: 1_000_000, level: 1234 }),
      },
    },
  },
  {
    name: 'two-line-name-word-break',
    description: 'A name too long for one line takes two, broken between its words ("Bartholomew" / "Featherstonehaugh"), not inside the surname.',
    input: { profile: ADA, options: { customUsername: 'Bartholomew Featherstonehaugh', rankData: rank({ rank: 4 }) } },
  },
  {
    name: 'huge-numbers',
    description: 'The largest level, rank and XP the options allow: level and rank are abbreviated so the row never collides with the XP.',
    input: { profile: NEWCOMER, options: { rankData: rank({ level: 1e9, rank: 1e12, currentXp: 999_999_999_999_999, requiredXp: 1e15, autoColorRank: false, levelColor: '#38bdf8' }) } },
  },
  {
    name: 'crowded-with-badges',
    description: 'Name, tag, subtitle and rank together push the name up to the badge row: it shortens to keep clear of the badges.',
    input: {
      profile: ADA,
      options: {
        customUsername: 'The Extraordinarily Long Display Name That Keeps Going',
        customSubtitle: 'A subtitle line as well, which makes the text block taller',
        badgesFrame: true, rankData: rank({ rank: 7, autoColorRank: false }),
      },
    },
  },
  {
    name: 'strong-blur',
    description: 'moreBackgroundBlur on the banner at brightness 80: the photo becomes soft color.',
    input: { profile: ADA, options: { moreBackgroundBlur: true, backgroundBrightness: 80 } },
  },
  {
    name: 'broken-profile-images',
    description: 'A truncated avatar and an HTML page as banner: default avatar and generated background, with warnings.',
    input: { profile: { ...ADA, avatar: avatar.subarray(0, 300), banner: Buffer.from('<!doctype html><title>404</title>') }, options: {} },
  },
  {
    name: 'theme-colors',
    description: 'Profile theme colors drive the border, ring and generated background.',
    input: { profile: { ...NEWCOMER, themeColors: ['#f97316', '#7c3aed'], avatar }, options: { presenceStatus: 'online' } },
  },
  {
    name: 'theme-disabled',
    description: 'The same profile with disableProfileTheme: the accent color is used instead.',
    input: { profile: { ...NEWCOMER, themeColors: ['#f97316', '#7c3aed'], accentColor: '#14b8a6', avatar }, options: { disableProfileTheme: true } },
  },
  {
    name: 'verified-bot',
    description: 'A verified bot: the BOT chip with its check mark.',
    input: { profile: { ...NEWCOMER, username: 'helper-bot', displayName: 'Helper', bot: true, badges: ['verified_bot', 'verified_developer'] }, options: {} },
  },
  {
    name: 'every-badge',
    description: 'All profile badge icons.',
    input: {
      profile: { ...NEWCOMER, badges: ['bug_hunter_level_1', 'bug_hunter_level_2', 'hypesquad_events', 'hypesquad_bravery', 'hypesquad_balance', 'certified_moderator', 'verified_developer'] },
      options: { badgesFrame: true },
    },
  },
  {
    name: 'locale-es',
    description: 'Creation date in Spanish (localDateType es).',
    input: { profile: { ...ADA, banner: undefined }, options: { localDateType: 'es' } },
  },
  {
    name: 'contrast-white',
    description: 'A white background at brightness 100: the panel darkens until every text reads (4.5:1, the name 3:1).',
    input: { profile: ADA, options: { customBackground: 'https://example.com/white.png', backgroundBrightness: 100, rankData: rank(), customSubtitle: 'Small text on a white photo' }, images: { background: white } },
  },
  {
    name: 'contrast-black',
    description: 'A black background at brightness 100.',
    input: { profile: ADA, options: { customBackground: 'https://example.com/black.png', backgroundBrightness: 100, rankData: rank() }, images: { background: black } },
  },
  {
    name: 'contrast-busy',
    description: 'A busy background of black-to-white stripes and blocks at brightness 100.',
    input: { profile: ADA, options: { customBackground: 'https://example.com/busy.png', backgroundBrightness: 100, rankData: rank(), customSubtitle: 'Still readable' }, images: { background: busy } },
  },
  {
    name: 'contrast-light-photo',
    description: 'A light sky photo at the default brightness.',
    input: { profile: { ...ADA, banner: lightPhoto }, options: { rankData: rank({ currentXp: 999_950, requiredXp: 1_000_000 }) } },
  },
  {
    name: 'light-theme-white-level',
    description: 'A white levelColor on the light theme (a light sky banner): the level number stands on a white chip with an edge, in the ground\'s dark value colour, instead of a grey box.',
    input: { profile: { ...MINA, banner: lightPhoto }, options: { rankData: rank({ rank: 4, currentXp: 4820, level: 23, levelColor: '#ffffff', barColor: '#5865f2' }) } },
  },
  {
    name: 'levelup-light-theme-white-level',
    description: 'The level-up layout with a white levelColor on the light theme: the new level stands on a white chip grown with its size (not in proportion), in the ground\'s dark value colour.',
    input: { profile: { ...MINA, banner: lightPhoto }, options: { layout: 'levelup', message: 'Keep chatting!', rankData: rank({ rank: 4, currentXp: 120, level: 23, levelColor: '#ffffff', barColor: '#5865f2' }) } },
  },
  {
    name: 'contrast-dark-name-on-white',
    description: 'A dark usernameColor on white at brightness 100: the panel turns light and the small text dark.',
    input: {
      profile: ADA,
      options: { customBackground: 'https://example.com/white.png', backgroundBrightness: 100, usernameColor: '#1f2937', rankData: rank(), presenceStatus: 'idle' },
      images: { background: white },
    },
  },
  {
    name: 'welcome-plain',
    description: 'layout welcome with no other option: headline "Welcome" in capitals, the name with its @tag, generated background, creation date.',
    input: { profile: { ...NEWCOMER, avatar, accentColor: '#7c5cff' }, options: { layout: 'welcome' } },
  },
  {
    name: 'welcome-goodbye-photo',
    description: 'A goodbye card: custom background photo, headline "Goodbye", member-count message, subtitle, custom date, brightness 40; rankData is accepted but not drawn.',
    input: {
      profile: ADA,
      options: {
        layout: 'welcome',
        headline: 'Goodbye',
        message: 'We are now 1,233 members',
        customSubtitle: 'Thanks for everything, see you around',
        customBackground: 'https://example.com/landscape.jpg',
        backgroundBrightness: 40,
        customDate: 'Left Nov 22, 2026',
        removeBadges: true,
        rankData: rank(),
      },
      images: { background: landscape },
    },
  },
  {
    name: 'welcome-long-emoji-name',
    description: 'A long name with emojis and a long custom tag: the tag gives way first, then the name shrinks; custom colors, no border.',
    input: {
      profile: { ...NEWCOMER, avatar: avatarBlue, accentColor: '#ff7a59' },
      options: {
        layout: 'welcome',
        headline: 'Welcome aboard 🎉',
        customUsername: 'Kai 🐉✨ The Extraordinarily Long Display Name',
        customTag: '@kai.the.dragon.tamer.from.the.north',
        message: 'You are member #1,234 — say hi in #general 👋',
        usernameColor: '#ffe08a',
        tagColor: '#9ef0d0',
        removeBorder: true,
      },
    },
  },
  {
    name: 'welcome-square-badges',
    description: 'Welcome layout with a square avatar, decoration, dnd status and the profile badges in a frame plus a custom one: the text block moves under the badge row.',
    input: {
      profile: { ...ADA, avatarDecoration: decoration },
      options: {
        layout: 'welcome',
        message: 'You are member #1,024',
        squareAvatar: true,
        presenceStatus: 'dnd',
        badgesFrame: true,
        overwriteBadges: true,
        customBadges: ['https://example.com/gold.png'],
        borderColor: '#ffe08a',
        moreBackgroundBlur: true,
      },
      images: { customBadges: [goldBadge] },
    },
  },
  {
    name: 'welcome-pixel-font-greek',
    description: 'Welcome layout with fontFamily press-start-2p (a pixel display face) and labels.welcome in Greek as the headline.',
    input: {
      profile: { ...NEWCOMER, avatar, accentColor: '#f59e0b' },
      options: { layout: 'welcome', fontFamily: 'press-start-2p', labels: { welcome: 'Καλώς ήρθες' }, message: 'Добро пожаловать!' },
    },
  },
  {
    name: 'welcome-right-to-left',
    description: 'Welcome layout in Arabic: the headline keeps its joined letters (no capitals, no letter spacing), the tag sits left of the right-to-left name, Arabic date.',
    input: {
      profile: { ...NEWCOMER, avatar, accentColor: '#0ea5e9' },
      options: { layout: 'welcome', headline: 'أهلا وسهلا', customUsername: 'مرحبا بالعالم 🌙', customTag: '@marhaba', message: 'שלום לכולם', localDateType: 'ar' },
    },
  },
  {
    name: 'levelup-photo',
    description: 'Level-up layout over the banner photo: headline, 12 → 13 with the new level in levelColor, the name, a message.',
    input: { profile: ADA, options: { layout: 'levelup', rankData: rank({ level: 13 }), message: 'Keep chatting to reach level 14!', presenceStatus: 'online' } },
  },
  {
    name: 'levelup-long-name-big-levels',
    description: 'Level-up layout with a previousLevel jump, huge levels (the row shrinks), a name cut at 45 px and a custom headline; generated background, no avatar.',
    input: {
      profile: { ...NEWCOMER, accentColor: '#22c55e' },
      options: {
        layout: 'levelup',
        headline: 'Promoted',
        rankData: rank({ level: 123456789, previousLevel: 98765432, levelColor: '#7dd3fc' }),
        customUsername: 'The Extraordinarily Long Display Name That Keeps Going',
        message: 'A very long message that cannot possibly fit on the one line the level-up card gives it',
      },
    },
  },
  {
    name: 'palette-pink-avatar',
    description: 'No accent or theme colour, no banner: ring, border and generated art take the pink of the avatar (they took a hue from the user id before).',
    input: { profile: { userId: '302050872383242240', username: 'mina.k', displayName: 'Mina', avatar: sampleAvatarPng(330) }, options: { rankData: rank({ rank: 4, currentXp: 3100 }) } },
  },
  {
    name: 'palette-blue-avatar-welcome',
    description: 'Welcome card, no colour given: the accent (ring, rule, border, art) from the blue avatar; headline with {name}.',
    input: { profile: { userId: '302050872383242240', username: 'theo', displayName: 'Theo', avatar: avatarBlue }, options: { layout: 'welcome', headline: 'Welcome, {name}!', message: 'You are member #1,234' } },
  },
  {
    name: 'glass-panel-photo',
    description: 'panel "glass" over a custom photo: the landscape shows through the panel, each text keeps its contrast; accent from the avatar.',
    input: {
      profile: { userId: '302050872383242240', username: 'mina.k', displayName: 'Mina Kovač', avatar: sampleAvatarPng(330) },
      options: { panel: 'glass', customBackground: 'https://example.com/landscape.jpg', rankData: rank({ rank: 3 }), presenceStatus: 'online' },
      images: { background: landscape },
    },
  },
  {
    name: 'glass-panel-busy-welcome',
    description: 'panel "glass" over the busy test picture in the welcome layout: the hardest ground, a scrim behind each text that needs one.',
    input: {
      profile: { userId: '302050872383242240', username: 'mina.k', displayName: 'Mina Kovač', avatar: sampleAvatarPng(330) },
      options: { panel: 'glass', layout: 'welcome', headline: 'Welcome, {name}!', message: 'You are member #1,234', customBackground: 'https://example.com/busy.png' },
      images: { background: busy },
    },
  },
  {
    name: 'welcome-80-character-name',
    description: 'An 80-character display name with the README bot\'s headline `Welcome, {name}!`: the headline shrinks to 25 px then ends with "…", the name to 45 px then "…"; a 200, never a 400.',
    input: {
      profile: { userId: '302050872383242240', username: 'wilhelmina', displayName: 'Wilhelmina Konstantinopoulou-Vanderbilt the Third of Greater Manchestershireland', avatar: avatarBlue },
      options: { layout: 'welcome', headline: 'Welcome, {name}!', message: 'You are member #1,234' },
    },
  },
  {
    name: 'hidpi',
    description: 'scale 2: 1800x600 for HiDPI screens.',
    input: { profile: ADA, options: { rankData: rank({ rank: 2 }), presenceStatus: 'online' }, scale: 2 },
  },
  {
    name: 'hidpi-emoji',
    description: 'scale 2 with color emoji in the name and tag, under the text shadow.',
    input: { profile: { ...NEWCOMER, avatar: avatarBlue, accentColor: '#ff7a59' }, options: { customUsername: 'Mika 🔥😀 ⚙️', customTag: '🎮 gamer ✨ 🇯🇵', presenceStatus: 'idle' }, scale: 2 },
  },
  {
    name: 'discord-member',
    description: 'From Discord objects: display name in a role gradient, avatar decoration, nameplate (forest palette and artwork) behind the name, server tag pill with its badge.',
    input: { profile: MEMBER, options: { presenceStatus: 'online', rankData: rank({ rank: 4 }) } },
  },
  {
    name: 'discord-holographic-welcome',
    description: "Welcome layout from Discord objects: Discord's holographic role colours, a violet nameplate without artwork, the tag pill after @username, and (experimentalDisplayNameStyles) the display-name style's font.",
    input: {
      profile: {
        ...MEMBER,
        nameplate: { colors: ['#730ba9', '#972fed'] },
        roleColors: { colors: ['#a9c9ff', '#ffbbec', '#ffc3a0'], holographic: true },
        displayNameStyle: { fontId: 5, effectId: 2, colors: [] },
      },
      options: { layout: 'welcome', message: 'You are member #1,234', experimentalDisplayNameStyles: true },
    },
  },
  {
    name: 'discord-dark-role-light-card',
    description: 'A dark role colour (navy) on the light theme keeps its hue, and on the dark theme it is lifted until it reads; the tag pill without a badge.',
    input: { profile: { ...NEWCOMER, avatar, displayName: 'Navy Role', serverTag: { tag: 'NAVY' }, roleColors: { colors: ['#1a1a40', '#3b0a45'], holographic: false } }, options: { customBackground: 'https://example.com/light.jpg' }, images: { background: lightPhoto } },
  },
  {
    name: 'welcome-tall-photo',
    description: 'layout welcome-tall (960x540, 16:9): the avatar with its decoration centred and large, the server in the headline, the name as the hero, the member number as the message, over a landscape photo.',
    input: {
      profile: PRIYA,
      options: { layout: 'welcome-tall', headline: 'Welcome to Pixel Garden', message: 'Member #1,234', customBackground: 'https://example.com/landscape.jpg', presenceStatus: 'online' },
      images: { background: landscape },
    },
  },
  {
    name: 'welcome-tall-long-name-glass',
    description: 'layout welcome-tall with a long name on two lines broken between words, a subtitle, and panel "glass" over the busy test picture: a scrim behind each text that needs one.',
    input: {
      profile: { ...PRIYA, displayName: 'Konstantina Alexandropoulou-Whitfield', avatarDecoration: undefined },
      options: { layout: 'welcome-tall', panel: 'glass', headline: 'Welcome to the Night Owls Book Club', message: 'Member #12,408', customSubtitle: 'Say hi in #introductions', customBackground: 'https://example.com/busy.png' },
      images: { background: busy },
    },
  },
  {
    name: 'welcome-tall-light',
    description: 'layout welcome-tall over a light photo: the light theme, dark text; square avatar, no decoration, default headline "Welcome".',
    input: {
      profile: { ...PRIYA, userId: '302050872383242240', displayName: 'Theo', username: 'theo', avatar: avatarBlue, avatarDecoration: undefined, themeColors: undefined },
      options: { layout: 'welcome-tall', message: 'You are member #87 of Sunday Climbers', squareAvatar: true, customBackground: 'https://example.com/light.jpg' },
      images: { background: lightPhoto },
    },
  },
  {
    name: 'welcome-tall-hidpi',
    description: 'layout welcome-tall at scale 2: 1920x1080 from the same design, generated background from the profile theme.',
    input: { profile: PRIYA, options: { layout: 'welcome-tall', headline: 'Welcome to Pixel Garden', message: 'Member #1,234' }, scale: 2 },
  },
];
