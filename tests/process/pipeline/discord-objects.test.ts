/**
 * Cards from the Discord objects a bot already holds (`discordUser`, `discordMember`,
 * `discordRoleColors`), through the real gateway process with no bot token: the name and images
 * come from the objects and the fake CDN, and a broken asset never breaks the card.
 */
import test from 'ava';
import { startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { solidPng } from '../../fixtures/images.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { decodePng, isBluish, isReddish } from '../../support/pipeline/png-pixels.ts';

const API_KEY = 'objects-key-0123456789abcdef';
const USER = '802050872383243241';
const GUILD = '802050872383243250';
const AVATAR = '0123456789abcdef0123456789abcdef';
const SERVER_AVATAR = '00112233445566778899aabbccddeeff';
let gateway: GatewayProcess;
let discord: FakeDiscord;

/** The user as Discord's API sends it (snake_case), with a red avatar on the fake CDN. */
const apiUser = { id: USER, username: 'ada.codes', global_name: 'Ada Lovelace', avatar: AVATAR, discriminator: '0', public_flags: 0, clan: null };

test.before(async () => {
  discord = await startFakeDiscord();
  discord.images.set(`/avatars/${USER}/${AVATAR}.png`, solidPng(64, 64, '#ff0000'));
  discord.images.set(`/guilds/${GUILD}/users/${USER}/avatars/${SERVER_AVATAR}.png`, solidPng(64, 64, '#0000ff'));
  gateway = await startGatewayProcess({
    env: {
      API_KEYS: API_KEY,
      // No DISCORD_BOT_TOKEN: everything the card shows comes from the request.
      DISCORD_CDN_BASE_URL: discord.cdnBaseUrl,
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    },
  });
});

test.after.always(async () => {
  await gateway?.stop();
  await discord?.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: API_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function drawn(body: Record<string, unknown>) {
  const response = await post(`/v1/profile-image?userId=${USER}`, { backgroundBrightness: 100, ...body });
  const answer = (await response.json()) as any;
  return { status: response.status, answer, pixels: response.status === 200 ? decodePng(Buffer.from(await (await fetch(answer.url)).arrayBuffer())) : undefined };
}

test.serial('without a bot token, a raw API user object gives the card its display name and avatar from the CDN', async (t) => {
  const { status, answer, pixels } = await drawn({ discordUser: apiUser });
  t.is(status, 200, JSON.stringify(answer));
  t.regex(answer.altText, /Ada Lovelace \(@ada\.codes\)/);
  t.true(pixels!.share(110, 125, 40, 40, isReddish) > 0.9, 'the red avatar');
  // Echoed as the fields read, unknown ones dropped.
  t.deepEqual(answer.options.discordUser, { id: USER, username: 'ada.codes', global_name: 'Ada Lovelace', avatar: AVATAR, public_flags: 0 });
});

test.serial("a discord.js member with its user: the nickname, then the per-server avatar over the user's own", async (t) => {
  const discordJsUser = { id: USER, username: 'ada.codes', globalName: 'Ada Lovelace', avatar: AVATAR, flags: 0, bot: false, avatarURL: 'https://cdn.discordapp.com/x.webp', displayAvatarURL: 'https://cdn.discordapp.com/x.webp' };
  const member = { guildId: GUILD, userId: USER, nickname: 'Countess', avatar: SERVER_AVATAR, displayName: 'Countess', roles: [GUILD], joinedTimestamp: 1_700_000_000_000 };
  const { status, answer, pixels } = await drawn({ discordUser: discordJsUser, discordMember: member });
  t.is(status, 200, JSON.stringify(answer));
  t.regex(answer.altText, /Countess \(@ada\.codes\)/);
  t.true(pixels!.share(110, 125, 40, 40, isBluish) > 0.9, 'the blue server avatar, not the red user one');
  // Without a nickname, the global name; without a global name, the username.
  t.regex((await drawn({ discordUser: discordJsUser, discordMember: { ...member, nickname: null } })).answer.altText, /Ada Lovelace/);
  t.regex((await drawn({ discordUser: { ...apiUser, global_name: null } })).answer.altText, /^Profile card for ada\.codes/);
  // The API's member shape: its user nested, its server from guildId.
  const nested = await drawn({ guildId: GUILD, discordMember: { nick: 'Countess', avatar: SERVER_AVATAR, user: apiUser, roles: [] } });
  t.is(nested.status, 200, JSON.stringify(nested.answer));
  t.regex(nested.answer.altText, /Countess \(@ada\.codes\)/);
  t.true(nested.pixels!.share(110, 125, 40, 40, isBluish) > 0.9, 'the server avatar with guildId naming the server');
  // Explicit fields still win over the objects.
  t.regex((await drawn({ discordUser: apiUser, discordMember: member, customUsername: 'Chosen' })).answer.altText, /^Profile card for Chosen/);
});

test.serial('objects about another user or server are a 400 naming the field, on the POST and in a batch item alike', async (t) => {
  const other = { ...apiUser, id: '802050872383243242' };
  const single = await post(`/v1/profile-image?userId=${USER}`, { discordUser: other });
  const body = (await single.json()) as any;
  t.is(single.status, 400);
  t.is(body.error.code, 'invalid_request');
  t.deepEqual(body.error.details.map((detail: any) => detail.field), ['discordUser.id']);
  const server = await post(`/v1/profile-image?userId=${USER}`, { guildId: GUILD, discordMember: { guild_id: '802050872383243251', userId: USER } });
  t.deepEqual(((await server.json()) as any).error.details.map((detail: any) => detail.field), ['discordMember.guild_id']);
  const batch = await post('/v1/profile-image/batch', { cards: [{ userId: USER, discordUser: apiUser, customTag: 'batch ok' }, { userId: USER, discordUser: other }] });
  const results = ((await batch.json()) as any).results;
  t.is(batch.status, 200);
  t.regex(results[0].altText, /Ada Lovelace/);
  t.deepEqual(results[1].error.details.map((detail: any) => detail.field), ['cards.1.discordUser.id']);
});

test.serial('an asset that is missing, fails or hangs leaves the card drawn without it', async (t) => {
  const broken = ['1111111111111111111111111111111a', '2222222222222222222222222222222b', '3333333333333333333333333333333c'];
  discord.cdnScripts.set(`/avatars/${USER}/${broken[1]}.png`, (response) => {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('oops');
  });
  // Never answers: the image deadline gives up on it.
  discord.cdnScripts.set(`/avatars/${USER}/${broken[2]}.png`, () => undefined);
  for (const avatar of broken) {
    const { status, answer, pixels } = await drawn({ discordUser: { ...apiUser, avatar } });
    t.is(status, 200, JSON.stringify(answer));
    t.regex(answer.altText, /Ada Lovelace/);
    t.true(pixels!.share(110, 125, 40, 40, isReddish) < 0.1, 'no red avatar: the default one');
  }
});

test.serial("a leaderboard row's discordUser draws its avatar from the CDN; with avatarUrl or another userId it is a 400", async (t) => {
  // A hash of its own: the renderer's image cache keeps the avatar the other cards fetched.
  const boardAvatar = 'abababababababababababababababab';
  discord.images.set(`/avatars/${USER}/${boardAvatar}.png`, solidPng(64, 64, '#ff0000'));
  const before = discord.cdnRequests().length;
  const rows = [
    { rank: 1, name: 'Ada', discordUser: { ...apiUser, avatar: boardAvatar }, score: 1200 },
    { rank: 2, name: 'Bob', discordUser: { ...apiUser, id: '802050872383243249', avatar: 'ffffffffffffffffffffffffffffffff' }, score: 900 },
  ];
  const response = await post('/v1/leaderboard-image', { rows });
  const body = (await response.json()) as any;
  t.is(response.status, 200, JSON.stringify(body));
  const asked = discord.cdnRequests().slice(before).map((request) => request.path);
  t.true(asked.some((path) => path.startsWith(`/avatars/${USER}/${boardAvatar}.png`)), asked.join(' '));
  // The second avatar is a CDN 404: the default avatar, still a board.
  t.true(asked.some((path) => path.startsWith('/avatars/802050872383243249/')));
  const both = await post('/v1/leaderboard-image', { rows: [{ rank: 1, name: 'Ada', discordUser: apiUser, avatarUrl: 'https://example.com/a.png' }] });
  t.is(both.status, 400);
  t.deepEqual(((await both.json()) as any).error.details.map((detail: any) => detail.field), ['rows.0.discordUser']);
  const other = await post('/v1/leaderboard-image', { rows: [{ rank: 1, name: 'Ada', discordUser: apiUser, userId: '802050872383243242' }] });
  t.deepEqual(((await other.json()) as any).error.details.map((detail: any) => detail.field), ['rows.0.discordUser.id']);
});
