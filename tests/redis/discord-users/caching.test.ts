import {
  createMemoryProfileCache,
  createRedisProfileCache,
  type DiscordUser,
  type ProfileCache,
} from '@utility-api/discord-users';
import type { ImageFetcher } from '@utility-api/safe-fetch';
import test from 'ava';
import { Redis } from 'ioredis';
import { createProfileImages } from '../../../packages/discord-users/src/profile-images.ts';
import { sendJson, startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addPlainUser, addUser, captureLogs, newUserId, PINO_WARN, profilesFor } from '../../support/discord-users/fixtures.ts';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';


let fake: FakeDiscord;
let redisServer: RunningRedis;
let redis: Redis;
test.before(async () => {
  [fake, redisServer] = await Promise.all([startFakeDiscord(), startRedisServer({})]);
  redis = new Redis(redisServer.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
});
test.after.always(async () => {
  redis?.disconnect();
  await Promise.all([fake?.close(), redisServer?.stop()]);
});

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

test('a second resolve is served from the memory cache, and after the TTL Discord is asked again', async (t) => {
  const id = addPlainUser(fake);
  const clock = manualClock();
  const { profiles } = profilesFor(fake, { cache: createMemoryProfileCache({ maxEntries: 10, now: clock.now }), profileTtlMs: 60_000 });
  const first = await profiles.resolveProfile(id);
  const second = await profiles.resolveProfile(id);
  t.deepEqual(second, first);
  t.is(fake.apiRequestsFor(id).length, 1);
  clock.advance(59_999);
  await profiles.resolveProfile(id);
  t.is(fake.apiRequestsFor(id).length, 1);
  clock.advance(2); // lru-cache keeps an entry for its whole TTL, the last millisecond included
  await profiles.resolveProfile(id);
  t.is(fake.apiRequestsFor(id).length, 2);
  t.like(profiles.stats(), { profileCacheHits: 2, profileCacheMisses: 2, apiRequests: 2 });
});

test('the memory cache evicts the least recently used user beyond maxEntries', async (t) => {
  const cache = createMemoryProfileCache({ maxEntries: 2 });
  const user = (id: string): DiscordUser => ({ id, username: `u${id}` });
  await cache.set('1', user('1'), 60_000);
  await cache.set('2', user('2'), 60_000);
  t.truthy(await cache.get('1'));
  await cache.set('3', user('3'), 60_000);
  t.truthy(await cache.get('1'));
  t.is(await cache.get('2'), undefined);
  t.truthy(await cache.get('3'));
  t.throws(() => createMemoryProfileCache({ maxEntries: 0 }), { instanceOf: RangeError });
});

test('with the Redis cache a second resolve makes no API call, and the entry expires by PX', async (t) => {
  const id = addPlainUser(fake, { accent_color: 0x123456 });
  const cache = createRedisProfileCache(redis, { keyPrefix: 'test-profiles:' });
  const { profiles } = profilesFor(fake, { cache, profileTtlMs: 3000 });
  const first = await profiles.resolveProfile(id);
  const ttl = await redis.pttl(`test-profiles:${id}`);
  t.true(ttl > 0 && ttl <= 3000, `PTTL ${ttl}`);
  const stored = JSON.parse((await redis.get(`test-profiles:${id}`)) ?? '{}');
  t.is(stored.username, first.username);
  t.is(stored.some_future_field, undefined, 'fields we do not use are not cached');

  t.deepEqual(await profiles.resolveProfile(id), first);
  t.is(fake.apiRequestsFor(id).length, 1);

  // Redis expires the key itself; wait until it has, then Discord is asked again.
  while ((await redis.exists(`test-profiles:${id}`)) === 1) await new Promise((resolve) => setTimeout(resolve, 50));
  await profiles.resolveProfile(id);
  t.is(fake.apiRequestsFor(id).length, 2);
});

test('a Redis cache shared by two instances (two replicas) asks Discord once', async (t) => {
  const id = addPlainUser(fake);
  const replicaA = profilesFor(fake, { cache: createRedisProfileCache(redis, { keyPrefix: 'shared:' }) }).profiles;
  const replicaB = profilesFor(fake, { cache: createRedisProfileCache(redis, { keyPrefix: 'shared:' }) }).profiles;
  await replicaA.resolveProfile(id);
  const fromB = await replicaB.resolveProfile(id);
  t.is(fromB.userId, id);
  t.is(fake.apiRequestsFor(id).length, 1);
  t.is(replicaB.stats().profileCacheHits, 1);
});

test('member data in the Redis cache is shared by two replicas and expires by PX; a corrupt entry is a miss', async (t) => {
  const userId = newUserId();
  const guildId = newUserId();
  addUser(fake, { id: userId, username: 'ada', global_name: 'Ada Global' });
  fake.guilds.set(guildId, new Map([[userId, { nick: 'Server Ada', avatar: null }]]));
  const cache = () => createRedisProfileCache(redis, { keyPrefix: 'member-test-users:', memberKeyPrefix: 'member-test-members:' });
  t.is((await profilesFor(fake, { cache: cache() }).profiles.resolveProfile(userId, { guildId })).displayName, 'Server Ada');
  t.is((await profilesFor(fake, { cache: cache() }).profiles.resolveProfile(userId, { guildId })).displayName, 'Server Ada');
  t.is(fake.memberRequests(guildId, userId).length, 1);
  const key = `member-test-members:${guildId}:${userId}`;
  t.deepEqual(JSON.parse((await redis.get(key)) ?? '{}'), { nick: 'Server Ada', avatar: null });
  t.true((await redis.pttl(key)) > 0);
  await redis.set(key, JSON.stringify({ nick: 'x', avatar: '../../etc' }));
  t.is(await cache().getMember(guildId, userId), undefined);
  // The member's Discord extras and its role colours come back from Redis as they went in.
  const extras = { nick: null, avatar: null, banner: 'a_0123456789abcdef', avatar_decoration_data: { asset: 'a_0123' }, collectibles: { nameplate: { asset: 'nameplates/x/', palette: 'sky' } }, role_colors: { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 } };
  await cache().setMember(guildId, userId, extras, 60_000);
  t.deepEqual(await cache().getMember(guildId, userId), extras);
});

test('a corrupt or foreign Redis entry is a miss, not an error', async (t) => {
  const cache = createRedisProfileCache(redis, { keyPrefix: 'corrupt:' });
  await redis.set('corrupt:1', 'not json');
  await redis.set('corrupt:2', JSON.stringify({ id: '2' }));
  await redis.set('corrupt:3', JSON.stringify({ id: '4', username: 'someone else' }));
  t.is(await cache.get('1'), undefined);
  t.is(await cache.get('2'), undefined);
  t.is(await cache.get('3'), undefined);
  t.is(await cache.get('never-set'), undefined);
});

test('a failing profile cache is logged and bypassed: the card still resolves', async (t) => {
  const id = addPlainUser(fake);
  const broken: ProfileCache = {
    get: () => Promise.reject(new Error('connection refused')),
    set: () => Promise.reject(new Error('connection refused')),
    getMember: () => Promise.reject(new Error('connection refused')),
    setMember: () => Promise.reject(new Error('connection refused')),
  };
  const { profiles, logs } = profilesFor(fake, { cache: broken });
  t.is((await profiles.resolveProfile(id)).userId, id);
  t.is(profiles.stats().profileCacheErrors, 2);
  t.is(logs.lines.filter((line) => line.level === PINO_WARN && line.msg.startsWith('profile cache failed')).length, 2);
});

test('a stalled profile cache costs at most the deadline', async (t) => {
  const id = addPlainUser(fake);
  const stalled: ProfileCache = { get: () => new Promise(() => {}), set: () => new Promise(() => {}), getMember: () => new Promise(() => {}), setMember: () => new Promise(() => {}) };
  const requestTimeoutMs = 500;
  const { profiles } = profilesFor(fake, { cache: stalled, requestTimeoutMs });
  const started = performance.now();
  t.is((await profiles.resolveProfile(id)).userId, id);
  t.true(performance.now() - started < 6 * requestTimeoutMs);
});

test('ten concurrent resolves of one id share a single API call', async (t) => {
  const id = newUserId();
  // A slow answer keeps the first call in flight while the other nine arrive.
  fake.script(id, (response) => setTimeout(() => sendJson(response, 200, { id, username: 'popular' }), 150));
  const { profiles } = profilesFor(fake);
  const results = await Promise.all(Array.from({ length: 10 }, () => profiles.resolveProfile(id)));
  t.true(results.every((profile) => profile.username === 'popular'));
  t.is(fake.apiRequestsFor(id).length, 1);
  t.is(profiles.stats().sharedResolves, 9);
});

test('concurrent resolves of an unknown id share one call and all fail', async (t) => {
  const id = newUserId();
  fake.script(id, (response) => setTimeout(() => sendJson(response, 404, { message: 'Unknown User', code: 10013 }), 100));
  const { profiles } = profilesFor(fake);
  const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => profiles.resolveProfile(id)));
  t.true(outcomes.every((outcome) => outcome.status === 'rejected'));
  t.is(fake.apiRequestsFor(id).length, 1);
});

test('image bytes are cached by URL: a shared decoration is fetched once for two users', async (t) => {
  const asset = 'a_5e1b8c8ee9d57e1d5a4b0e7d24cb0b1f';
  const first = newUserId();
  const second = newUserId();
  addUser(fake, { id: first, username: 'one', avatar_decoration_data: { asset } });
  addUser(fake, { id: second, username: 'two', avatar_decoration_data: { asset } });
  const { profiles } = profilesFor(fake);
  const [a, b] = [await profiles.resolveProfile(first), await profiles.resolveProfile(second)];
  t.truthy(a.avatarDecoration);
  t.deepEqual(a.avatarDecoration, b.avatarDecoration);
  t.is(fake.cdnRequests().filter((request) => request.path.includes(asset)).length, 1);
  t.like(profiles.stats(), { imageCacheHits: 1, imageCacheMisses: 1, imageCacheEntries: 1 });
  t.is(profiles.stats().imageCacheBytes, a.avatarDecoration?.length ?? -1);
});

test('with the image cache disabled every resolve fetches the image again', async (t) => {
  const id = addPlainUser(fake);
  const clock = manualClock();
  const { profiles } = profilesFor(fake, { imageCache: { maxBytes: 0 }, cache: createMemoryProfileCache({ maxEntries: 10, now: clock.now }) });
  await profiles.resolveProfile(id);
  await profiles.resolveProfile(id);
  t.is(fake.cdnRequests().filter((request) => request.path.startsWith(`/avatars/${id}/`)).length, 2);
  t.is(profiles.stats().imageCacheBytes, 0);
});

test('the image cache stays within its byte budget, evicting the least recently used', async (t) => {
  // Each URL names the size of its image; `fetched` counts downloads, so a hit is one that adds none.
  const fetched: string[] = [];
  const fetcher = {
    fetchImage: async (url: string) => {
      fetched.push(url);
      return { bytes: Buffer.alloc(Number(url.split('/').pop())) } as Awaited<ReturnType<ImageFetcher['fetchImage']>>;
    },
  };
  const images = createProfileImages({ fetcher, onlyHost: 'cdn.test', maxBytes: 100, timeoutMs: 1000, logger: captureLogs().logger });
  const load = (url: string) => images.load(url, 'avatar', '1');
  const downloads = (url: string) => fetched.filter((each) => each === url).length;
  await load('a/40');
  await load('b/40');
  t.truthy(await load('a/40'));
  await load('c/40');
  t.is(images.stats().imageCacheBytes, 80);
  t.truthy(await load('a/40'));
  t.is(downloads('a/40'), 1);
  t.truthy(await load('c/40'));
  t.is(downloads('c/40'), 1);
  await load('b/40'); // evicted: downloaded again
  t.is(downloads('b/40'), 2);
  await load('huge/101');
  await load('huge/101'); // larger than the budget: never kept
  t.is(downloads('huge/101'), 2);
  t.like(images.stats(), { imageCacheBytes: 80, imageCacheEntries: 2 });
});
