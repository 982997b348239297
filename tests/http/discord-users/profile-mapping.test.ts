import { BADGE_KINDS } from '../../../packages/card/src/profile/card-profile.ts';
import {
  DISCORD_BADGE_FLAGS,
  DISCORD_IMAGE_SIZES,
  idOnlyProfile,
  profileImageUrls,
  UnknownUserError,
  type DiscordUser,
} from '@utility-api/discord-users';
import test from 'ava';
import { startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addUser, newUserId, PINO_WARN, profilesFor, TOKEN } from '../../support/discord-users/fixtures.ts';
import { solidPng } from '../../fixtures/images.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

const AVATAR_HASH = '8342729096ea3675442027381ff50dfe';
const BANNER_HASH = '06c16474723fe537c283b8efa61a30c8';

test('a user with avatar, banner, accent color and badges maps every field, images included', async (t) => {
  const id = newUserId();
  addUser(fake, {
    id,
    username: 'nelly',
    global_name: 'Nelly ✨',
    avatar: AVATAR_HASH,
    banner: BANNER_HASH,
    accent_color: 0x00a0ff,
    // staff, hypesquad_brilliance, active_developer, and MFA_SMS (1 << 4), which has no badge.
    public_flags: (1 << 0) | (1 << 7) | (1 << 22) | (1 << 4),
    avatar_decoration_data: null,
  });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);

  t.is(profile.userId, id);
  t.is(profile.username, 'nelly');
  t.is(profile.displayName, 'Nelly ✨');
  t.is(profile.bot, undefined);
  t.is(profile.accentColor, '#00a0ff');
  t.deepEqual(profile.badges, ['staff', 'hypesquad_brilliance', 'active_developer']);
  t.deepEqual(profile.avatar, fake.images.get(`/avatars/${id}/${AVATAR_HASH}.png`));
  t.deepEqual(profile.banner, fake.images.get(`/banners/${id}/${BANNER_HASH}.png`));
  t.is(profile.avatarDecoration, undefined);
  const cdnPaths = fake.cdnRequests().map((request) => request.path);
  t.true(cdnPaths.includes(`/avatars/${id}/${AVATAR_HASH}.png?size=256`));
  t.true(cdnPaths.includes(`/banners/${id}/${BANNER_HASH}.png?size=1024`));
});

test('the API call carries the bot token and a DiscordBot user agent', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'headers' });
  const { profiles } = profilesFor(fake);
  await profiles.resolveProfile(id);
  const [request] = fake.apiRequestsFor(id);
  t.is(request?.method, 'GET');
  t.is(request?.headers.authorization, `Bot ${TOKEN}`);
  t.regex(String(request?.headers['user-agent']), /^DiscordBot \(https?:\/\/\S+, [\d.]+\)$/);
});

test('a user without avatar, banner or color gets none, and the CDN is not asked', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'plain', global_name: null, avatar: null, banner: null, accent_color: null, public_flags: 0 });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.deepEqual(profile, { userId: id, username: 'plain' });
  t.false(fake.cdnRequests().some((request) => request.path.includes(id)));
});

test('a bot keeps its bot flag and verified_bot badge', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'helper', bot: true, public_flags: 1 << 16 });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.true(profile.bot);
  t.deepEqual(profile.badges, ['verified_bot']);
});

test('an animated avatar is requested as its static .png first frame', async (t) => {
  const id = newUserId();
  const animated = 'a_d5efa99b3eeaa7dd43acca82f5692432';
  addUser(fake, { id, username: 'sparkly', avatar: animated });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.deepEqual(profile.avatar, fake.images.get(`/avatars/${id}/${animated}.png`));
  const requested = fake.cdnRequests().filter((request) => request.path.startsWith(`/avatars/${id}/`));
  t.deepEqual(requested.map((request) => request.path), [`/avatars/${id}/${animated}.png?size=256`]);
});

test('an avatar decoration comes from the decoration presets', async (t) => {
  const id = newUserId();
  const asset = 'a_fed43ab12698df65902ba06727e20c0e';
  addUser(fake, { id, username: 'decorated', avatar: AVATAR_HASH, avatar_decoration_data: { asset, sku_id: '1144058844004233369', expires_at: null } });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.deepEqual(profile.avatarDecoration, fake.images.get(`/avatar-decoration-presets/${asset}.png`));
  t.truthy(profile.avatar);
});

test('an unknown id is an UnknownUserError', async (t) => {
  const id = newUserId();
  const { profiles } = profilesFor(fake);
  const error = await t.throwsAsync(profiles.resolveProfile(id), { instanceOf: UnknownUserError });
  t.is(error?.message, `no Discord user with id ${id}`);
  t.is(fake.apiRequestsFor(id).length, 1);
});

test('an id that is not a snowflake is refused without calling Discord', async (t) => {
  const { profiles } = profilesFor(fake);
  for (const bad of ['../users/@me', '12ab', '', '123456789012345678901', '99999999999999999999']) {
    const error = await t.throwsAsync(profiles.resolveProfile(bad), { instanceOf: UnknownUserError });
    t.false(error?.message.includes('/'));
  }
  t.is(profiles.stats().apiRequests, 0);
});

test('a CDN 404 leaves that image out, keeps the others and logs a warning', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'stale', avatar: AVATAR_HASH, banner: BANNER_HASH });
  fake.images.delete(`/avatars/${id}/${AVATAR_HASH}.png`);
  const { profiles, logs } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.is(profile.avatar, undefined);
  t.truthy(profile.banner);
  t.is(profile.username, 'stale');
  const warning = logs.lines.find((line) => line.level === PINO_WARN && line.field === 'avatar');
  t.truthy(warning);
  t.is(profiles.stats().imageFailures, 1);
});

test('CDN bytes that are not an image are left out', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'garbled', avatar: AVATAR_HASH });
  fake.images.set(`/avatars/${id}/${AVATAR_HASH}.png`, Buffer.from('<html>not an image</html>'));
  const { profiles, logs } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.is(profile.avatar, undefined);
  t.true(logs.lines.some((line) => line.level === PINO_WARN && line.field === 'avatar'));
});

test('a CDN that never answers costs the image, not the card, within the deadline', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'slowcdn', avatar: AVATAR_HASH });
  // The same timeout bounds the user lookup, which must still answer on a loaded machine.
  const requestTimeoutMs = 1500;
  const { profiles } = profilesFor(fake, {
    requestTimeoutMs,
    fetcher: { fetchImage: () => new Promise(() => {}) },
  });
  const started = performance.now();
  const profile = await profiles.resolveProfile(id);
  t.true(performance.now() - started < requestTimeoutMs * 4);
  t.is(profile.avatar, undefined);
  t.is(profile.username, 'slowcdn');
});

test('a malformed decoration asset is dropped, not a reason to refuse the user', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'oddity', avatar_decoration_data: { asset: '../../etc/passwd' } });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(id);
  t.is(profile.avatarDecoration, undefined);
  t.false(fake.cdnRequests().some((request) => request.path.includes('passwd')));
});

test('every badge kind has its documented public_flags bit and badges keep the card order', (t) => {
  t.deepEqual(Object.keys(DISCORD_BADGE_FLAGS).sort(), [...BADGE_KINDS].sort());
  t.deepEqual(Object.keys(DISCORD_BADGE_FLAGS), [...BADGE_KINDS]);
  t.is(DISCORD_BADGE_FLAGS.staff, 1);
  t.is(DISCORD_BADGE_FLAGS.bug_hunter_level_2, 16384);
  t.is(DISCORD_BADGE_FLAGS.verified_bot, 65536);
  t.is(DISCORD_BADGE_FLAGS.verified_developer, 131072);
  t.is(DISCORD_BADGE_FLAGS.certified_moderator, 262144);
  t.is(DISCORD_BADGE_FLAGS.active_developer, 4194304);
  const bits = Object.values(DISCORD_BADGE_FLAGS);
  t.is(new Set(bits).size, bits.length);
});

test('CDN URLs only use sizes Discord serves', (t) => {
  const user: DiscordUser = { id: '1', username: 'u', avatar: 'abc', banner: 'a_def', avatar_decoration_data: { asset: 'fed' } };
  const urls = profileImageUrls(user, 'https://cdn.example/');
  t.is(urls.avatar, 'https://cdn.example/avatars/1/abc.png?size=256');
  t.is(urls.banner, 'https://cdn.example/banners/1/a_def.png?size=1024');
  t.is(urls.avatarDecoration, 'https://cdn.example/avatar-decoration-presets/fed.png');
  for (const url of [urls.avatar, urls.banner]) {
    const size = Number(new URL(url ?? '').searchParams.get('size'));
    t.true((DISCORD_IMAGE_SIZES as readonly number[]).includes(size));
  }
});

test('accent colors are zero-padded #rrggbb', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'dark', accent_color: 0x0000ff });
  const { profiles } = profilesFor(fake);
  t.is((await profiles.resolveProfile(id)).accentColor, '#0000ff');
});

test('without a token the id-only profile is a placeholder display name after the last four digits, with no username', (t) => {
  // No username: the card would otherwise draw the placeholder a second time as "@User 8912".
  t.deepEqual(idOnlyProfile('80351110224678912'), { userId: '80351110224678912', displayName: 'User 8912' });
  t.throws(() => idOnlyProfile('not-an-id'), { instanceOf: UnknownUserError });
});

test('fixture PNGs are real, distinct images', (t) => {
  t.notDeepEqual(solidPng(8, 8, '#ff0000'), solidPng(8, 8, '#00ff00'));
  t.is(solidPng(8, 8, '#ff0000').subarray(1, 4).toString('latin1'), 'PNG');
});
