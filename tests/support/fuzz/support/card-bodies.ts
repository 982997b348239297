import { CARD_FONT_FAMILY_IDS, CARD_LAYOUTS, CARD_LIMITS, CARD_PANELS, PRESENCE_STATUSES } from '@utility-api/render-jobs';
import fc from 'fast-check';
import { FIXED_NOW_MS } from '../../../helpers/test-gateway.ts';

/** Card option bodies for `POST /v1/profile-image`: valid ones, and ones broken in one known field. */

const hexColor = fc.oneof(
  fc.constantFrom('#fff', '#5865F2', 'ABCDEF', '#abc', '#000000', 'fFf'),
  fc.integer({ min: 0, max: 0xffffff }).map((value) => `#${value.toString(16).padStart(6, '0')}`),
  // Discord's integer colours (discord.js `member.displayColor`).
  fc.integer({ min: 0, max: 0xffffff }),
);

/** Text in any script, emoji included, within the field's limit (zod counts code points; UTF-16 units are never fewer). */
const cardText = (max: number) =>
  fc.oneof(fc.string({ unit: 'grapheme', maxLength: 16 }), fc.string({ maxLength: max }), fc.string({ unit: 'binary', maxLength: 8 })).filter((text) => text.length <= max);

/**
 * URLs the renderer refuses without a network round trip (loopback, link-local, metadata): a valid
 * body that names one is a 422, which keeps the run fast and offline.
 */
const refusedImageUrl = fc.constantFrom('http://127.0.0.1/badge.png', 'http://[::1]/b.png', 'http://169.254.169.254/latest/meta-data', 'https://10.0.0.1/x.png', 'http://0.0.0.0/a.gif');

const rankData = fc.record({
  currentXp: fc.double({ min: 0, max: CARD_LIMITS.maxXp, noNaN: true }),
  requiredXp: fc.double({ min: 0.001, max: CARD_LIMITS.maxXp, noNaN: true }),
  level: fc.integer({ min: 0, max: 1e9 }),
  rank: fc.integer({ min: 1, max: 1e12 }),
  barColor: hexColor,
  levelColor: hexColor,
  autoColorRank: fc.boolean(),
});

/** rankData with the levelup extension sometimes: a previousLevel below its level (the schema's rule). */
const rankDataWithPreviousLevel = rankData.chain((rank) =>
  rank.level === 0 ? fc.constant(rank) : fc.option(fc.integer({ min: 0, max: rank.level - 1 }), { nil: undefined }).map((previousLevel) => (previousLevel === undefined ? rank : { ...rank, previousLevel })),
);

/** Bodies that pass validation. With `withUrls`, some name a refused image URL (a 422, not a fetch). */
export function validCardOptions(withUrls: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      customUsername: cardText(CARD_LIMITS.maxUsernameLength).filter((text) => text.trim().length > 0),
      customTag: cardText(CARD_LIMITS.maxTagLength),
      customSubtitle: cardText(CARD_LIMITS.maxSubtitleLength),
      customDate: cardText(CARD_LIMITS.maxDateLength),
      usernameColor: hexColor,
      tagColor: hexColor,
      borderColor: hexColor,
      badgesFrame: fc.boolean(),
      overwriteBadges: fc.boolean(),
      removeBadges: fc.boolean(),
      removeBorder: fc.boolean(),
      squareAvatar: fc.boolean(),
      removeAvatarFrame: fc.boolean(),
      moreBackgroundBlur: fc.boolean(),
      disableProfileTheme: fc.boolean(),
      backgroundBrightness: fc.double({ min: 1, max: 100, noNaN: true }),
      rankData: rankDataWithPreviousLevel,
      presenceStatus: fc.constantFrom(...PRESENCE_STATUSES),
      localDateType: fc.constantFrom('en', 'es', 'pt-BR', 'de', 'ja', 'ar', 'zh-Hant-TW', 'en-ZZ'),
      layout: fc.constantFrom(...CARD_LAYOUTS),
      headline: cardText(CARD_LIMITS.maxHeadlineLength),
      message: cardText(CARD_LIMITS.maxMessageLength),
      fontFamily: fc.constantFrom(...CARD_FONT_FAMILY_IDS),
      panel: fc.constantFrom(...CARD_PANELS),
      labels: fc.record(
        {
          level: cardText(CARD_LIMITS.maxLabelLength),
          rank: cardText(CARD_LIMITS.maxLabelLength),
          xp: cardText(CARD_LIMITS.maxLabelLength),
          bot: cardText(CARD_LIMITS.maxLabelLength),
          welcome: cardText(CARD_LIMITS.maxHeadlineLength),
        },
        { requiredKeys: [] },
      ),
      ...(withUrls
        ? { customBadges: fc.array(refusedImageUrl, { minLength: 1, maxLength: CARD_LIMITS.maxCustomBadges }), customBackground: refusedImageUrl }
        : {}),
    },
    { requiredKeys: [] },
  ).map((options) =>
    // The levelup layout needs rankData (a 400 naming it otherwise): a valid body brings it.
    options.layout === 'levelup' && options.rankData === undefined ? { ...options, rankData: { currentXp: 1, requiredXp: 2, level: 3, rank: 4, barColor: '#ffffff', levelColor: '#ffffff', autoColorRank: false } } : options,
  );
}

const KNOWN_FIELDS = new Set([
  'customUsername', 'customTag', 'customSubtitle', 'customBadges', 'customBackground', 'badgesFrame', 'overwriteBadges', 'removeBadges',
  'removeBorder', 'usernameColor', 'tagColor', 'borderColor', 'squareAvatar', 'backgroundBrightness', 'removeAvatarFrame', 'customDate',
  'rankData', 'presenceStatus', 'moreBackgroundBlur', 'localDateType', 'disableProfileTheme', 'layout', 'headline', 'message', 'fontFamily', 'labels', 'panel',
]);

const notHttpUrl = fc.constantFrom('ftp://example.com/a.png', 'javascript:alert(1)', 'file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=', 'not a url', '', '//example.com/a.png', 'http//x', 42, null, ['http://example.com/a.png']);
const notColor = fc.oneof(fc.constantFrom('#ff', '#gggggg', 'red', '#ff573380', '', '##fff', 'rgb(1,2,3)', 0x1000000, -1, 1.5, null, true), fc.string({ maxLength: 8 }).filter((text) => !/^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.test(text)));
const notBoolean = fc.constantFrom('true', 'false', 1, 0, null, 'yes', [], {});
const notText = fc.constantFrom(1, null, true, [], {}, ['a']);

/** One field broken: the field the 400 must name, and the value that breaks it. */
const breakage: fc.Arbitrary<{ field: string; patch: Record<string, unknown> }> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).filter((key) => !KNOWN_FIELDS.has(key) && key !== '__proto__').map((key) => ({ field: key, patch: { [key]: 1 } })),
  fc.tuple(fc.constantFrom('usernameColor', 'tagColor', 'borderColor'), notColor).map(([field, value]) => ({ field, patch: { [field]: value } })),
  fc.tuple(fc.constantFrom('badgesFrame', 'overwriteBadges', 'removeBadges', 'removeBorder', 'squareAvatar', 'removeAvatarFrame', 'moreBackgroundBlur', 'disableProfileTheme'), notBoolean).map(([field, value]) => ({ field, patch: { [field]: value } })),
  fc.constantFrom(0, 0.99, 100.01, -5, 1e308, '50', null, true).map((value) => ({ field: 'backgroundBrightness', patch: { backgroundBrightness: value } })),
  fc.integer({ min: CARD_LIMITS.maxCustomBadges + 1, max: 40 }).map((count) => ({ field: 'customBadges', patch: { customBadges: Array.from({ length: count }, () => 'https://example.com/a.png') } })),
  fc.tuple(fc.integer({ min: 0, max: 7 }), notHttpUrl).map(([index, value]) => ({
    field: `customBadges.${index}`,
    patch: { customBadges: [...Array.from({ length: index }, () => 'https://example.com/a.png'), value] },
  })),
  notHttpUrl.filter((value) => !Array.isArray(value)).map((value) => ({ field: 'customBackground', patch: { customBackground: value } })),
  fc.tuple(fc.constantFrom(['customUsername', CARD_LIMITS.maxUsernameLength], ['customTag', CARD_LIMITS.maxTagLength], ['customSubtitle', CARD_LIMITS.maxSubtitleLength], ['customDate', CARD_LIMITS.maxDateLength], ['headline', CARD_LIMITS.maxHeadlineLength], ['message', CARD_LIMITS.maxMessageLength]), fc.integer({ min: 1, max: 500 }), fc.constantFrom('a', '👍')).map(
    // zod counts code points, so an emoji is one character here.
    ([[field, max], extra, unit]) => ({ field, patch: { [field]: unit.repeat(Number(max) + extra) } }),
  ),
  fc.tuple(fc.constantFrom('customUsername', 'customTag', 'customSubtitle', 'customDate', 'headline', 'message'), notText).map(([field, value]) => ({ field, patch: { [field]: value } })),
  fc.constantFrom(' ', '\t', '   ').map((value) => ({ field: 'customUsername', patch: { customUsername: value } })),
  fc.oneof(fc.string({ maxLength: 10 }).filter((text) => !(PRESENCE_STATUSES as readonly string[]).includes(text)), fc.constantFrom('ONLINE', 'invisible', 1)).map((value) => ({ field: 'presenceStatus', patch: { presenceStatus: value } })),
  fc.constantFrom('Welcome', 'PROFILE', 'rank', '', 1, null, true).map((value) => ({ field: 'layout', patch: { layout: value } })),
  fc.constantFrom('xx', 'en-', 'english', '', 'en_US', 'a'.repeat(100), 1).map((value) => ({ field: 'localDateType', patch: { localDateType: value } })),
  fc.tuple(rankData, fc.constantFrom('currentXp', 'requiredXp', 'level', 'rank', 'barColor', 'levelColor', 'autoColorRank')).map(([rank, missing]) => {
    const broken: Record<string, unknown> = { ...rank };
    delete broken[missing];
    return { field: `rankData.${missing}`, patch: { rankData: broken } };
  }),
  fc.tuple(rankData, fc.constantFrom<[string, unknown]>(['requiredXp', 0], ['level', 1.5], ['rank', 0], ['currentXp', -1], ['currentXp', 1e16], ['barColor', 'blue'], ['autoColorRank', 'yes'])).map(
    ([rank, [field, value]]) => ({ field: `rankData.${field}`, patch: { rankData: { ...rank, [field]: value } } }),
  ),
  rankData.map((rank) => ({ field: 'rankData.extra', patch: { rankData: { ...rank, extra: 1 } } })),
  // The levelup extension: a previousLevel not below the level, and the layout without rankData.
  fc.tuple(rankData, fc.integer({ min: 0, max: 5 })).map(([rank, above]) => ({ field: 'rankData.previousLevel', patch: { rankData: { ...rank, previousLevel: rank.level + above } } })),
  fc.constant({ field: 'rankData', patch: { layout: 'levelup', rankData: undefined } }),
  fc.constantFrom(null, 1, 'x', [], true).map((value) => ({ field: 'rankData', patch: { rankData: value } })),
  fc.constantFrom('Inter', 'comic-sans', '', 1, null, ['inter']).map((value) => ({ field: 'fontFamily', patch: { fontFamily: value } })),
  fc.constantFrom('Glass', 'clear', '', 0.5, null, ['glass']).map((value) => ({ field: 'panel', patch: { panel: value } })),
  fc.tuple(fc.constantFrom('level', 'rank', 'xp', 'bot'), fc.integer({ min: 1, max: 200 }), fc.constantFrom('a', '👍')).map(([label, extra, unit]) => ({
    field: `labels.${label}`,
    patch: { labels: { [label]: unit.repeat(CARD_LIMITS.maxLabelLength + extra) } },
  })),
  fc.tuple(fc.constantFrom('level', 'rank', 'xp', 'bot', 'welcome', 'joined'), notText).map(([label, value]) => ({ field: `labels.${label}`, patch: { labels: { [label]: value } } })),
  fc.constantFrom(null, 1, 'Niveau', [], true).map((value) => ({ field: 'labels', patch: { labels: value } })),
);

/** A valid body with exactly one field broken, and that field's dotted name. */
export const brokenCardOptions = fc.tuple(validCardOptions(false), breakage).map(([valid, { field, patch }]) => ({ field, body: { ...valid, ...patch } }));

/** The last id issued by the test gateways' fixed clock: later ones lie in the future and are a 400. */
const LAST_ISSUED_ID = ((BigInt(FIXED_NOW_MS) - 1_420_070_400_000n) << 22n) | ((1n << 22n) - 1n);

/** Discord user ids: 17 to 20 digits, below 2^64 and not from the future. */
export const validUserId = fc.bigInt({ min: 10n ** 16n, max: LAST_ISSUED_ID }).map(String);

export const invalidUserId = fc.oneof(
  // Well-formed but from the future: more than an hour after the fixed clock, up to 2^64 - 1.
  fc.bigInt({ min: LAST_ISSUED_ID + (3_600_001n << 22n), max: 2n ** 64n - 1n }).map(String),
  fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }).map(String),
  fc.bigInt({ min: 2n ** 64n, max: 10n ** 30n }).map(String),
  fc.constantFrom('', '-302050872383242240', '302050872383242240.0', '0x4311ee0f7e800000', '３０２０５０８７２３８３２４２２４０', ' 302050872383242240', '302050872383242240 ', 'null', '@me'),
  fc.string({ maxLength: 24 }).filter((text) => !/^\d{17,20}$/.test(text)),
);
