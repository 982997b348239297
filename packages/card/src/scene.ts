import { type CardLayout, CARD_FONT_FAMILIES, DEFAULT_CARD_FONT_FAMILY, DEFAULT_CARD_LAYOUT, DEFAULT_CARD_PANEL, DEFAULT_DATE_LOCALE, DEFAULT_LEVELUP_HEADLINE, DEFAULT_WELCOME_HEADLINE, snowflakeCreatedAt } from '@utility-api/render-jobs';
import type { Canvas, CanvasRenderingContext2D } from 'canvas';
import { LRUCache } from 'lru-cache';
import { checkImageCached } from './cache/card-caches.ts';
import { GROUND_TEXT } from './legibility/ground.ts';
import { nameFill } from './legibility/name-fill.ts';
import { displayNameStyleFill } from './profile/display-name-styles.ts';
import { chooseTheme } from './legibility/theme.ts';
import { lighten, rgba } from './color/color.ts';
import { CardImageError } from './images/card-image-error.ts';
import { CardPixelBudget, type DecodedImage } from './images/decode-image.ts';
import { AVATAR, AVATAR_DECORATION_SCALE, BADGES, CARD_FRAME, NAMEPLATE, SERVER_TAG, TEXT_COLUMN, type AvatarBox, type CardFrame } from './layout/card-layout.ts';
import { WELCOME_AVATAR } from './layout/welcome-layout.ts';
import { WELCOME_TALL_AVATAR, WELCOME_TALL_BADGES_RIGHT, WELCOME_TALL_FRAME } from './layout/welcome-tall-layout.ts';
import { checkPhotoBackground, generatedCardBackground } from './paint/card-backgrounds.ts';
import type { Drawable, Softness } from './paint/soften.ts';
import { resolvePalette } from './paint/palette.ts';
import type { BadgeKind, CardInput } from './profile/card-profile.ts';
import { cardWords } from './text/card-labels.ts';
import { visibleText } from './text/clean-text.ts';

export type SceneBadge = { kind: 'profile'; badge: BadgeKind } | { kind: 'image'; image: Drawable };

/** Everything the steps draw, with every default applied and every image decoded. */
export type Scene = Awaited<ReturnType<typeof buildScene>>;

/** An image checked and charged to the card's budget, whose pixels are still to be decoded. */
type PendingImage<T> = () => Promise<T>;

/** What an optional profile image ended as: drawn, absent, or refused with a warning. */
type ProfileImageOutcome<T> = { value: T | undefined; warning?: string };

/**
 * Profile images are not the caller's to fix: one that fails its checks or its decode falls back to
 * the default art, with a warning. The checks run now (in the card's fixed order), the decode later.
 */
async function optionalProfileImage<T>(bytes: Buffer | undefined, check: (bytes: Buffer) => Promise<PendingImage<T>>): Promise<PendingImage<ProfileImageOutcome<T>>> {
  const refused = (error: unknown): ProfileImageOutcome<T> => {
    if (!(error instanceof CardImageError)) throw error;
    return { value: undefined, warning: error.message };
  };
  if (!bytes) return () => Promise.resolve({ value: undefined });
  try {
    const decode = await check(bytes);
    return () => decode().then((value) => ({ value }), refused);
  } catch (error) {
    const outcome = refused(error);
    return () => Promise.resolve(outcome);
  }
}

/**
 * The background's checks now, its pixels later: a custom background replaces the banner (the
 * caller chose it, so a bad one is their error); a banner that fails falls back to generated art,
 * drawn once the palette is known (undefined here).
 */
async function checkBackground(input: CardInput, frame: CardFrame, scale: 1 | 2, budget: CardPixelBudget): Promise<PendingImage<{ value: Canvas | undefined; warning?: string }>> {
  const softness: Softness = input.options.moreBackgroundBlur ? 'strong' : 'soft';
  const photo = { budget, softness, width: frame.width * scale, height: frame.height * scale, cornerRadius: frame.radius * scale };
  const custom = input.images?.background;
  if (custom) {
    const decode = await checkPhotoBackground(custom, { ...photo, field: 'customBackground' });
    return async () => ({ value: await decode() });
  }
  return optionalProfileImage(input.profile.banner, (bytes) => checkPhotoBackground(bytes, { ...photo, field: 'banner' }));
}

function resolveBadges(input: CardInput, customImages: Drawable[]): SceneBadge[] {
  const { options, profile } = input;
  if (options.removeBadges) return [];
  // The verified-bot mark lives in the bot chip beside the name, not in the badge row.
  const profileBadges: SceneBadge[] = (profile.badges ?? []).filter((badge) => badge !== 'verified_bot').map((badge) => ({ kind: 'profile', badge }));
  const custom: SceneBadge[] = customImages.map((image) => ({ kind: 'image', image }));
  if (custom.length === 0) return profileBadges;
  return options.overwriteBadges ? [...profileBadges, ...custom] : custom;
}

/**
 * The name, tag, subtitle and custom date, cleaned for one-line layout. A field with nothing visible
 * left counts as not given: the name falls back to the display name, then the username (a profile
 * with neither, which no resolver builds, gets an empty name line); the tag to `@username`, or no
 * tag line without a username (the id-only profile has none); the date to the creation date.
 */
export function resolveTexts(input: CardInput) {
  const { profile, options } = input;
  const username = visibleText(profile.username);
  return {
    name: visibleText(options.customUsername) ?? visibleText(profile.displayName) ?? username ?? '',
    // An empty customTag asks for no tag line (documented before the cleaning rules); an invisible one is absent.
    tag: options.customTag === '' ? undefined : (visibleText(options.customTag) ?? (username === undefined ? undefined : `@${username}`)),
    subtitle: visibleText(options.customSubtitle),
    customDate: visibleText(options.customDate),
  };
}

/** `{name}`, or a doubled brace (one literal brace); any other brace is drawn as written. */
const HEADLINE_PLACEHOLDER = /\{\{|\}\}|\{name\}/g;

/**
 * The headline with `{name}` replaced by the name the card draws (so a bot can send
 * `Welcome, {name}!` without repeating, or outgrowing, the member's name itself); `{{` and `}}`
 * are one literal brace each, so `{{name}}` draws `{name}`.
 */
function fillHeadline(headline: string, name: string): string {
  return headline.replace(HEADLINE_PLACEHOLDER, (found) => (found === '{name}' ? name : found.charAt(0)));
}

/**
 * The welcome (level-up) layout's title: its default when not given (`labels.welcome`, else
 * "Welcome"; "Level up!" on a level-up card), with `{name}` filled (fillHeadline); a headline with
 * nothing visible hides the line (''), unlike leaving it out.
 */
export function welcomeHeadline(headline: string | undefined, layout: CardLayout = 'welcome', welcomeWord: string = DEFAULT_WELCOME_HEADLINE, name = ''): string {
  if (headline === undefined) return layout === 'levelup' ? DEFAULT_LEVELUP_HEADLINE : (visibleText(fillHeadline(welcomeWord, name)) ?? '');
  return visibleText(fillHeadline(headline, name)) ?? '';
}

/** Where each layout draws: its canvas and panel, its avatar, and the right edge of its badge row. */
const LAYOUT_PLACES: Record<CardLayout, { frame: CardFrame; avatar: AvatarBox; badgesRight: number }> = {
  profile: { frame: CARD_FRAME, avatar: AVATAR, badgesRight: TEXT_COLUMN.right },
  welcome: { frame: CARD_FRAME, avatar: WELCOME_AVATAR, badgesRight: TEXT_COLUMN.right },
  levelup: { frame: CARD_FRAME, avatar: AVATAR, badgesRight: TEXT_COLUMN.right },
  'welcome-tall': { frame: WELCOME_TALL_FRAME, avatar: WELCOME_TALL_AVATAR, badgesRight: WELCOME_TALL_BADGES_RIGHT },
};

/**
 * The creation date's format per locale, the only option that varies: building an
 * `Intl.DateTimeFormat` loads ICU's locale data and patterns every time, formatting with one is
 * cheap. Requests name any language, script and region ICU writes dates in, so the most recently
 * used are kept.
 */
const creationDateFormats = new LRUCache<string, Intl.DateTimeFormat>({
  max: 64,
  memoMethod: (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
});

/**
 * `budget` is the card's pixel budget: an animated card passes its own, to charge its later frames
 * to what the still images left.
 */
export async function buildScene(input: CardInput, budget = new CardPixelBudget()) {
  const { profile, options } = input;
  // `input.scale` for callers of the package (the preview, the bench), the request's `scale` for the API.
  const scale = input.scale ?? input.options.scale ?? 1;
  const layout = options.layout ?? DEFAULT_CARD_LAYOUT;
  const { frame, avatar: avatarBox, badgesRight } = LAYOUT_PLACES[layout];

  // Headers first, one image after the other, so the budget is charged in a fixed order and the
  // caller's own images are the ones a full budget refuses; then every image's pixels at once.
  const pendingBackground = await checkBackground(input, frame, scale, budget);
  const pendingBadges: PendingImage<DecodedImage>[] = [];
  for (const [index, bytes] of (input.images?.customBadges ?? []).entries()) {
    pendingBadges.push(await checkImageCached(bytes, { field: `customBadges.${index}`, budget, side: BADGES.size * scale }));
  }
  const avatarSide = avatarBox.radius * 2 * scale;
  // A custom avatar is the caller's image, checked with theirs (a bad one is their 422); the profile
  // avatar it replaces is not even checked, so it can neither warn nor spend the budget.
  const customAvatar = input.images?.avatar;
  const pendingAvatar: PendingImage<ProfileImageOutcome<DecodedImage>> = customAvatar
    ? await checkImageCached(customAvatar, { field: 'customAvatar', budget, side: avatarSide }).then((decode) => async () => ({ value: await decode() }))
    : await optionalProfileImage(profile.avatar, (bytes) => checkImageCached(bytes, { field: 'avatar', budget, side: avatarSide }));
  // Discord's nameplate (behind the name) and server tag badge: profile images like the decoration,
  // checked before it, decoded after the others (both are small).
  const pendingNameplate = await optionalProfileImage(profile.nameplate?.image, (bytes) => checkImageCached(bytes, { field: 'nameplate', budget, side: NAMEPLATE.imageHeight * scale }));
  const pendingTagBadge = await optionalProfileImage(profile.serverTag?.badge, (bytes) => checkImageCached(bytes, { field: 'serverTagBadge', budget, side: SERVER_TAG.badgeSize * scale }));
  // removeAvatarFrame hides the decoration: it is not even checked, so a broken one cannot warn.
  const decorationBytes = options.removeAvatarFrame ? undefined : profile.avatarDecoration;
  const pendingDecoration = await optionalProfileImage(decorationBytes, (bytes) => checkImageCached(bytes, { field: 'avatarDecoration', budget, side: avatarSide * AVATAR_DECORATION_SCALE }));
  const [photo, customBadgeImages, avatar, decoration] = await Promise.all([pendingBackground(), Promise.all(pendingBadges.map((decode) => decode())), pendingAvatar(), pendingDecoration()]);
  // The colours come from the member's pictures when no colour is given (paint/palette.ts), so
  // they are known only now; generated art, drawn from them, comes after.
  const palette = resolvePalette(profile, options.disableProfileTheme ?? false, { avatar: avatar.value?.source, background: photo.value });
  const background = { ...photo, value: photo.value ?? generatedCardBackground(palette, profile.userId, frame.width * scale, frame.height * scale, frame.radius * scale) };
  // Warnings in the same fixed order, whichever decode finished first.
  const warnings = [background, avatar, decoration].flatMap((outcome) => (outcome.warning === undefined ? [] : [outcome.warning]));

  const badges = resolveBadges(input, customBadgeImages.map((image) => image.source));
  const [nameplateImage, tagBadge] = await Promise.all([pendingNameplate(), pendingTagBadge()]);
  for (const outcome of [nameplateImage, tagBadge]) if (outcome.warning !== undefined) warnings.push(outcome.warning);
  const badgesWidth =
    badges.length === 0 ? 0 : badges.length * BADGES.size + (badges.length - 1) * BADGES.gap + (options.badgesFrame ? BADGES.framePadding * 2 : 0);

  const texts = resolveTexts(input);
  const { ground, veilAlpha } = chooseTheme(options, background.value, frame);
  const textColors = GROUND_TEXT[ground];
  // The name's colour: `usernameColor`, else (experimental) the display-name style's colours, else
  // the role's colour or gradient, each lifted to read on the ground; else the ground's own.
  const styled = options.experimentalDisplayNameStyles ? displayNameStyleFill(profile.displayNameStyle) : undefined;
  const memberColors = styled?.colors.length ? styled.colors : profile.roleColors?.colors;
  const fill = options.usernameColor !== undefined ? { color: options.usernameColor } : memberColors?.length ? nameFill(memberColors, ground) : { color: textColors.value };
  const nameColor = fill.color;
  const serverTagText = visibleText(profile.serverTag?.tag);
  const words = cardWords(options.labels);
  const creationDate = creationDateFormats.memo(options.localDateType ?? DEFAULT_DATE_LOCALE);
  return {
    scale,
    /** The layout's canvas size and panel, in 1x pixels (the 3:1 card, or the tall welcome card's 16:9). */
    frame,
    userId: profile.userId,
    palette,
    /** The background at the card's pixel size with the frame's rounded corners cut out: a softened photo, or art generated from the palette. */
    background: background.value,
    /** The bytes the background photo was drawn from (custom background or banner), if one was: an animated card reads its other frames. */
    backgroundPhoto: input.images?.background ?? (background.warning === undefined ? profile.banner : undefined),
    /**
     * Where the legibility step measures what is behind the text; undefined: the canvas it draws
     * on. An animated card whose background moves draws the static layers apart from it, and
     * measures on a backdrop of its frames' worst case instead (animation/animated-layers.ts).
     */
    legibilityBackdrop: undefined as CanvasRenderingContext2D | undefined,
    /** The panel style (`panel`): `glass` shows the background through it, with a scrim per text (legibility-step.ts). */
    panel: options.panel ?? DEFAULT_CARD_PANEL,
    /** The black veil of `backgroundBrightness` (legibility/theme.ts: none by default on the light theme). */
    veilAlpha,
    /** The bytes the avatar was drawn from (custom or profile avatar), if one was: an animated card reads its other frames. */
    avatarPhoto: customAvatar ?? (avatar.value ? profile.avatar : undefined),
    avatar: {
      image: avatar.value?.source,
      square: options.squareAvatar ?? false,
      ring: !(options.removeAvatarFrame ?? false),
      decoration: decoration.value?.source,
      /** Where the avatar sits in this layout. */
      box: avatarBox,
    },
    presence: options.presenceStatus,
    name: texts.name,
    nameColor,
    /** Left-to-right colours of the name (a role gradient, holographic), each reading on the ground; `nameColor` is the hardest to read of them. */
    nameGradient: fill.gradient,
    /** The name's own typeface (experimental display-name styles), tried before the card's. */
    nameFamily: styled?.family,
    /** Discord's nameplate behind the name: its palette's colours and its image, either may be missing. */
    nameplate: profile.nameplate && (profile.nameplate.colors || nameplateImage.value) ? { colors: profile.nameplate.colors, image: nameplateImage.value?.source } : undefined,
    /** The server tag pill after the name, with its badge when it could be drawn. */
    serverTag: serverTagText === undefined ? undefined : { tag: serverTagText, badge: tagBadge.value?.source },
    /** The tone the text stands on (legibility/ground.ts), from the name's color, else the background's (legibility/theme.ts). */
    ground,
    textColors,
    bot: profile.bot ?? false,
    verifiedBot: (profile.badges ?? []).includes('verified_bot'),
    /** Undefined: no tag line. */
    tag: texts.tag,
    tagColor: options.tagColor ?? textColors.tag,
    subtitle: texts.subtitle,
    badges,
    badgesFrame: options.badgesFrame ?? false,
    /** Width the badge row takes at the top right (0 without badges), so the name can avoid it. */
    badgesWidth,
    /** Where the badge row ends on the right. */
    badgesRight,
    rank: options.rankData,
    // The welcome layout draws a customDate but not the creation date: unlabelled, on a card about
    // joining a server, an account's creation date reads as a random date.
    date:
      texts.customDate !== undefined
        ? { text: texts.customDate, custom: true, shown: true }
        : { text: creationDate.format(snowflakeCreatedAt(profile.userId)), custom: false, shown: layout !== 'welcome' && layout !== 'welcome-tall' },
    border: options.removeBorder ? undefined : (options.borderColor ?? rgba(lighten(palette.primary, 0.15))),
    /** Which step list draws the card (render-steps.ts `layoutSteps`). */
    layout,
    /** The welcome (level-up) layout's title and the line under the name (the profile layout draws neither). */
    headline: welcomeHeadline(options.headline, options.layout, words.welcome, texts.name),
    /** The card's fixed words (LEVEL, RANK, XP, BOT), from `labels` or the defaults, cleaned but not yet in capitals. */
    words,
    /** The family every text is drawn in first (`fontFamily`), by its own name. */
    fontFamily: CARD_FONT_FAMILIES[options.fontFamily ?? DEFAULT_CARD_FONT_FAMILY].name,
    message: visibleText(options.message),
    /** Problems with profile images that were replaced by defaults (the request still succeeds). */
    warnings,
  };
}

