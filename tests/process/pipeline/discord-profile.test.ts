import test from 'ava';
import { sendJson, startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addUser } from '../../support/discord-users/fixtures.ts';
import { animatedImage, solidPng } from '../../fixtures/images.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { webpFrames } from '../../support/pipeline/profile-image-suite.ts';
import { decodePng, isBluish, isReddish } from '../../support/pipeline/png-pixels.ts';

const API_KEY = 'pipeline-key-0123456789abcdef';
const TOKEN = 'fake-bot-token.pipeline';
const USER = '802050872383242241';
const MISSING = '802050872383242242';
const BROKEN = '802050872383242243';
/** A server the bot is in, where USER has a nickname and a (blue) server avatar. */
const GUILD = '802050872383242250';
const SERVER_AVATAR = '00112233445566778899aabbccddeeff';
/** The animated avatar's frames as the fake CDN serves its moving variant (`.webp?animated=true`). */
const AVATAR_COLORS = ['#ff0000', '#ffff00', '#ff00ff'];
const AVATAR_DELAYS_MS = [100, 300, 200];
let gateway: GatewayProcess;
let discord: FakeDiscord;
let url: string;

test.before(async () => {
  discord = await startFakeDiscord();
  addUser(discord, {
    id: USER,
    username: 'realuser',
    global_name: 'Real User',
    avatar: 'a_0123456789abcdef0123456789abcdef',
    banner: 'fedcba9876543210fedcba9876543210',
    accent_color: 0x336699,
    public_flags: (1 << 22) | (1 << 9),
  });
  discord.images.set(`/avatars/${USER}/a_0123456789abcdef0123456789abcdef.webp`, await animatedImage('webp', { width: 256, height: 256 }, AVATAR_COLORS, AVATAR_DELAYS_MS));
  discord.guilds.set(GUILD, new Map([[USER, { nick: 'Server Nick', avatar: SERVER_AVATAR }]]));
  discord.images.set(`/guilds/${GUILD}/users/${USER}/avatars/${SERVER_AVATAR}.png`, solidPng(8, 8, '#0000ff'));
  discord.script(BROKEN, (response) => sendJson(response, 500, { message: 'oops' }));
  gateway = await startGatewayProcess({
    env: {
      API_KEYS: API_KEY,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_BASE_URL: discord.apiBaseUrl,
      DISCORD_CDN_BASE_URL: discord.cdnBaseUrl,
      // The fake CDN lives on loopback; production CDNs are public and need no allow-list.
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    },
  });
  url = gateway.url;
});

test.after.always(async () => {
  await gateway?.stop();
  await discord?.close();
});

const card = (userId: string, body: unknown = {}) =>
  fetch(`${url}/v1/profile-image?userId=${userId}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test.serial('with a bot token the card shows the real avatar and banner from Discord', async (t) => {
  const response = await card(USER, { backgroundBrightness: 100 });
  const body = (await response.json()) as any;
  t.is(response.status, 200, JSON.stringify(body));
  const [apiCall] = discord.apiRequestsFor(USER);
  t.is(apiCall?.headers.authorization, `Bot ${TOKEN}`);
  const cdnPaths = discord.cdnRequests().map((request) => request.path);
  // The animated avatar is asked for as a static PNG (its first frame).
  t.true(cdnPaths.some((path) => path.startsWith(`/avatars/${USER}/a_0123456789abcdef0123456789abcdef.png?size=`)), cdnPaths.join(' '));
  t.true(cdnPaths.some((path) => path.startsWith(`/banners/${USER}/fedcba9876543210fedcba9876543210.png?size=`)));
  const pixels = decodePng(Buffer.from(await (await fetch(body.url)).arrayBuffer()));
  // The fixtures serve a red avatar and a green banner.
  t.true(pixels.share(110, 125, 40, 40, isReddish) > 0.9, 'red avatar in the avatar circle');
  // Read between the border and the panel (x 5 to 16), where only the brightness veil lies over the
  // banner: the panel darkens as much as the text needs. Green: clearly more green than anything else.
  t.true(pixels.share(7, 140, 7, 20, (pixel) => pixel.g > 90 && pixel.g > pixel.r * 2 && pixel.g > pixel.b * 2) > 0.9, 'green banner as background');
});

test.serial("guildId: the card shows the member's server nickname and server avatar; customUsername and customAvatar still win", async (t) => {
  const response = await card(USER, { guildId: GUILD, backgroundBrightness: 100 });
  const body = (await response.json()) as any;
  t.is(response.status, 200, JSON.stringify(body));
  t.regex(body.altText, /Server Nick/);
  t.notRegex(body.altText, /Real User/);
  t.is(discord.memberRequests(GUILD, USER)[0]?.headers.authorization, `Bot ${TOKEN}`);
  t.true(discord.cdnRequests().some((request) => request.path.startsWith(`/guilds/${GUILD}/users/${USER}/avatars/${SERVER_AVATAR}.png?size=`)));
  const pixels = decodePng(Buffer.from(await (await fetch(body.url)).arrayBuffer()));
  t.true(pixels.share(110, 125, 40, 40, isBluish) > 0.9, 'the blue server avatar, not the red user one');
  const named = (await (await card(USER, { guildId: GUILD, customUsername: 'Chosen' })).json()) as any;
  t.regex(named.altText, /Chosen/);
  t.notRegex(named.altText, /Server Nick/);
  // customAvatar beats the server avatar (served here from the fake CDN's loopback origin).
  discord.images.set('/custom/green.png', solidPng(8, 8, '#00ff00'));
  const custom = (await (await card(USER, { guildId: GUILD, customAvatar: `${discord.cdnBaseUrl}/custom/green.png`, backgroundBrightness: 100 })).json()) as any;
  t.regex(custom.altText, /Server Nick/);
  const customPixels = decodePng(Buffer.from(await (await fetch(custom.url)).arrayBuffer()));
  t.true(customPixels.share(110, 125, 40, 40, (pixel) => pixel.g > 200 && pixel.r < 60 && pixel.b < 60) > 0.9, 'the green custom avatar');
});

test.serial("guildId of a server the bot is not in, or of one where the user is no member, falls back to the user's own name and avatar", async (t) => {
  const elsewhere = '802050872383242260';
  discord.guilds.set(elsewhere, new Map());
  for (const guildId of ['802050872383242259', elsewhere]) {
    const response = await card(USER, { guildId, backgroundBrightness: 100, customTag: `fallback ${guildId}` });
    const body = (await response.json()) as any;
    t.is(response.status, 200, JSON.stringify(body));
    t.regex(body.altText, /Real User/);
    t.is(discord.memberRequests(guildId, USER).length, 1);
    const pixels = decodePng(Buffer.from(await (await fetch(body.url)).arrayBuffer()));
    t.true(pixels.share(110, 125, 40, 40, isReddish) > 0.9, 'the red user avatar');
  }
  // An unknown user is still unknown with a server given.
  t.is((await card(MISSING, { guildId: GUILD })).status, 404);
});

test.serial('an unknown Discord user is a 404 JSON error', async (t) => {
  const response = await card(MISSING);
  const body = (await response.json()) as any;
  t.is(response.status, 404);
  t.is(body.error.code, 'unknown_user');
});

test.serial('Discord failing is a 502 JSON error, never a hang', async (t) => {
  const response = await card(BROKEN);
  const body = (await response.json()) as any;
  t.is(response.status, 502, JSON.stringify(body));
  t.is(body.error.code, 'discord_unavailable');
});

test.serial('a second card for the same user reuses the cached profile', async (t) => {
  const before = discord.apiRequestsFor(USER).length;
  const response = await card(USER, { customTag: 'cached profile' });
  t.is(response.status, 200);
  t.is(discord.apiRequestsFor(USER).length, before);
});

test.serial('animated true draws the animated (a_) avatar moving, from its animated WebP on the CDN, for its own frame times', async (t) => {
  const response = await card(USER, { animated: true });
  const body = (await response.json()) as any;
  t.is(response.status, 200, JSON.stringify(body));
  t.is(body.animated, true);
  t.is(body.frames, AVATAR_COLORS.length);
  t.regex(body.url, /\.webp$/);
  const cdnPaths = discord.cdnRequests().map((request) => request.path);
  t.true(cdnPaths.some((path) => path.startsWith(`/avatars/${USER}/a_0123456789abcdef0123456789abcdef.webp?size=256&animated=true`)), cdnPaths.join(' '));
  const info = await webpFrames(Buffer.from(await (await fetch(body.url)).arrayBuffer()));
  t.deepEqual(info.delaysMs, AVATAR_DELAYS_MS, info.stdout);
});

test.serial("a leaderboard's guild.id: the gateway's renderer reads the server with the bot token and draws its icon; an unreadable server without a name is the title alone, never an error", async (t) => {
  const iconHash = 'abcdefabcdefabcdefabcdefabcdef12';
  discord.guildObjects.set(GUILD, { name: 'Fake Server', icon: iconHash, approximate_member_count: 4321 });
  discord.images.set(`/icons/${GUILD}/${iconHash}.png`, solidPng(8, 8, '#0000ff'));
  const board = (guild: unknown) =>
    fetch(`${url}/v1/leaderboard-image`, {
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ rows: [{ rank: 1, name: 'Ada', score: 10 }], guild }),
    });
  const response = await board({ id: GUILD });
  const body = (await response.json()) as any;
  t.is(response.status, 200, JSON.stringify(body));
  t.is(discord.guildRequests(GUILD)[0]?.headers.authorization, `Bot ${TOKEN}`);
  const pixels = decodePng(Buffer.from(await (await fetch(body.url)).arrayBuffer()));
  // The server header is 24 px taller than the title band; its icon (blue) is centred at (68, 74), radius 42.
  t.is(pixels.height, 228 + 24);
  t.true(pixels.share(48, 54, 40, 40, isBluish) > 0.9, 'the server icon from the CDN');
  const unknown = await board({ id: '802050872383242299' });
  const unknownBody = (await unknown.json()) as any;
  t.is(unknown.status, 200, JSON.stringify(unknownBody));
  const titleAlone = decodePng(Buffer.from(await (await fetch(unknownBody.url)).arrayBuffer()));
  t.is(titleAlone.height, 228, 'no server header without a name');
});
