/**
 * With a bot token, a bare user id and server id give the card the same Discord extras the
 * request's own objects would: nameplate and server tag from the user, the member's decoration,
 * banner and nameplate over the user's, and the colours of the member's top coloured role read
 * from the server's roles. Against the fake Discord API and CDN.
 */
import test from 'ava';
import { solidPng } from '../../fixtures/images.ts';
import { type FakeDiscord, startFakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addUser, newUserId, profilesFor } from '../../support/discord-users/fixtures.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

const HASH = '0123456789abcdef0123456789abcdef';
const PLATE = 'nameplates/nameplates_v3/bonsai/';
const MEMBER_PLATE = 'nameplates/nameplates_v3/koi/';

function member(fields: Record<string, unknown>, roles: Record<string, unknown>[]) {
  const userId = newUserId();
  const guildId = newUserId();
  const tagGuild = newUserId();
  addUser(fake, {
    id: userId,
    username: 'ada',
    global_name: 'Ada Global',
    collectibles: { nameplate: { asset: PLATE, palette: 'sky', label: 'X', sku_id: '1' } },
    primary_guild: { identity_guild_id: tagGuild, identity_enabled: true, tag: 'ADA', badge: HASH },
  });
  fake.images.set(`/assets/collectibles/${PLATE}static.png`, solidPng(60, 12, '#00ff00'));
  fake.images.set(`/assets/collectibles/${MEMBER_PLATE}static.png`, solidPng(60, 12, '#ff00ff'));
  fake.images.set(`/guild-tag-badges/${tagGuild}/${HASH}.png`, solidPng(8, 8, '#ffff00'));
  fake.images.set(`/avatar-decoration-presets/a_${HASH}.png`, solidPng(12, 12, '#00ffff'));
  fake.images.set(`/guilds/${guildId}/users/${userId}/banners/${HASH}.png`, solidPng(16, 8, '#123456'));
  fake.guilds.set(guildId, new Map([[userId, fields]]));
  fake.guildRoles.set(guildId, roles);
  return { userId, guildId };
}

test('the user object gives the nameplate and the displayed server tag with its badge', async (t) => {
  const { userId } = member({}, []);
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(userId);
  t.deepEqual(profile.nameplate, { colors: ['#0080b7', '#56ccff'], image: solidPng(60, 12, '#00ff00') });
  t.deepEqual(profile.serverTag, { tag: 'ADA', badge: solidPng(8, 8, '#ffff00') });
});

test("the member's decoration, banner and nameplate win, and its top coloured role gives the name's colours", async (t) => {
  const roles = [
    { id: '1000000000000000001', position: 1, color: 0xff0000, colors: { primary_color: 0xff0000, secondary_color: null, tertiary_color: null } },
    { id: '1000000000000000002', position: 5, color: 11127295, colors: { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 } },
    // Higher, but without colour: a name is coloured by the highest role that has one.
    { id: '1000000000000000003', position: 9, color: 0, colors: { primary_color: 0, secondary_color: null, tertiary_color: null } },
    // Highest and coloured, but the member does not hold it.
    { id: '1000000000000000004', position: 20, color: 0x00ff00 },
    { id: 'not-a-role', position: 99 },
  ];
  const { userId, guildId } = member(
    { nick: 'Countess', banner: HASH, avatar_decoration_data: { asset: `a_${HASH}`, sku_id: '2' }, collectibles: { nameplate: { asset: MEMBER_PLATE, palette: 'crimson' } }, roles: ['1000000000000000001', '1000000000000000002', '1000000000000000003'] },
    roles,
  );
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(userId, { guildId });
  t.is(profile.displayName, 'Countess');
  t.deepEqual(profile.avatarDecoration, solidPng(12, 12, '#00ffff'));
  t.deepEqual(profile.banner, solidPng(16, 8, '#123456'));
  t.deepEqual(profile.nameplate, { colors: ['#900007', '#e7040f'], image: solidPng(60, 12, '#ff00ff') });
  t.deepEqual(profile.roleColors, { colors: ['#a9c9ff', '#ffbbec', '#ffc3a0'], holographic: true });
  // The member (roles included) is cached: a second card asks Discord nothing.
  const before = fake.memberRequests(guildId, userId).length;
  t.deepEqual((await profiles.resolveProfile(userId, { guildId })).roleColors, profile.roleColors);
  t.is(fake.memberRequests(guildId, userId).length, before);
});

test("roles that cannot be read leave the name's default colour, never an error", async (t) => {
  const { userId, guildId } = member({ roles: ['1000000000000000001'] }, []);
  fake.guildRoles.delete(guildId);
  const { profiles } = profilesFor(fake);
  const profile = await profiles.resolveProfile(userId, { guildId });
  t.is(profile.roleColors, undefined);
  t.is(profile.displayName, 'Ada Global');
});

test('objects a request brings are drawn as given, with no call to Discord for them', async (t) => {
  const { userId, guildId } = member({ nick: 'From Discord' }, []);
  const { profiles } = profilesFor(fake);
  const before = fake.apiRequestsFor(userId).length;
  const profile = await profiles.resolveProfile(userId, { guildId, objects: { user: { id: userId, username: 'given', global_name: 'Given Name' }, member: { nick: 'Given Nick' }, roleColors: { primary_color: 0xff0000 } } });
  t.like(profile, { displayName: 'Given Nick', username: 'given', roleColors: { colors: ['#ff0000'], holographic: false } });
  t.is(fake.apiRequestsFor(userId).length, before);
  t.is(fake.memberRequests(guildId, userId).length, 0);
});
