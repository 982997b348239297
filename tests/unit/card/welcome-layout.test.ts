/**
 * The welcome layout (`layout: 'welcome'`): its own render key, its own step list, and every card
 * option still drawn in it, checked by comparing pixels with and without the option. Its look is
 * pinned by the welcome-* goldens (tests/unit/card/goldens.test.ts).
 */
import { cardOptionsSchema, renderJobId, type CardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import { renderCard, type CardInput } from '../../../packages/card/src/index.ts';
import { SAMPLE_CARDS } from '../../../packages/card/samples/sample-cards.ts';
import { sampleAbstractPng, sampleAvatarPng, sampleBadgePng, sampleDecorationPng, sampleLandscapeJpeg } from '../../../packages/card/samples/sample-images.ts';
import { layoutSteps, RENDER_STEPS } from '../../../packages/card/src/steps/render-steps.ts';
import { compareImages, decodePng } from '../../support/card/golden-images.ts';

const PROFILE: CardInput['profile'] = { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada', accentColor: '#5b6cff', avatar: sampleAvatarPng() };
const RANK = { currentXp: 1240, requiredXp: 5000, level: 12, rank: 1, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true };

const welcome = (options: CardOptions = {}, extra: Partial<CardInput> = {}): CardInput => ({ profile: PROFILE, options: { layout: 'welcome', ...options }, ...extra });

async function differentPixels(a: CardInput, b: CardInput): Promise<number> {
  const [first, second] = await Promise.all([renderCard(a), renderCard(b)]);
  return compareImages(decodePng(first.png), decodePng(second.png)).differentPixels;
}

test('the layout is part of the render key: the same user and body with another layout is another render', (t) => {
  const userId = PROFILE.userId;
  const profile = renderJobId({ userId, options: { customTag: 'hi' } });
  const welcomeKey = renderJobId({ userId, options: { customTag: 'hi', layout: 'welcome' } });
  t.not(profile, welcomeKey);
  t.not(renderJobId({ userId, options: { layout: 'welcome', headline: 'Welcome' } }), renderJobId({ userId, options: { layout: 'welcome', headline: 'Goodbye' } }));
  t.not(renderJobId({ userId, options: { layout: 'welcome' } }), renderJobId({ userId, options: { layout: 'welcome', message: 'You are member #2' } }));
  t.is(welcomeKey, renderJobId({ userId, options: { layout: 'welcome', customTag: 'hi' } }), 'key order does not matter');
});

test('each layout has its own steps; the welcome card draws no rank bar and names its steps in the timings', async (t) => {
  t.is(layoutSteps('profile').steps, RENDER_STEPS);
  const names = layoutSteps('welcome').steps.map((step) => step.name);
  t.deepEqual(names, ['background', 'overlay', 'nameplate', 'legibility', 'avatar', 'welcome text', 'server tag', 'badges', 'date', 'border']);
  const card = await renderCard(welcome({ rankData: RANK }));
  t.deepEqual(Object.keys(card.timings.steps), names);
  t.deepEqual([card.width, card.height], [900, 300]);
});

test('the welcome layout differs from the profile card of the same options', async (t) => {
  t.true((await differentPixels({ profile: PROFILE, options: {} }, welcome())) > 5000);
});

test('headline and message are accepted but not drawn in the profile layout; rankData is not drawn in the welcome layout', async (t) => {
  const profile = await renderCard({ profile: PROFILE, options: {} });
  const withWelcomeFields = await renderCard({ profile: PROFILE, options: { headline: 'Goodbye', message: 'You are member #9' } });
  t.true(profile.png.equals(withWelcomeFields.png));
  const plain = await renderCard(welcome());
  const withRank = await renderCard(welcome({ rankData: RANK }));
  t.true(plain.png.equals(withRank.png));
});

test('the default headline is "Welcome"; a blank headline hides the line', async (t) => {
  const byDefault = await renderCard(welcome());
  t.true(byDefault.png.equals((await renderCard(welcome({ headline: 'Welcome' }))).png));
  t.true((await differentPixels(welcome(), welcome({ headline: ' ' }))) > 2000);
  t.true((await differentPixels(welcome(), welcome({ headline: 'Goodbye' }))) > 500);
});

const decoration = sampleDecorationPng();
const landscape = sampleLandscapeJpeg();
const badge = sampleBadgePng('#3ddc97');

/** Each option against the same welcome card without it: the option must change the picture. */
const OPTION_CASES: [string, CardInput, CardInput][] = [
  ['message', welcome({ message: 'You are member #1,234' }), welcome()],
  ['customUsername', welcome({ customUsername: 'Captain Ada' }), welcome()],
  ['customTag', welcome({ customTag: 'new here' }), welcome()],
  ['customSubtitle', welcome({ customSubtitle: 'Say hi in #general' }), welcome()],
  ['usernameColor', welcome({ usernameColor: '#ffe08a' }), welcome()],
  ['tagColor', welcome({ tagColor: '#ff3355' }), welcome()],
  ['customDate', welcome({ customDate: 'Joined today' }), welcome()],
  ['borderColor', welcome({ borderColor: '#ff0000' }), welcome()],
  ['removeBorder', welcome({ removeBorder: true }), welcome()],
  ['backgroundBrightness', welcome({ backgroundBrightness: 100 }), welcome()],
  ['moreBackgroundBlur', { ...welcome({ moreBackgroundBlur: true, backgroundBrightness: 100 }), profile: { ...PROFILE, banner: landscape } }, { ...welcome({ backgroundBrightness: 100 }), profile: { ...PROFILE, banner: landscape } }],
  ['customBackground', welcome({ customBackground: 'https://example.com/a.png' }, { images: { background: sampleAbstractPng() } }), welcome()],
  ['panel', welcome({ panel: 'glass', customBackground: 'https://example.com/a.png' }, { images: { background: landscape } }), welcome({ customBackground: 'https://example.com/a.png' }, { images: { background: landscape } })],
  ['customAvatar', welcome({ customAvatar: 'https://example.com/avatar.png' }, { images: { avatar: sampleBadgePng('#e84393') } }), welcome()],
  ['squareAvatar', welcome({ squareAvatar: true }), welcome()],
  ['removeAvatarFrame', welcome({ removeAvatarFrame: true }), welcome()],
  ['presenceStatus', welcome({ presenceStatus: 'online' }), welcome()],
  ['customBadges', welcome({ customBadges: ['https://example.com/b.png'] }, { images: { customBadges: [badge] } }), welcome()],
  ['badgesFrame', welcome({ customBadges: ['https://example.com/b.png'], badgesFrame: true }, { images: { customBadges: [badge] } }), welcome({ customBadges: ['https://example.com/b.png'] }, { images: { customBadges: [badge] } })],
  ['fontFamily', welcome({ fontFamily: 'eb-garamond' }), welcome()],
  ['labels', welcome({ labels: { welcome: 'Willkommen' } }), welcome()],
  ['disableProfileTheme', { ...welcome({ disableProfileTheme: true }), profile: { ...PROFILE, themeColors: ['#f97316', '#7c3aed'] } }, { ...welcome(), profile: { ...PROFILE, themeColors: ['#f97316', '#7c3aed'] } }],
];

for (const [option, withOption, without] of OPTION_CASES) {
  test(`welcome layout: ${option} changes the card`, async (t) => {
    t.true((await differentPixels(withOption, without)) > 20);
  });
}

test('the welcome layout draws no creation date (so localDateType changes nothing) but draws a customDate', async (t) => {
  const card = await renderCard(welcome());
  t.deepEqual(card.texts.filter((run) => run.role === 'date'), []);
  t.is(await differentPixels(welcome({ localDateType: 'es' }), welcome()), 0);
  const dated = await renderCard(welcome({ customDate: 'Joined today' }));
  t.deepEqual(dated.texts.filter((run) => run.role === 'date').map((run) => run.text), ['Joined today']);
  const profile = await renderCard({ profile: PROFILE, options: {} });
  t.is(profile.texts.filter((run) => run.role === 'date').length, 1, 'the profile card keeps its creation date');
});

test('welcome layout: the name is the largest text and the avatar is larger than the profile card\'s', async (t) => {
  const card = await renderCard(welcome({ message: 'You are member #1,234' }));
  const size = (role: string) => card.texts.find((run) => run.role === role)?.style.size ?? 0;
  t.true(size('name') > size('headline'), `name ${size('name')} px, headline ${size('headline')} px`);
  t.true(size('message') >= size('tag') - 3);
  // The sample avatar's warm pixels (red well above blue) left of the text: their area grows with
  // the radius squared, (108 / 92)^2 = 1.38 times the profile card's.
  const warmArea = (png: Buffer) => {
    const decoded = decodePng(png);
    let count = 0;
    for (let y = 0; y < decoded.height; y += 1) {
      for (let x = 0; x < 290; x += 1) {
        const offset = (y * decoded.width + x) * 4;
        if ((decoded.data[offset] ?? 0) - (decoded.data[offset + 2] ?? 0) > 60) count += 1;
      }
    }
    return count;
  };
  const [welcomeArea, profileArea] = [warmArea(card.png), warmArea((await renderCard({ profile: PROFILE, options: {} })).png)];
  t.true(welcomeArea > profileArea * 1.25, `${welcomeArea} vs ${profileArea} px`);
});

test('welcome layout: profile badges, the avatar decoration, and removeBadges / overwriteBadges', async (t) => {
  const badged = { ...PROFILE, badges: ['staff', 'partner'] as const };
  const withBadges: CardInput = { profile: { ...badged, badges: [...badged.badges] }, options: { layout: 'welcome' } };
  t.true((await differentPixels(withBadges, welcome())) > 200);
  t.is(await differentPixels({ ...withBadges, options: { layout: 'welcome', removeBadges: true } }, welcome()), 0);
  const custom = { customBadges: ['https://example.com/b.png'] };
  const images = { customBadges: [badge] };
  t.true((await differentPixels({ ...withBadges, options: { layout: 'welcome', ...custom, overwriteBadges: true }, images }, { ...withBadges, options: { layout: 'welcome', ...custom }, images })) > 200);
  t.true((await differentPixels({ profile: { ...PROFILE, avatarDecoration: decoration }, options: { layout: 'welcome' } }, welcome())) > 200);
});

test('the option cases and the welcome samples cover every card option', (t) => {
  // `animated` is a different render (renderAnimatedCard, tests/card/animation), not a difference in a still card.
  // `guildId` changes what the renderer fetches (the member's server name and avatar), not how a card draws.
  // `localDateType` formats the creation date, which the welcome layout does not draw (its own test above).
  // `scale` 2 draws a welcome card of the same layout at twice the size (tests/unit/card/goldens.test.ts and the pipeline).
  // The Discord objects, like `guildId`, change the profile the renderer resolves; their welcome
  // cards are goldens (discord-holographic-welcome), and experimentalDisplayNameStyles is tested
  // with them (tests/http/card/discord-profile-card.test.ts).
  const discord = ['discordUser', 'discordMember', 'discordRoleColors', 'experimentalDisplayNameStyles'];
  const covered = new Set([...OPTION_CASES.map(([option]) => option), 'removeBadges', 'overwriteBadges', 'rankData', 'localDateType', 'layout', 'headline', 'animated', 'guildId', 'scale', ...discord]);
  for (const option of Object.keys(cardOptionsSchema.shape)) t.true(covered.has(option), `${option} is not checked in the welcome layout`);
  t.true(SAMPLE_CARDS.filter((card) => card.input.options.layout === 'welcome').length >= 4);
});
