/**
 * The discord.js helper sends what the API reads of a member (its own objects, not a name and
 * avatar copied by hand), and its Components V2 message is one Discord accepts: checked against
 * discord-api-types' types (re-exported by discord.js) at compile time and against discord.js's
 * own component builders, which validate, at run time.
 */
import test from 'ava';
import {
  type APIMessageTopLevelComponent, type APIUser, ContainerBuilder, NameplatePalette, type GuildMember, MessageFlags, MessagePayload, type RESTPostAPIChannelMessageJSONBody, type User,
} from 'discord.js';
import { cardComponents, createClient, IS_COMPONENTS_V2 } from '@utility-api/client';
import { cardAttachment, cardMessage, discordObjects, type CardMessage } from '@utility-api/client/discord.js';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { apiRole, fakeMember, GUILD_ID } from '../../support/sdk/discord-js-objects.ts';

const USER_ID = '302050872383242240';
/** Discord's holographic role style (docs: role colors). */
const HOLOGRAPHIC = { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 };
const API_USER: APIUser & { avatar_decoration_data: { asset: string; sku_id: string }; primary_guild: { badge: string } } = {
  id: USER_ID,
  username: 'ada.codes',
  discriminator: '0',
  global_name: 'Ada Lovelace',
  avatar: 'a_1f2e3d4c5b6a79881f2e3d4c5b6a7988',
  banner: null,
  accent_color: 16711680,
  public_flags: 64,
  avatar_decoration_data: { asset: 'a_0123456789abcdef0123456789abcdef', sku_id: '1144058844004233369' },
  collectibles: { nameplate: { asset: 'nameplates/nameplates/twilight/', label: 'Twilight', palette: NameplatePalette.Cobalt, sku_id: '1349849614353829990' } },
  primary_guild: { identity_guild_id: GUILD_ID, identity_enabled: true, tag: 'ADA', badge: '0123456789abcdef0123456789abcdef' },
};

let gateway: TestGateway;

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RENDER_TIMEOUT_MS: '120000' } });
});

test.after.always(async () => {
  await gateway?.close();
});

function member(): GuildMember {
  const made = fakeMember({
    user: API_USER,
    member: { nick: 'Countess of Lovelace', avatar: '9f8e7d6c5b4a39281f2e3d4c5b6a7988' },
    // The higher coloured role is the one discord.js's member.roles.color names.
    roles: [apiRole('700000000000000001', 1, { primary_color: 0x3498db, secondary_color: null, tertiary_color: null }), apiRole('700000000000000002', 2, HOLOGRAPHIC)],
  });
  made.client.destroy();
  return made.member;
}

test("discordObjects: the member's user and member as toJSON() spells them, only the fields the API reads, and its top role's colours", (t) => {
  const objects = discordObjects(member());
  t.deepEqual(objects.discordUser, {
    id: USER_ID,
    username: 'ada.codes',
    globalName: 'Ada Lovelace',
    avatar: API_USER.avatar,
    accentColor: 16711680,
    flags: 64,
    bot: false,
    avatarDecorationData: { asset: API_USER.avatar_decoration_data.asset, skuId: API_USER.avatar_decoration_data.sku_id },
    collectibles: { nameplate: { asset: 'nameplates/nameplates/twilight/', label: 'Twilight', palette: 'cobalt', skuId: '1349849614353829990' } },
    primaryGuild: { identityGuildId: GUILD_ID, identityEnabled: true, tag: 'ADA', badge: API_USER.primary_guild.badge },
  });
  t.deepEqual(objects.discordMember, { guildId: GUILD_ID, userId: USER_ID, nickname: 'Countess of Lovelace', avatar: '9f8e7d6c5b4a39281f2e3d4c5b6a7988' });
  t.deepEqual(objects.discordRoleColors, { primaryColor: HOLOGRAPHIC.primary_color, secondaryColor: HOLOGRAPHIC.secondary_color, tertiaryColor: HOLOGRAPHIC.tertiary_color });
});

test('discordObjects: a member without a coloured role sends no role colours; a user sends only itself', (t) => {
  const { client, member: plain } = fakeMember({ user: { id: USER_ID, username: 'ada', discriminator: '0', global_name: null, avatar: null } });
  client.destroy();
  t.deepEqual(discordObjects(plain), { discordUser: { id: USER_ID, username: 'ada', bot: false }, discordMember: { guildId: GUILD_ID, userId: USER_ID } });
  t.deepEqual(discordObjects(plain.user satisfies User), { discordUser: { id: USER_ID, username: 'ada', bot: false } });
});

test('discordObjects: an interaction sends its cached member, its raw API member with the guild id, or its user in a DM', (t) => {
  const cached = member();
  t.deepEqual(discordObjects({ member: cached, user: cached.user }), discordObjects(cached));
  const raw = { nick: 'Ada in the server', avatar: null, roles: ['1'], joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, permissions: '0', user: API_USER };
  const fromRaw = discordObjects({ member: raw, user: cached.user, guildId: GUILD_ID } as never);
  t.deepEqual(fromRaw.discordMember, { nick: 'Ada in the server', guild_id: GUILD_ID });
  t.deepEqual(fromRaw.discordUser, discordObjects(cached).discordUser);
  t.deepEqual(discordObjects({ member: null, user: cached.user }), { discordUser: discordObjects(cached).discordUser });
});

test('cardComponents: a container of the accent colour with the card in a media gallery, valid for discord-api-types and discord.js', (t) => {
  const message = cardComponents({ fileName: 'card.webp', altText: 'Welcome card for Ada Lovelace.', accentColor: 0xe67e22, text: 'Hi <@302050872383242240>!' });
  // Compile time: the payload is a message body as discord-api-types describes it.
  const body: RESTPostAPIChannelMessageJSONBody = { flags: message.flags, components: message.components satisfies APIMessageTopLevelComponent[] };
  t.is(body.flags, MessageFlags.IsComponentsV2);
  t.is(IS_COMPONENTS_V2, 1 << 15);
  // Run time: discord.js's builders validate every component (they refuse, for one, an empty gallery).
  t.deepEqual(new ContainerBuilder(message.components[0]).toJSON(), {
    type: 17,
    accent_color: 0xe67e22,
    components: [
      { type: 10, content: 'Hi <@302050872383242240>!' },
      { type: 12, items: [{ media: { url: 'attachment://card.webp' }, description: 'Welcome card for Ada Lovelace.' }] },
    ],
  });
  t.throws(() => new ContainerBuilder({ ...message.components[0], components: [{ type: 12, items: [] }] }).toJSON());
  // Discord's longest description (the API's longest alt text) passes; no text, no text display; no accent, no tint.
  const longest = cardComponents({ fileName: 'card.png', altText: 'x'.repeat(1024) });
  t.deepEqual(new ContainerBuilder(longest.components[0]).toJSON(), { type: 17, components: [{ type: 12, items: [{ media: { url: 'attachment://card.png' }, description: 'x'.repeat(1024) }] }] });
  t.throws(() => cardComponents({ fileName: 'card.png', altText: 'x', text: 'y'.repeat(4000) }), { instanceOf: RangeError });
});

test("cardMessage: the member's card, tinted with the accent the API answered, with its attachment, as discord.js sends it", async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const who = member();
  const message: CardMessage = await cardMessage(api, who, { layout: 'welcome' }, { text: `Hi ${who.toString()}!` });
  const image = await api.profileImageBytes(USER_ID, { layout: 'welcome', ...discordObjects(who) });
  t.is(message.components[0].accent_color, image.accentColor, 'the container is tinted with X-Card-Accent');
  t.true(image.accentColor !== undefined && image.accentColor >= 0 && image.accentColor <= 0xffffff);
  // What discord.js would POST: the flag, the components as given, and the attachment the gallery names, with the alt text.
  const payload = await MessagePayload.create(who, message).resolveBody().resolveFiles();
  const body = payload.body as RESTPostAPIChannelMessageJSONBody & { attachments: { id: string; filename?: string; description?: string }[] };
  t.is(body.flags, MessageFlags.IsComponentsV2);
  t.is(body.content, undefined, 'a Components V2 message has no content');
  const gallery = (body.components![0] as { components: { type: number; items?: { media: { url: string }; description?: string }[] }[] }).components.find((component) => component.type === 12)!;
  t.is(gallery.items![0]!.media.url, `attachment://${payload.files![0]!.name}`);
  t.is(gallery.items![0]!.description, image.altText);
  t.is(body.attachments[0]!.description, image.altText);
  t.true(image.altText.includes('Countess of Lovelace'), `the member's nickname is drawn: ${image.altText}`);
  t.deepEqual([...(payload.files![0]!.data as Buffer).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
});

test("cardAttachment: the member's own name unless the caller says otherwise (an explicit option wins)", async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const own = await cardAttachment(api, member(), { layout: 'welcome' });
  t.regex(own.description ?? '', /Countess of Lovelace/);
  const told = await cardAttachment(api, member(), { layout: 'welcome', customUsername: 'Ada' });
  t.regex(told.description ?? '', /card for Ada\b/);
  t.notRegex(told.description ?? '', /Countess/);
});
