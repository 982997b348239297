import { cardOptionsSchema, DISCORD_OBJECT_LIMITS, discordIdMismatches, discordMemberSchema, discordRoleColorsSchema, discordUserSchema, renderJobPayloadSchema } from '@utility-api/render-jobs';
import test from 'ava';

const USER = '302050872383242240';
const GUILD = '613425648685547541';
const HASH = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';

/** A user as Discord's API sends it, with fields the card does not read. */
const apiUser = {
  id: USER,
  username: 'ada',
  global_name: 'Ada Lovelace',
  discriminator: '0',
  avatar: HASH,
  banner: null,
  accent_color: 0x336699,
  public_flags: 1 << 22,
  avatar_decoration_data: { asset: `a_${HASH}`, sku_id: '1144058522808614923', expires_at: null },
  collectibles: { nameplate: { asset: 'nameplates/nameplates_v3/bonsai/', palette: 'forest', label: 'COLLECTIBLES_NAMEPLATES_BONSAI_A11Y', sku_id: '1349849614353829990', expires_at: null } },
  primary_guild: { identity_guild_id: GUILD, identity_enabled: true, tag: 'ADA', badge: HASH },
  display_name_styles: { font_id: 11, effect_id: 2, colors: [16711680, 255] },
  clan: { tag: 'OLD' },
};

/** The same user as discord.js's `User#toJSON()` gives it. */
const discordJsUser = {
  id: USER,
  bot: false,
  system: false,
  flags: 1 << 22,
  username: 'ada',
  globalName: 'Ada Lovelace',
  discriminator: '0',
  avatar: HASH,
  banner: null,
  accentColor: 0x336699,
  avatarDecorationData: { asset: `a_${HASH}`, skuId: '1144058522808614923' },
  collectibles: { nameplate: { asset: 'nameplates/nameplates_v3/bonsai/', palette: 'forest', label: 'COLLECTIBLES_NAMEPLATES_BONSAI_A11Y', skuId: '1349849614353829990' } },
  primaryGuild: { identityGuildId: GUILD, identityEnabled: true, tag: 'ADA', badge: HASH },
  displayNameStyles: { fontId: 11, effectId: 2, colors: [16711680, 255] },
  createdTimestamp: 1_487_000_000_000,
  defaultAvatarURL: 'https://cdn.discordapp.com/embed/avatars/0.png',
  tag: 'ada',
  avatarURL: `https://cdn.discordapp.com/avatars/${USER}/${HASH}.webp`,
  displayAvatarURL: `https://cdn.discordapp.com/avatars/${USER}/${HASH}.webp`,
  bannerURL: null,
};

const NORMAL_USER = {
  id: USER,
  username: 'ada',
  global_name: 'Ada Lovelace',
  bot: undefined,
  avatar: HASH,
  banner: null,
  accent_color: 0x336699,
  public_flags: 1 << 22,
  avatar_decoration_data: { asset: `a_${HASH}` },
  collectibles: { nameplate: { asset: 'nameplates/nameplates_v3/bonsai/', palette: 'forest' } },
  primary_guild: { identity_guild_id: GUILD, identity_enabled: true, tag: 'ADA', badge: HASH },
  display_name_styles: { font_id: 11, effect_id: 2, colors: [16711680, 255] },
};
const withoutUndefined = (value: object) => JSON.parse(JSON.stringify(value)) as unknown;

test('the API shape and the discord.js shape of a user come out as one shape: the fields read, unknown ones dropped', (t) => {
  const fromApi = discordUserSchema.parse(apiUser);
  const fromDiscordJs = discordUserSchema.parse(discordJsUser);
  t.deepEqual(fromApi, withoutUndefined(NORMAL_USER));
  // discord.js says `bot: false` where the API leaves it out: the same card either way.
  t.deepEqual({ ...fromDiscordJs, bot: undefined }, { ...fromApi, bot: undefined });
  t.false('clan' in fromApi);
  t.false('avatarURL' in fromDiscordJs);
  // The internal shape parses again to itself: a renderer re-validating a job sees the same object.
  t.deepEqual(discordUserSchema.parse(fromApi), fromApi);
});

test("discord.js's toJSON() of a user from a gateway event (no public_flags, so flags: null) is read as no flags", (t) => {
  const parsed = discordUserSchema.parse({ id: USER, username: 'ada', globalName: null, avatar: null, flags: null, bot: false, accentColor: undefined, banner: undefined });
  t.deepEqual(withoutUndefined(parsed), { id: USER, username: 'ada', global_name: null, bot: false, avatar: null });
});

test('a member in both shapes: nick or nickname, guild id, per-server avatar, nested user', (t) => {
  const api = discordMemberSchema.parse({ guild_id: GUILD, nick: 'Countess', avatar: `a_${HASH}`, roles: ['1'], joined_at: '2024-01-01T00:00:00Z', user: apiUser });
  t.like(api, { guild_id: GUILD, user_id: USER, nick: 'Countess', avatar: `a_${HASH}` });
  t.deepEqual(api.user, discordUserSchema.parse(apiUser));
  const discordJs = discordMemberSchema.parse({ guildId: GUILD, userId: USER, nickname: 'Countess', avatar: HASH, displayName: 'Countess', roles: [GUILD], joinedTimestamp: 1, premiumSinceTimestamp: null, avatarURL: null });
  t.deepEqual(discordJs, { guild_id: GUILD, user_id: USER, nick: 'Countess', avatar: HASH });
  t.deepEqual(discordMemberSchema.parse(discordJs), discordJs);
});

test('role colours in both shapes; secondary and tertiary nullable; primary required', (t) => {
  t.deepEqual(discordRoleColorsSchema.parse({ primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 }), { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 });
  t.deepEqual(discordRoleColorsSchema.parse({ primaryColor: 0xff0000, secondaryColor: null, tertiaryColor: null }), { primary_color: 0xff0000, secondary_color: null, tertiary_color: null });
  t.false(discordRoleColorsSchema.safeParse({ secondary_color: 1 }).success);
  t.false(discordRoleColorsSchema.safeParse({ primary_color: 0x1000000 }).success);
  t.false(discordRoleColorsSchema.safeParse({ primary_color: -1 }).success);
  t.false(discordRoleColorsSchema.safeParse({ primary_color: 1.5 }).success);
});

/** The path of each issue of a refused body, as the gateway names fields. */
function refusedPaths(body: unknown): string[] {
  const parsed = cardOptionsSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
}

test('every read field is bounded: a bad one is refused and named', (t) => {
  const long = 'x'.repeat(DISCORD_OBJECT_LIMITS.maxNameLength + 1);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, global_name: long } }), ['discordUser.global_name']);
  t.deepEqual(refusedPaths({ discordUser: { ...discordJsUser, globalName: long } }), ['discordUser.globalName']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, username: '' } }), ['discordUser.username']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, primary_guild: { ...apiUser.primary_guild, tag: 'TOOLONG' } } }), ['discordUser.primary_guild.tag']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, avatar: '../../etc/passwd' } }), ['discordUser.avatar']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, avatar: 'f'.repeat(65) } }), ['discordUser.avatar']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, collectibles: { nameplate: { asset: 'nameplates/../../x/' } } } }), ['discordUser.collectibles.nameplate.asset']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, collectibles: { nameplate: { asset: `${'a/'.repeat(81)}` } } } }), ['discordUser.collectibles.nameplate.asset']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, accent_color: 0x1000000 } }), ['discordUser.accent_color']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, display_name_styles: { font_id: 1, effect_id: 1, colors: [1, 2, 3, 4, 5] } } }), ['discordUser.display_name_styles.colors']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, id: '12' } }), ['discordUser.id']);
  t.deepEqual(refusedPaths({ discordUser: { ...apiUser, primary_guild: { ...apiUser.primary_guild, identity_guild_id: 'x' } } }), ['discordUser.primary_guild.identity_guild_id']);
  t.deepEqual(refusedPaths({ discordUser: 'ada' }), ['discordUser']);
  t.deepEqual(refusedPaths({ discordMember: { guildId: GUILD, userId: USER, user: { ...apiUser, id: '302050872383242241' } } }), ['discordMember.userId']);
  // Unknown fields are ignored but not free: the whole object is bounded.
  const padded = { ...apiUser, padding: 'x'.repeat(DISCORD_OBJECT_LIMITS.maxObjectBytes) };
  t.deepEqual(refusedPaths({ discordUser: padded }), ['discordUser']);
  t.deepEqual(refusedPaths({ discordMember: { guild_id: GUILD, roles: Array.from({ length: 250 }, () => GUILD) } }), []);
});

test('an unknown palette name is kept as a name (the card draws no palette for it); a malformed one is refused', (t) => {
  t.deepEqual(discordUserSchema.parse({ id: USER, collectibles: { nameplate: { palette: 'future_palette' } } }).collectibles, { nameplate: { palette: 'future_palette' } });
  t.deepEqual(refusedPaths({ discordUser: { id: USER, collectibles: { nameplate: { palette: 'Red; drop' } } } }), ['discordUser.collectibles.nameplate.palette']);
});

test('objects about another user or server than the card are named mismatches; the job contract refuses them too', (t) => {
  const options = cardOptionsSchema.parse({ guildId: GUILD, discordUser: apiUser, discordMember: { guild_id: '613425648685547542', userId: '302050872383242241' } });
  t.deepEqual(
    discordIdMismatches(USER, options).map(({ path }) => path.join('.')),
    ['discordMember.userId', 'discordMember.guild_id'],
  );
  t.deepEqual(discordIdMismatches('302050872383242241', { discordUser: options.discordUser }).map(({ path }) => path.join('.')), ['discordUser.id']);
  t.deepEqual(discordIdMismatches(USER, cardOptionsSchema.parse({ discordUser: apiUser, discordMember: { guildId: GUILD, userId: USER } })), []);
  const job = renderJobPayloadSchema.safeParse({ userId: '302050872383242241', options: { discordUser: apiUser } });
  t.false(job.success);
  t.deepEqual(job.error?.issues.map((issue) => issue.path.join('.')).filter((path) => path.startsWith('options.')), ['options.discordUser.id']);
});
