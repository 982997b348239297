/**
 * Cards drawn from raw Discord objects, end to end below the gateway: the request's objects are
 * parsed by the job contract's schemas (API snake_case, discord.js camelCase), resolved against a
 * fake Discord CDN serving real PNG, APNG and WebP assets through the renderer's own safe fetcher,
 * and drawn. Each card is compared pixel by pixel with its reviewed golden in
 * tests/support/card/goldens/discord/, full size and as Discord shows it in a chat (400 px wide on
 * #313338), and each Discord extra is shown to change the card.
 *
 * After an intended design change, rewrite these references, look at them and commit them:
 *     DISCORD_GOLDENS=write ./run exec ava tests/http/card/discord-profile-card.test.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createObjectProfiles, createProfileImages } from '@utility-api/discord-users';
import { createLogger } from '@utility-api/infra';
import { cardOptionsSchema, parseHexColor } from '@utility-api/render-jobs';
import { createImageFetcher } from '@utility-api/safe-fetch';
import test, { type ExecutionContext } from 'ava';
import { createCanvas, loadImage } from 'canvas';
import sharp from 'sharp';
import { renderAnimatedCard, renderCard, type CardProfile } from '../../../packages/card/src/index.ts';
import { sampleAvatarPng, sampleBadgePng, sampleDecorationPng, sampleLandscapeJpeg, sampleNameplatePng } from '../../../packages/card/samples/sample-images.ts';
import { contrastRatio, LARGE_TEXT_CONTRAST, needsDarkGround, relativeLuminance } from '../../../packages/card/src/legibility/contrast.ts';
import { GROUND_COLOR } from '../../../packages/card/src/legibility/ground.ts';
import { liftForGround, nameFill } from '../../../packages/card/src/legibility/name-fill.ts';
import { startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { buildApngFrames } from '../../fixtures/images.ts';
import { compareImages, decodePng, GOLDEN_FOLDER, saveMismatch } from '../../support/card/golden-images.ts';

const FOLDER = join(GOLDEN_FOLDER, 'discord');
const WRITE = process.env.DISCORD_GOLDENS === 'write';
/** Discord's chat background, where a 400 px wide embed image is seen. */
const DISCORD_DARK = '#313338';

const USER = '302050872383242240';
const GUILD = '613425648685547541';
const TAG_GUILD = '613425648685547542';
const HASHES = { avatar: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', banner: 'b1b2c3d4e5f60718293a4b5c6d7e8f90', server: 'c1b2c3d4e5f60718293a4b5c6d7e8f90', badge: 'd1b2c3d4e5f60718293a4b5c6d7e8f90', decoration: 'a_e1b2c3d4e5f60718293a4b5c6d7e8f9' };
const NAMEPLATE = 'nameplates/nameplates_v3/bonsai/';

/** A raw user object as Discord's API sends it: decoration, nameplate and server tag. */
const apiUser = {
  id: USER,
  username: 'ada.codes',
  global_name: 'Ada Lovelace',
  discriminator: '0',
  avatar: HASHES.avatar,
  banner: HASHES.banner,
  accent_color: null,
  public_flags: 0,
  avatar_decoration_data: { asset: HASHES.decoration, sku_id: '1144058522808614923', expires_at: null },
  collectibles: { nameplate: { asset: NAMEPLATE, palette: 'forest', label: 'COLLECTIBLES_NAMEPLATES_BONSAI_A11Y', sku_id: '1349849614353829990', expires_at: null } },
  primary_guild: { identity_guild_id: TAG_GUILD, identity_enabled: true, tag: 'ADA', badge: HASHES.badge },
};

/** discord.js's `User#toJSON()` of a plain user, and `GuildMember#toJSON()` of its member with a server avatar. */
const discordJsUser = { id: USER, bot: false, system: false, flags: 0, username: 'ada.codes', globalName: 'Ada Lovelace', discriminator: '0', avatar: HASHES.avatar, banner: null, accentColor: null, avatarDecorationData: null, tag: 'ada.codes', createdTimestamp: 1_487_000_000_000, avatarURL: 'https://cdn.discordapp.com/x.webp', displayAvatarURL: 'https://cdn.discordapp.com/x.webp' };
const discordJsMember = { guildId: GUILD, userId: USER, nickname: 'Countess', avatar: HASHES.server, banner: null, displayName: 'Countess', roles: [GUILD], joinedTimestamp: 1_700_000_000_000, premiumSinceTimestamp: null, avatarURL: null, displayAvatarURL: 'https://cdn.discordapp.com/x.webp' };
/** discord.js's `Role#colors` of a gradient role. */
const gradientRole = { primaryColor: 0xe91e63, secondaryColor: 0x5865f2, tertiaryColor: null };

let discord: FakeDiscord;
let profiles: ReturnType<typeof createObjectProfiles>;

async function decorationApng(): Promise<Buffer> {
  const still = await loadImage(sampleDecorationPng());
  const frame = (turn: number) => {
    const canvas = createCanvas(still.width, still.height);
    const context = canvas.getContext('2d');
    context.translate(still.width / 2, still.height / 2);
    context.rotate(turn);
    context.drawImage(still, -still.width / 2, -still.height / 2);
    return canvas;
  };
  return buildApngFrames([
    { canvas: frame(0), delay: [1, 10] },
    { canvas: frame(Math.PI / 12), delay: [1, 10] },
  ]);
}

test.before(async () => {
  discord = await startFakeDiscord();
  const images = discord.images;
  images.set(`/avatars/${USER}/${HASHES.avatar}.png`, sampleAvatarPng());
  images.set(`/banners/${USER}/${HASHES.banner}.png`, await sharp(sampleLandscapeJpeg()).resize(1024).png().toBuffer());
  // The server avatar as WebP: the CDN serves what it has; the fetcher and decoder take any of the formats.
  images.set(`/guilds/${GUILD}/users/${USER}/avatars/${HASHES.server}.png`, await sharp(sampleAvatarPng(205)).webp({ quality: 90 }).toBuffer());
  images.set(`/avatar-decoration-presets/${HASHES.decoration}.png`, await decorationApng());
  images.set(`/assets/collectibles/${NAMEPLATE}static.png`, sampleNameplatePng());
  images.set(`/guild-tag-badges/${TAG_GUILD}/${HASHES.badge}.png`, sampleBadgePng('#ff5cae'));
  const logger = createLogger({ service: 'discord-card-test', level: 'silent' });
  const fetcher = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'], deadlineMs: 1500 });
  const cache = createProfileImages({ fetcher, onlyHost: '127.0.0.1', maxBytes: 16 * 1024 * 1024, timeoutMs: 1500, logger });
  profiles = createObjectProfiles({ images: cache, cdnBaseUrl: discord.cdnBaseUrl });
});

test.after.always(async () => {
  await discord?.close();
});

/** The profile the renderer resolves from a request body's objects, and the body's options. */
async function resolved(body: Record<string, unknown>): Promise<{ profile: CardProfile; options: ReturnType<typeof cardOptionsSchema.parse> }> {
  const options = cardOptionsSchema.parse(body);
  const profile = await profiles.resolveProfile(USER, { guildId: options.guildId, objects: { user: options.discordUser, member: options.discordMember, roleColors: options.discordRoleColors } });
  return { profile, options };
}

async function drawn(body: Record<string, unknown>): Promise<Buffer> {
  const { profile, options } = await resolved(body);
  return (await renderCard({ profile, options })).png;
}

const chatSized = (png: Buffer) => sharp(png).resize(400).flatten({ background: DISCORD_DARK }).png().toBuffer();

async function matchesGolden(t: ExecutionContext, name: string, png: Buffer): Promise<void> {
  for (const [variant, bytes] of [[name, png], [`${name}-400`, await chatSized(png)]] as const) {
    const path = join(FOLDER, `${variant}.png`);
    if (WRITE) {
      mkdirSync(FOLDER, { recursive: true });
      writeFileSync(path, bytes);
    }
    t.true(existsSync(path), `no golden ${path}: run DISCORD_GOLDENS=write and review it`);
    const comparison = compareImages(decodePng(bytes), decodePng(readFileSync(path)));
    if (!comparison.matches) t.fail(`${variant}: ${comparison.differentPixels} pixels differ; actual and diff in ${saveMismatch(variant, bytes, comparison)}`);
    else t.pass();
  }
}

async function differingPixels(first: Buffer, second: Buffer): Promise<number> {
  return compareImages(decodePng(first), decodePng(second)).differentPixels;
}

const RAW_USER_CARD = { discordUser: apiUser, presenceStatus: 'online', rankData: { currentXp: 1240, requiredXp: 5000, level: 12, rank: 4, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true } };

test('a raw API user object: decoration, nameplate and server tag from the CDN, as reviewed', async (t) => {
  const { profile } = await resolved(RAW_USER_CARD);
  t.like(profile, { displayName: 'Ada Lovelace', username: 'ada.codes', serverTag: { tag: 'ADA' }, nameplate: { colors: ['#2d5401', '#6aa624'] } });
  t.truthy(profile.avatarDecoration && profile.nameplate?.image && profile.serverTag?.badge && profile.avatar && profile.banner);
  const png = await drawn(RAW_USER_CARD);
  await matchesGolden(t, 'raw-api-user', png);
  // Each extra shows: the same card without it differs.
  const without = async (user: Record<string, unknown>) => differingPixels(png, await drawn({ ...RAW_USER_CARD, discordUser: user }));
  t.true((await without({ ...apiUser, avatar_decoration_data: null })) > 500, 'the decoration');
  t.true((await without({ ...apiUser, collectibles: null })) > 500, 'the nameplate');
  t.true((await without({ ...apiUser, primary_guild: null })) > 300, 'the server tag');
  // A tag the user does not display is not drawn, as Discord does not show it.
  t.is(await without({ ...apiUser, primary_guild: { ...apiUser.primary_guild, identity_enabled: false }, avatar_decoration_data: apiUser.avatar_decoration_data }), await without({ ...apiUser, primary_guild: null }));
});

const MEMBER_CARD = { layout: 'welcome', message: 'You are member #1,234', discordUser: discordJsUser, discordMember: discordJsMember, discordRoleColors: gradientRole };

test('a discord.js member: nickname, per-server avatar and a gradient role colour, as reviewed', async (t) => {
  const { profile } = await resolved(MEMBER_CARD);
  t.like(profile, { displayName: 'Countess', roleColors: { colors: ['#e91e63', '#5865f2'], holographic: false } });
  const png = await drawn(MEMBER_CARD);
  await matchesGolden(t, 'discord-js-member', png);
  t.true((await differingPixels(png, await drawn({ ...MEMBER_CARD, discordMember: { ...discordJsMember, avatar: null } }))) > 2000, 'the server avatar over the user one');
  t.true((await differingPixels(png, await drawn({ ...MEMBER_CARD, discordRoleColors: undefined }))) > 500, 'the gradient name');
  // The holographic style is its own look, not the gradient's.
  const holographic = await drawn({ ...MEMBER_CARD, discordRoleColors: { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 } });
  t.true((await differingPixels(png, holographic)) > 500);
});

test('experimental display-name styles change the name only when switched on', async (t) => {
  const styled = { ...RAW_USER_CARD, discordUser: { ...apiUser, display_name_styles: { font_id: 5, effect_id: 2, colors: [0xff5cae, 0x7c5cff] } } };
  const plain = await drawn(RAW_USER_CARD);
  t.is(await differingPixels(plain, await drawn(styled)), 0, 'without the switch the styles are ignored');
  t.true((await differingPixels(plain, await drawn({ ...styled, experimentalDisplayNameStyles: true }))) > 500);
});

test('an asset that is missing, fails or never answers: the card without it, never an error', async (t) => {
  const broken = { ...apiUser, avatar_decoration_data: { asset: 'a_00000000000000000000000000000404' }, primary_guild: { ...apiUser.primary_guild, badge: '00000000000000000000000000000500' }, collectibles: { nameplate: { asset: 'nameplates/hangs/', palette: 'forest' } } };
  discord.cdnScripts.set(`/guild-tag-badges/${TAG_GUILD}/00000000000000000000000000000500.png`, (response) => {
    response.writeHead(500);
    response.end();
  });
  discord.cdnScripts.set('/assets/collectibles/nameplates/hangs/static.png', () => undefined);
  const { profile } = await resolved({ discordUser: broken });
  t.is(profile.avatarDecoration, undefined);
  t.is(profile.serverTag?.badge, undefined);
  t.is(profile.nameplate?.image, undefined);
  // What needs no asset stays: the tag's text and the plate's palette.
  t.like(profile, { serverTag: { tag: 'ADA' }, nameplate: { colors: ['#2d5401', '#6aa624'] } });
  t.true((await drawn({ discordUser: broken })).length > 0);
});

test('every role colour is lifted until it reads on its ground, keeping its hue; the name is measured by its hardest stop', (t) => {
  for (const ground of ['dark', 'light'] as const) {
    const groundLuminance = relativeLuminance(GROUND_COLOR[ground]);
    for (const color of ['#000000', '#1a1a40', '#e91e63', '#5865f2', '#ffe08a', '#ffffff', '#a9c9ff', '#3b0a45']) {
      const lifted = parseHexColor(liftForGround(color, ground));
      t.true(contrastRatio(relativeLuminance(lifted), groundLuminance) >= LARGE_TEXT_CONTRAST, `${color} on ${ground}`);
      t.is(needsDarkGround(lifted), ground === 'dark', `${color} stays on the ${ground} ground's side`);
    }
  }
  // A colour that reads is kept as the member chose it.
  t.is(liftForGround('#ffe08a', 'dark'), '#ffe08a');
  const fill = nameFill(['#e91e63', '#a9c9ff'], 'dark');
  t.deepEqual(fill.gradient, [liftForGround('#e91e63', 'dark'), '#a9c9ff']);
  t.is(fill.color, liftForGround('#e91e63', 'dark'), 'the darker stop is what legibility measures on the dark ground');
  t.deepEqual(nameFill(['#a9c9ff', '#a9c9ff'], 'dark'), { color: '#a9c9ff' });
});

test("an animated card asks for the decoration's APNG (passthrough) and moves it", async (t) => {
  const before = discord.cdnRequests().length;
  const options = cardOptionsSchema.parse({ discordUser: apiUser, animated: true });
  const profile = await profiles.resolveProfile(USER, { animated: true, objects: { user: options.discordUser } });
  const asked = discord.cdnRequests().slice(before).map((request) => request.path);
  t.true(asked.includes(`/avatar-decoration-presets/${HASHES.decoration}.png?passthrough=true`), asked.join(' '));
  const card = await renderAnimatedCard({ profile, options }, { format: 'webp' });
  t.true(card.animated);
  t.is(card.frames, 2);
});
