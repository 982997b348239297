/**
 * A leaderboard's server header from a Discord guild id (`guild.id`): the server looked up with the
 * bot token on the fake Discord, its name, icon and member count drawn exactly as the same fields
 * given by hand; the caller's fields winning; and every way the lookup can fail (no token, 404,
 * 500, a hang, a hostile answer) drawing what was given, or no header with a warning, never failing.
 */
import { leaderboardOptionsSchema, type LeaderboardOptions } from '@utility-api/render-jobs';
import test from 'ava';
import { renderLeaderboardCard } from '../../../packages/card/src/index.ts';
import { sampleAvatarPng } from '../../../packages/card/samples/sample-images.ts';
import { boardWithResolvedGuild, type LeaderboardGuildLookup, resolveLeaderboardGuild } from '../../../packages/render-engine/src/leaderboard-guild.ts';
import { type FakeDiscord, sendJson, startFakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { newUserId, profilesFor, TOKEN } from '../../support/discord-users/fixtures.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

const ICON_HASH = '0123456789abcdef0123456789abcdef';
const ICON = sampleAvatarPng(205);
/** What the caller's own `iconUrl` fetches to in these tests (a different hue from the server's icon). */
const GIVEN_ICON = sampleAvatarPng(40);
const GIVEN_ICON_URL = 'https://images.example/server.png';

const rows = [
  { rank: 1, name: 'Ada', level: 12, score: 5200 },
  { rank: 2, name: 'Grace', level: 9, score: 3100 },
  { rank: 3, name: 'Linus', level: 4, score: 900 },
];

/** A server on the fake Discord with an icon on its CDN and a member count (sent only for `with_counts=true`). */
function addServer(fields: Record<string, unknown> = {}): string {
  const guildId = newUserId();
  fake.guildObjects.set(guildId, { name: 'Café Nocturne', icon: ICON_HASH, approximate_member_count: 12_480, ...fields });
  fake.images.set(`/icons/${guildId}/${ICON_HASH}.png`, ICON);
  return guildId;
}

const fetchGivenIcon = async (url: string | undefined) => ({ bytes: url === GIVEN_ICON_URL ? GIVEN_ICON : undefined, warnings: [] });
const neverCancelled = () => false;

/** The board as the render engine draws it: the header resolved, then the card. */
async function drawnBoard(guild: unknown, lookup: LeaderboardGuildLookup | undefined, extra: Partial<LeaderboardOptions> = {}) {
  const board = leaderboardOptionsSchema.parse({ rows, title: 'Weekly', ...extra, guild });
  const header = await resolveLeaderboardGuild(board.guild, lookup, fetchGivenIcon, neverCancelled);
  const card = await renderLeaderboardCard({ kind: 'leaderboard', options: boardWithResolvedGuild(board, header), avatars: [], guildIcon: header.icon, warnings: header.warnings });
  return { header, card };
}

/** The same board drawn from fields given by hand (no lookup). */
async function explicitBoard(guild: LeaderboardOptions['guild'], icon: Buffer | undefined, extra: Partial<LeaderboardOptions> = {}) {
  return renderLeaderboardCard({ kind: 'leaderboard', options: leaderboardOptionsSchema.parse({ rows, title: 'Weekly', ...extra, ...(guild && { guild }) }), avatars: [], guildIcon: icon });
}

const lookupWith = (overrides: Parameters<typeof profilesFor>[1] = {}) => {
  // A generous deadline unless a test is about it: on a loaded machine 2 s can pass before the fake answers.
  const { profiles, logs } = profilesFor(fake, { requestTimeoutMs: 10_000, ...overrides });
  const lookup: LeaderboardGuildLookup = (guildId) => profiles.resolveGuild(guildId);
  return { lookup, logs };
};

test('guild.id alone: the header shows the server\'s name, icon and member count, pixel for pixel the board with those fields given', async (t) => {
  const guildId = addServer();
  const { lookup } = lookupWith();
  const { header, card } = await drawnBoard({ id: guildId }, lookup);
  t.deepEqual(header.warnings, []);
  t.deepEqual(header.guild, { name: 'Café Nocturne', memberCount: 12_480 });
  t.deepEqual(header.icon, ICON);
  t.deepEqual(card.texts.filter((text) => ['guild name', 'title'].includes(text.role)).map((text) => text.text), ['Café Nocturne', 'Weekly · 12.4K members']);
  const explicit = await explicitBoard({ name: 'Café Nocturne', memberCount: 12_480 }, ICON);
  t.true(card.png.equals(explicit.png), 'the fetched header is drawn exactly as the explicit one');
  // Asked with the bot token and the counts; the CDN icon by its hash.
  const [request] = fake.guildRequests(guildId);
  t.is(request?.path, `/api/v10/guilds/${guildId}?with_counts=true`);
  t.is(request?.headers.authorization, `Bot ${TOKEN}`);
  t.true(fake.cdnRequests().some((cdn) => cdn.path.startsWith(`/icons/${guildId}/${ICON_HASH}.png`)));
  // A second board of the server within the TTL asks Discord nothing.
  await drawnBoard({ id: guildId }, lookup, { podium: true });
  t.is(fake.guildRequests(guildId).length, 1);
});

test('the fields the caller gives win over the server\'s: name, member count and iconUrl', async (t) => {
  const guildId = addServer();
  const { lookup } = lookupWith();
  const { header, card } = await drawnBoard({ id: guildId, name: 'Our corner', memberCount: 7, iconUrl: GIVEN_ICON_URL }, lookup);
  t.deepEqual(header.guild, { name: 'Our corner', memberCount: 7 });
  t.deepEqual(header.icon, GIVEN_ICON);
  t.true(card.png.equals((await explicitBoard({ name: 'Our corner', memberCount: 7 }, GIVEN_ICON)).png));
  // Only the name given: the server's icon and count fill the rest.
  const partly = await drawnBoard({ id: guildId, name: 'Our corner' }, lookup);
  t.deepEqual(partly.header.guild, { name: 'Our corner', memberCount: 12_480 });
  t.deepEqual(partly.header.icon, ICON);
});

test('an unknown server (404) or one the bot cannot see (403): the header from the given name, or no header, with a warning', async (t) => {
  const { lookup } = lookupWith();
  const unknown = newUserId();
  const named = await drawnBoard({ id: unknown, name: 'Given name', memberCount: 30 }, lookup);
  t.deepEqual(named.header.guild, { name: 'Given name', memberCount: 30 });
  t.true(named.header.warnings.some((warning) => warning.startsWith('guild.id: the bot cannot read this server')), JSON.stringify(named.header.warnings));
  t.true(named.card.png.equals((await explicitBoard({ name: 'Given name', memberCount: 30 }, undefined)).png));
  const hidden = newUserId();
  fake.hiddenGuilds.add(hidden);
  const nameless = await drawnBoard({ id: hidden, memberCount: 30 }, lookup);
  t.is(nameless.header.guild, undefined);
  t.true(nameless.header.warnings.some((warning) => warning.includes('the server header is left out')), JSON.stringify(nameless.header.warnings));
  t.true(nameless.card.warnings.some((warning) => warning.includes('the server header is left out')));
  // The title alone, as a board without `guild`.
  t.deepEqual(nameless.card.texts.filter((text) => text.role === 'title').map((text) => text.text), ['Weekly']);
  t.true(nameless.card.png.equals((await explicitBoard(undefined, undefined)).png));
});

test('without a bot token the server is not looked up: the given fields, or no header, with a warning', async (t) => {
  const guildId = addServer();
  const named = await drawnBoard({ id: guildId, name: 'Given name' }, undefined);
  t.deepEqual(named.header.guild, { name: 'Given name' });
  t.true(named.header.warnings.some((warning) => warning.includes('no Discord bot token')));
  const nameless = await drawnBoard({ id: guildId }, undefined);
  t.is(nameless.header.guild, undefined);
  t.true(nameless.card.png.equals((await explicitBoard(undefined, undefined)).png));
  t.is(fake.guildRequests(guildId).length, 0);
});

test('Discord failing (500), hanging or answering a huge body: a warning and the given fields, within the request deadline', async (t) => {
  const { lookup } = lookupWith({ requestTimeoutMs: 400, maxRetryWaitMs: 0 });
  const failing = newUserId();
  fake.guildScripts.set(failing, (response) => sendJson(response, 500, { message: 'oops' }));
  const failed = await drawnBoard({ id: failing, name: 'Kept' }, lookup);
  t.deepEqual(failed.header.guild, { name: 'Kept' });
  t.true(failed.header.warnings.some((warning) => warning.startsWith('guild.id: the server could not be looked up')), JSON.stringify(failed.header.warnings));
  const hanging = newUserId();
  fake.guildScripts.set(hanging, () => {});
  // The fake never answers: only the 400 ms request deadline ends the lookup (without it the test times out).
  const slow = await resolveLeaderboardGuild({ id: hanging }, lookup, fetchGivenIcon, neverCancelled);
  t.is(slow.guild, undefined);
  t.true(slow.warnings.some((warning) => warning.includes('did not answer in time')), JSON.stringify(slow.warnings));
  const huge = newUserId();
  // Over the API's 256 KiB body bound: refused while reading, never parsed.
  fake.guildScripts.set(huge, (response) => sendJson(response, 200, { id: huge, name: 'x', padding: 'y'.repeat(1024 * 1024) }));
  const big = await drawnBoard({ id: huge, name: 'Kept' }, lookupWith().lookup);
  t.deepEqual(big.header.guild, { name: 'Kept' });
  t.true(big.header.warnings.some((warning) => warning.includes('unreadable answer')), JSON.stringify(big.header.warnings));
});

test('a hostile server answer stays bounded: a huge name is cut to 100 characters, a bad icon hash and count are left out', async (t) => {
  const guildId = addServer({ name: 'N'.repeat(50_000), icon: '../../etc/passwd', approximate_member_count: -5 });
  const { lookup } = lookupWith();
  const { header, card } = await drawnBoard({ id: guildId }, lookup);
  t.is(header.guild?.name.length, 100);
  t.is(header.guild?.memberCount, undefined);
  t.is(header.icon, undefined);
  t.false(fake.cdnRequests().some((cdn) => cdn.path.startsWith(`/icons/${guildId}/`)), 'no CDN request for a hash that is not one');
  const name = card.texts.find((text) => text.role === 'guild name');
  t.true(name?.text.endsWith('…'), name?.text);
  // The initials stand in for the icon.
  t.deepEqual(card.texts.filter((text) => text.role === 'guild initials').map((text) => text.text), ['N']);
  // An id in the answer that is not the one asked for is not this server.
  const other = newUserId();
  fake.guildScripts.set(other, (response) => sendJson(response, 200, { id: newUserId(), name: 'Someone else' }));
  const mismatch = await drawnBoard({ id: other }, lookup);
  t.is(mismatch.header.guild, undefined);
});

test('a server icon the CDN cannot serve is the initials, with a warning', async (t) => {
  const guildId = addServer();
  fake.images.delete(`/icons/${guildId}/${ICON_HASH}.png`);
  const { lookup } = lookupWith();
  const { header, card } = await drawnBoard({ id: guildId }, lookup);
  t.is(header.icon, undefined);
  t.true(header.warnings.some((warning) => warning.includes("server's icon could not be fetched")), JSON.stringify(header.warnings));
  t.deepEqual(card.texts.filter((text) => text.role === 'guild initials').map((text) => text.text), ['CN']);
});

test("a server icon that is not an image is the initials, with a warning naming guild.id (the caller gave no iconUrl)", async (t) => {
  const guildId = addServer();
  fake.images.set(`/icons/${guildId}/${ICON_HASH}.png`, Buffer.from('<html>not an image</html>'));
  const { lookup } = lookupWith();
  const { header, card } = await drawnBoard({ id: guildId }, lookup);
  // The safe fetcher refuses it already: the CDN warning, the initials.
  t.true(header.warnings.some((warning) => warning.startsWith('guild.id:')), JSON.stringify(header.warnings));
  t.deepEqual(card.texts.filter((text) => text.role === 'guild initials').map((text) => text.text), ['CN']);
  // Bytes that pass the fetcher but not the decoder are warned about under the field they came from.
  const undecodable = await renderLeaderboardCard({ kind: 'leaderboard', options: boardWithResolvedGuild(leaderboardOptionsSchema.parse({ rows, guild: { id: guildId } }), header), avatars: [], guildIcon: Buffer.from('<html>'), guildIconField: 'guild.id' });
  t.true(undecodable.warnings.some((warning) => warning.includes('guild.id')) && !undecodable.warnings.some((warning) => warning.includes('guild.iconUrl')), JSON.stringify(undecodable.warnings));
});

test('the schema takes a name, an id or both; neither is a 400 naming the field', (t) => {
  const id = '613425648685547541';
  t.true(leaderboardOptionsSchema.safeParse({ rows, guild: { id } }).success);
  t.true(leaderboardOptionsSchema.safeParse({ rows, guild: { name: 'A' } }).success);
  t.true(leaderboardOptionsSchema.safeParse({ rows, guild: { id, name: 'A', memberCount: 3 } }).success);
  const neither = leaderboardOptionsSchema.safeParse({ rows, guild: { memberCount: 3 } }).error?.issues ?? [];
  t.deepEqual(neither.map((issue) => [issue.path.join('.'), issue.message]), [['guild.name', 'give a name or an id (or both)']]);
  const badId = leaderboardOptionsSchema.safeParse({ rows, guild: { id: '12' } }).error?.issues ?? [];
  t.deepEqual(badId.map((issue) => issue.path.join('.')), ['guild.id']);
});
