import { CARD_LIMITS, cardOptionsSchema, hexColorField, isSupportedDateLocale, parseHexColor, refuseFutureSnowflake, snowflakeCreatedAt, snowflakeSchema } from '@utility-api/render-jobs';
import test from 'ava';

const problems = (input: unknown) => {
  const result = cardOptionsSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

test('an empty body is a valid card request', (t) => {
  t.deepEqual(cardOptionsSchema.parse({}), {});
});

test('every option of the spec is accepted and colors are normalized', (t) => {
  const options = cardOptionsSchema.parse({
    customUsername: 'Ada',
    customTag: 'tag',
    customSubtitle: 'subtitle',
    customBadges: ['https://example.com/a.png', 'http://example.com/b.gif'],
    customBackground: 'https://example.com/bg.jpg',
    badgesFrame: true,
    overwriteBadges: false,
    removeBadges: false,
    removeBorder: true,
    usernameColor: 'F53',
    tagColor: '#AABBCC',
    borderColor: '#123456',
    squareAvatar: true,
    backgroundBrightness: 42.5,
    removeAvatarFrame: true,
    customDate: 'today',
    rankData: { currentXp: 10, requiredXp: 100, level: 2, rank: 3, barColor: '#fff', levelColor: '#000', autoColorRank: true },
    presenceStatus: 'dnd',
    moreBackgroundBlur: true,
    localDateType: 'pt-BR',
    disableProfileTheme: true,
    layout: 'welcome',
    headline: 'Goodbye',
    message: 'You are member #1,234',
    fontFamily: 'fira-sans',
    labels: { level: 'Niveau', rank: 'Rang', xp: 'EP', bot: 'Robot', welcome: 'Bienvenue' },
    panel: 'glass',
  });
  t.is(options.layout, 'welcome');
  t.is(options.usernameColor, '#ff5533');
  t.is(options.tagColor, '#aabbcc');
  t.is(options.rankData?.barColor, '#ffffff');
});

test('bad values name their field', (t) => {
  t.deepEqual(problems({ usernameColor: 'red' }), ['usernameColor: must be a color such as #FF5733, #F53 or a Discord integer color from 0 to 16777215']);
  t.deepEqual(problems({ backgroundBrightness: 0 }), ['backgroundBrightness: must be a number from 1 to 100']);
  t.deepEqual(problems({ backgroundBrightness: 101 }), ['backgroundBrightness: must be a number from 1 to 100']);
  t.deepEqual(problems({ presenceStatus: 'away' }), ['presenceStatus: must be one of offline, online, idle, dnd']);
  t.deepEqual(problems({ customBackground: 'file:///etc/passwd' }), ['customBackground: must be an http or https URL']);
  t.deepEqual(problems({ customBackground: 'javascript:alert(1)' }), ['customBackground: must be an http or https URL']);
  t.deepEqual(problems({ customBadges: Array(9).fill('https://example.com/a.png') }), ['customBadges: must have at most 8 badges']);
  t.deepEqual(problems({ customBadges: ['ftp://example.com/a.png'] }), ['customBadges.0: must be an http or https URL']);
  t.deepEqual(problems({ localDateType: 'xx' }), ['localDateType: must be a locale code such as en, es or pt-BR']);
  t.deepEqual(problems({ removeBorder: 'yes' }), ['removeBorder: must be true or false']);
  t.deepEqual(problems({ customUsername: '   ' }), ['customUsername: must not be blank']);
});

test('layout, headline and message: the layout names its values, texts have limits', (t) => {
  t.deepEqual(problems({ layout: 'banner' }), ['layout: must be one of profile, welcome, levelup, welcome-tall']);
  t.deepEqual(problems({ layout: 1 }), ['layout: must be one of profile, welcome, levelup, welcome-tall']);
  t.deepEqual(problems({ layout: 'Welcome' }), ['layout: must be one of profile, welcome, levelup, welcome-tall']);
  t.deepEqual(problems({ headline: 42 }), ['headline: must be text']);
  t.deepEqual(problems({ panel: 'clear' }), ['panel: must be one of frosted, glass']);
  t.deepEqual(problems({ message: ['a'] }), ['message: must be text']);
  const { maxHeadlineLength, maxMessageLength } = CARD_LIMITS;
  t.deepEqual(problems({ headline: 'x'.repeat(maxHeadlineLength + 1) }), [`headline: must be at most ${maxHeadlineLength} characters`]);
  t.deepEqual(problems({ message: 'x'.repeat(maxMessageLength + 1) }), [`message: must be at most ${maxMessageLength} characters`]);
  t.deepEqual(problems({ layout: 'welcome', headline: 'x'.repeat(maxHeadlineLength), message: 'x'.repeat(maxMessageLength) }), []);
  t.deepEqual(problems({ layout: 'welcome-tall', headline: 'Welcome to Pixel Garden', message: 'Member #1,234', scale: 2 }), []);
  // Accepted with the profile layout too (documented as not drawn there), so switching layouts is one field.
  t.deepEqual(problems({ layout: 'profile', headline: 'Hi', message: 'there' }), []);
  t.deepEqual(problems({ headline: '', message: '' }), []);
});

test('an incomplete rankData names every missing field', (t) => {
  const missing = problems({ rankData: { currentXp: 1, requiredXp: 2 } });
  t.is(missing.length, 5);
  for (const field of ['level', 'rank', 'barColor', 'levelColor', 'autoColorRank']) {
    t.true(missing.some((problem) => problem.startsWith(`rankData.${field}:`)), field);
  }
  t.deepEqual(problems({ rankData: { currentXp: 1, requiredXp: 0, level: 1, rank: 1, barColor: '#fff', levelColor: '#fff', autoColorRank: false } }), [
    'rankData.requiredXp: must be more than 0',
  ]);
  t.deepEqual(problems({ rankData: { currentXp: -1, requiredXp: 5, level: 1.5, rank: 0, barColor: '#fff', levelColor: '#fff', autoColorRank: false } }).length, 3);
});

test('unknown fields are refused so typos do not pass silently', (t) => {
  const found = problems({ usernamecolor: '#fff' });
  t.is(found.length, 1);
  t.regex(found[0]!, /usernamecolor/);
  const nested = cardOptionsSchema.safeParse({ rankData: { currentXp: 1, requiredXp: 2, level: 1, rank: 1, barColor: '#fff', levelColor: '#fff', autoColorRank: true, extra: 1 } });
  t.false(nested.success);
});

test("Discord's integer colors 0-16777215 are taken as #rrggbb; other numbers are refused", (t) => {
  const field = hexColorField('a colour');
  t.is(field.parse(5793266), '#5865f2');
  t.is(field.parse(0), '#000000');
  t.is(field.parse(16777215), '#ffffff');
  for (const bad of [-1, 16777216, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5793266x', null, true]) t.false(field.safeParse(bad).success, String(bad));
  t.is(cardOptionsSchema.parse({ rankData: { currentXp: 1, requiredXp: 2, level: 1, rank: 1, barColor: 0xff0000, levelColor: 255, autoColorRank: false } }).rankData?.levelColor, '#0000ff');
});

test('hex colors: #RGB and #RRGGBB, # optional, any case', (t) => {
  const field = hexColorField('a colour');
  t.is(field.parse('#ABC'), '#aabbcc');
  t.is(field.parse('abcdef'), '#abcdef');
  t.false(field.safeParse('#abcd').success);
  t.false(field.safeParse('#ggg').success);
  t.deepEqual(parseHexColor('#F53'), { r: 0xff, g: 0x55, b: 0x33 });
  t.deepEqual(parseHexColor('00a0FF'), { r: 0, g: 0xa0, b: 0xff });
  t.throws(() => parseHexColor('#abcd'), { instanceOf: RangeError });
});

test('locales: well-formed codes the runtime knows', (t) => {
  for (const code of ['en', 'es', 'pt-BR', 'zh-Hant-TW', 'ja', 'ar']) t.true(isSupportedDateLocale(code), code);
  for (const code of ['xx', 'en-', 'english', '', 'en_US', '../etc']) t.false(isSupportedDateLocale(code), code);
});

test('customAvatar is an http(s) image URL and guildId a Discord server id, both optional', (t) => {
  t.deepEqual(cardOptionsSchema.parse({ customAvatar: 'https://cdn.example/a.gif', guildId: '613425648685547541' }), { customAvatar: 'https://cdn.example/a.gif', guildId: '613425648685547541' });
  t.deepEqual(problems({ customAvatar: 'file:///etc/passwd' }), ['customAvatar: must be an http or https URL']);
  t.deepEqual(problems({ customAvatar: `https://example.com/${'a'.repeat(2048)}` }), ['customAvatar: must be at most 2048 characters']);
  for (const bad of ['abc', '12345', '18446744073709551616', ' 613425648685547541', 613425648]) {
    t.deepEqual(problems({ guildId: bad }), ['guildId: must be a Discord server id: 17 to 20 digits'], String(bad));
  }
});

test('a snowflake from more than an hour in the future is refused; the present and the skew are not', (t) => {
  const nowMs = Date.UTC(2024, 5, 15, 12);
  const idAt = (ms: number) => ((BigInt(ms) - 1_420_070_400_000n) << 22n).toString();
  const refused = (id: string) => !snowflakeSchema.superRefine((value, context) => refuseFutureSnowflake(value, nowMs, context)).safeParse(id).success;
  t.is(snowflakeCreatedAt(idAt(nowMs)).getTime(), nowMs);
  t.false(refused(idAt(nowMs)));
  t.false(refused(idAt(nowMs + 3_600_000)));
  t.true(refused(idAt(nowMs + 3_600_001)));
  t.true(refused('18446744073709551615'));
  t.false(refused('302050872383242240'));
});
