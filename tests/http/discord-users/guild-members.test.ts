import { profileImageUrls, UnknownUserError } from '@utility-api/discord-users';
import test from 'ava';
import { type FakeDiscord, startFakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addUser, newUserId, profilesFor } from '../../support/discord-users/fixtures.ts';
import { solidPng } from '../../fixtures/images.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

const SERVER_AVATAR = '0123456789abcdef0123456789abcdef';
const OWN_AVATAR = 'fedcba9876543210fedcba9876543210';
const RED = solidPng(8, 8, '#ff0000');
const BLUE = solidPng(8, 8, '#0000ff');

/** A user (red avatar) who is a member of a fresh server with `member` as their member object (none: not a member). */
function memberOf(member: Record<string, unknown> | undefined) {
  const userId = newUserId();
  const guildId = newUserId();
  addUser(fake, { id: userId, username: 'ada', global_name: 'Ada Global', avatar: OWN_AVATAR });
  fake.guilds.set(guildId, new Map(member === undefined ? [] : [[userId, member]]));
  fake.images.set(`/guilds/${guildId}/users/${userId}/avatars/${SERVER_AVATAR}.png`, BLUE);
  return { userId, guildId };
}

test('the server avatar URL is the guild one, animated for a_ hashes when asked; without one the user avatar stays', (t) => {
  const user = { id: '1', username: 'u', avatar: 'abc' };
  t.is(profileImageUrls(user, 'https://cdn.example', { server: { guildId: '9', avatar: 'a_def' } }).avatar, 'https://cdn.example/guilds/9/users/1/avatars/a_def.png?size=256');
  t.is(profileImageUrls(user, 'https://cdn.example', { animated: true, server: { guildId: '9', avatar: 'a_def' } }).avatar, 'https://cdn.example/guilds/9/users/1/avatars/a_def.webp?size=256&animated=true');
  t.is(profileImageUrls(user, 'https://cdn.example', { server: { guildId: '9', avatar: null } }).avatar, 'https://cdn.example/avatars/1/abc.png?size=256');
});

test("with guildId the profile takes the member's server nickname and server avatar", async (t) => {
  const { userId, guildId } = memberOf({ nick: 'Ada on this server', avatar: SERVER_AVATAR });
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(userId, { guildId });
  t.is(profile.displayName, 'Ada on this server');
  t.is(profile.username, 'ada');
  t.deepEqual(profile.avatar, BLUE);
  t.is(fake.memberRequests(guildId, userId).length, 1);
  t.true(fake.cdnRequests().some((request) => request.path.startsWith(`/guilds/${guildId}/users/${userId}/avatars/${SERVER_AVATAR}.png`)));
  // Without guildId the same user is their own self: another entry, not the server's.
  const own = await profiles.resolveProfile(userId);
  t.is(own.displayName, 'Ada Global');
  t.deepEqual(own.avatar, RED);
});

test('a member without a nickname or server avatar falls back to the user name and avatar, each on its own', async (t) => {
  const { profiles } = profilesFor(fake);
  const nickOnly = memberOf({ nick: 'Only a nick', avatar: null });
  const onlyNick = await profiles.resolveProfile(nickOnly.userId, { guildId: nickOnly.guildId });
  t.is(onlyNick.displayName, 'Only a nick');
  t.deepEqual(onlyNick.avatar, RED);
  const avatarOnly = memberOf({ avatar: SERVER_AVATAR });
  const onlyAvatar = await profiles.resolveProfile(avatarOnly.userId, { guildId: avatarOnly.guildId });
  t.is(onlyAvatar.displayName, 'Ada Global');
  t.deepEqual(onlyAvatar.avatar, BLUE);
});

test('not a member, a server the bot is not in, or one it cannot see: the user own profile, no error', async (t) => {
  const { profiles, logs } = profilesFor(fake);
  const notMember = memberOf(undefined);
  const unknownGuild = { userId: notMember.userId, guildId: newUserId() };
  const hidden = { userId: notMember.userId, guildId: newUserId() };
  fake.hiddenGuilds.add(hidden.guildId);
  for (const { userId, guildId } of [notMember, unknownGuild, hidden]) {
    const profile = await profiles.resolveProfile(userId, { guildId });
    t.is(profile.displayName, 'Ada Global');
    t.deepEqual(profile.avatar, RED);
    t.is(fake.memberRequests(guildId, userId).length, 1);
  }
  t.false(logs.lines.some((line) => line.level >= 40), logs.text());
});

test('an unknown user stays a 404 with guildId: the member lookup never hides it', async (t) => {
  const { profiles } = profilesFor(fake);
  const missing = newUserId();
  const guildId = newUserId();
  fake.guilds.set(guildId, new Map());
  await t.throwsAsync(profiles.resolveProfile(missing, { guildId }), { instanceOf: UnknownUserError });
  await t.throwsAsync(profiles.resolveProfile(missing), { instanceOf: UnknownUserError });
});

test('member data is cached like users: a second card asks Discord nothing, a non-member included', async (t) => {
  const { userId, guildId } = memberOf({ nick: 'Cached nick', avatar: SERVER_AVATAR });
  const memory = profilesFor(fake).profiles;
  await memory.resolveProfile(userId, { guildId });
  t.is((await memory.resolveProfile(userId, { guildId })).displayName, 'Cached nick');
  t.is(fake.memberRequests(guildId, userId).length, 1);

  // A non-member is cached too (the fallback), so it does not cost a call per card either.
  const outsider = memberOf(undefined);
  await memory.resolveProfile(outsider.userId, { guildId: outsider.guildId });
  await memory.resolveProfile(outsider.userId, { guildId: outsider.guildId });
  t.is(fake.memberRequests(outsider.guildId, outsider.userId).length, 1);
});
