import type { CardProfile } from '@utility-api/card';
import { type Logger, withDeadline } from '@utility-api/infra';
import type { ImageFetcher } from '@utility-api/safe-fetch';
import { LRUCache } from 'lru-cache';
import type { DiscordMemberObject, DiscordRoleColorsObject, DiscordUserObject } from '@utility-api/render-jobs';
import { idOnlyProfile, type MemberFields, toCardProfile } from './card-profile.ts';
import { DISCORD_DEFAULTS } from './config.ts';
import { isDiscordUserId, UnknownUserError, type DiscordMember, type DiscordUser } from './discord-user.ts';
import { createDiscordUserApi, type DiscordGuild } from './discord-user-api.ts';
import { type ProfileCache } from './profile-cache.ts';
import { createProfileImages, guildIconUrl, type ProfileImageField, profileImageUrls, type ProfileImages } from './profile-images.ts';
import { createRateLimitGate } from './rate-limits.ts';

/** Discord asks bots to identify as `DiscordBot ($url, $versionNumber)`. */
const DEFAULT_USER_AGENT = 'DiscordBot (https://github.com/utility-api/utility-api, 1.0.0)';
const DEFAULT_IMAGE_CACHE_BYTES = 64 * 1024 * 1024;

export interface DiscordProfilesOptions {
  /** The bot token, without the `Bot ` prefix. */
  token: string;
  apiBaseUrl?: string;
  cdnBaseUrl?: string;
  userAgent?: string;
  /** Fetches the CDN images, pinned to the CDN's host. */
  fetcher: ImageFetcher;
  cache: ProfileCache;
  /** How long a user object is reused before Discord is asked again. */
  profileTtlMs: number;
  /**
   * Deadline of each Discord API call (body included), of each image fetch (on top of the fetcher's
   * own limits) and of each profile cache call (a late answer counts as a miss).
   */
  requestTimeoutMs: number;
  /** The longest rate-limit wait worth holding a request for; beyond it the answer is 503. */
  maxRetryWaitMs: number;
  /** Bytes of images kept in memory; 0 disables the image cache. Default 64 MiB. */
  imageCache?: { maxBytes: number };
  /** The CDN images, shared with the profiles drawn from a request's own objects (one cache); made here when not given. */
  images?: ProfileImages;
  logger: Logger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

function validateOptions(options: DiscordProfilesOptions): void {
  // Checked without echoing the token: a bad one must not end up in a startup error log.
  if (!/^[\x21-\x7e]+$/.test(options.token)) throw new RangeError('the Discord bot token is empty or has characters a header cannot carry');
  for (const name of ['profileTtlMs', 'requestTimeoutMs'] as const) {
    const value = options[name];
    if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  if (!Number.isFinite(options.maxRetryWaitMs) || options.maxRetryWaitMs < 0) throw new RangeError(`maxRetryWaitMs must be zero or more, got ${options.maxRetryWaitMs}`);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createDiscordProfiles(options: DiscordProfilesOptions) {
  validateOptions(options);
  const { logger } = options;
  const cdnBaseUrl = options.cdnBaseUrl ?? DISCORD_DEFAULTS.cdnBaseUrl;
  const gate = createRateLimitGate({ now: options.now ?? Date.now, sleep: options.sleep ?? defaultSleep });
  const api = createDiscordUserApi({ ...options, apiBaseUrl: options.apiBaseUrl ?? DISCORD_DEFAULTS.apiBaseUrl, userAgent: options.userAgent ?? DEFAULT_USER_AGENT, gate });
  const maxBytes = options.imageCache?.maxBytes ?? DEFAULT_IMAGE_CACHE_BYTES;
  const images = options.images ?? createProfileImages({ fetcher: options.fetcher, onlyHost: new URL(cdnBaseUrl).hostname, maxBytes, timeoutMs: options.requestTimeoutMs, logger });
  // Concurrent resolves of one id share one run through lru-cache's `fetch`. Nothing is kept once
  // it settles (users are cached in `options.cache`): a run in flight counts 1 against
  // `maxEntrySize`, a settled profile 2, so lru-cache refuses to store it.
  const inFlight = new LRUCache<string, CardProfile>({
    max: 10_000,
    maxEntrySize: 1,
    sizeCalculation: () => 2,
    ignoreFetchAbort: true,
    // The key is the id, then the server id or `-` for none, then `animated` for the profile with
    // moving images: each its own entry.
    fetchMethod: (key) => {
      const [userId = key, guildId = '-', variant] = key.split('/');
      return resolve(userId, variant === 'animated', guildId === '-' ? undefined : guildId);
    },
  });
  // Servers for leaderboard headers, kept in memory as long as users are: a server's board is asked
  // for again and again (every `/leaderboard` command), its name and count change rarely. Only a
  // server that was read is kept; one the bot cannot see is asked again next time (its bot may
  // just have been added). lru-cache's `fetch` lets concurrent boards of one server share a call.
  const guilds = new LRUCache<string, DiscordGuild>({
    max: 10_000,
    ttl: Math.ceil(options.profileTtlMs),
    ttlResolution: 0,
    ...(options.now && { perf: { now: options.now } }),
    ignoreFetchAbort: true,
    fetchMethod: async (guildId) => api.fetchGuild(guildId),
  });
  // Errors are cache calls that failed or timed out (misses too); shared resolves joined one in flight.
  const counts = { profileCacheHits: 0, profileCacheMisses: 0, profileCacheErrors: 0, sharedResolves: 0 };

  /** A cache is an optimisation: when it fails or stalls, we go on as if it had missed. */
  async function guarded<T>(operation: string, userId: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await withDeadline(work(), options.requestTimeoutMs, `profile cache ${operation}`);
    } catch (error) {
      counts.profileCacheErrors += 1;
      const reason = error instanceof Error ? error.message : 'unknown error';
      logger.warn({ userId, operation, reason }, 'profile cache failed; going on without it');
      return undefined;
    }
  }

  async function loadUser(userId: string): Promise<DiscordUser> {
    const cached = await guarded('get', userId, () => options.cache.get(userId));
    if (cached) {
      counts.profileCacheHits += 1;
      return cached;
    }
    counts.profileCacheMisses += 1;
    const user = await api.fetchUser(userId);
    await guarded('set', userId, () => options.cache.set(userId, user, options.profileTtlMs));
    return user;
  }

  async function loadMember(guildId: string, userId: string): Promise<DiscordMember> {
    const key = `${guildId}:${userId}`;
    const cached = await guarded('get member', key, () => options.cache.getMember(guildId, userId));
    if (cached) {
      counts.profileCacheHits += 1;
      return cached;
    }
    counts.profileCacheMisses += 1;
    const member = await api.fetchMember(guildId, userId);
    await guarded('set member', key, () => options.cache.setMember(guildId, userId, member, options.profileTtlMs));
    return member;
  }

  async function resolve(userId: string, animated: boolean, guildId: string | undefined, objects: DiscordCardObjects = {}): Promise<CardProfile> {
    // Side by side: the user decides whether the card exists (unknown user: 404), the member only what it shows.
    // What the request brought is not asked again; the rest comes from Discord.
    const givenUser = objects.user ?? objects.member?.user;
    const memberGuild = objects.member?.guild_id ?? guildId;
    const [user, member] = await Promise.all([
      givenUser ?? loadUser(userId),
      objects.member ?? (guildId === undefined ? undefined : loadMember(guildId, userId)),
    ]);
    const roleColors = objects.roleColors ?? (member && 'role_colors' in member ? member.role_colors : undefined);
    return profileFromDiscord({ userId, user, member, roleColors, guildId: memberGuild }, images, cdnBaseUrl, animated);
  }

  return {
    /**
     * The card profile of a user: from the profile cache or Discord, with images from the byte cache
     * or the CDN. Throws UnknownUserError or DiscordUnavailableError; a missing image never throws.
     * `animated`: an animated (`a_`) avatar or banner comes as its moving variant (animated WebP),
     * for an animated card; fetched within the same image budgets and cached beside the still one.
     * `guildId`: the member's server nickname and avatar replace the user's own where set.
     */
    async resolveProfile(userId: string, options: { animated?: boolean; guildId?: string | undefined; objects?: DiscordCardObjects } = {}): Promise<CardProfile> {
      // Checked before any URL is built: the ids become path segments of an authenticated call.
      if (!isDiscordUserId(userId)) throw new UnknownUserError(userId);
      const { guildId, objects } = options;
      if (guildId !== undefined && !isDiscordUserId(guildId)) throw new RangeError('not a Discord server id');
      // A request's own objects differ from card to card: drawn as given, never shared with another resolve.
      if (objects && (objects.user || objects.member || objects.roleColors)) return resolve(userId, options.animated ?? false, guildId, objects);
      const status: LRUCache.Status<string, CardProfile> = {};
      const resolving = inFlight.fetch(`${userId}/${guildId ?? '-'}${options.animated ? '/animated' : ''}`, { status });
      if (status.fetch === 'inflight') counts.sharedResolves += 1;
      return (await resolving) as CardProfile;
    },
    /**
     * A server's name, approximate member count and icon (bytes from the CDN through the byte
     * cache; undefined when it has none or it cannot be fetched), for a leaderboard's header.
     * `undefined` when the bot cannot read the server (unknown, not a member); throws
     * DiscordUnavailableError when Discord fails. The caller decides what a failure costs.
     */
    async resolveGuild(guildId: string): Promise<{ name: string; memberCount: number | undefined; icon: Buffer | undefined; iconHash: string | undefined } | undefined> {
      // Checked before any URL is built: the id becomes a path segment of an authenticated call.
      if (!isDiscordUserId(guildId)) throw new RangeError('not a Discord server id');
      const guild = await guilds.fetch(guildId);
      if (guild === undefined) return undefined;
      const iconHash = guild.icon ?? undefined;
      const icon = iconHash === undefined ? undefined : await images.load(guildIconUrl(cdnBaseUrl, guildId, iconHash), 'guildIcon', guildId);
      return { name: guild.name, memberCount: guild.approximate_member_count, icon, iconHash };
    },
    stats: () => ({ ...counts, apiRequests: api.requests, ...images.stats() }),
  };
}

/** The Discord objects a card request brought (`discordUser`, `discordMember`, `discordRoleColors`), already normalised. */
export interface DiscordCardObjects {
  user?: DiscordUserObject | undefined;
  member?: DiscordMemberObject | undefined;
  roleColors?: DiscordRoleColorsObject | undefined;
}

/**
 * A card profile from Discord objects, wherever they came from, with their CDN images fetched
 * side by side (each one that fails is left out). The member's server avatar and banner need the
 * server id (the member's own `guild_id`, else the request's `guildId`); without one the user's
 * own are drawn.
 */
async function profileFromDiscord(
  parts: { userId: string; user: DiscordUserObject | undefined; member: (MemberFields & { guild_id?: string | undefined }) | undefined; roleColors: DiscordRoleColorsObject | undefined; guildId: string | undefined },
  images: ProfileImages,
  cdnBaseUrl: string,
  animated: boolean,
): Promise<CardProfile> {
  const { userId, member } = parts;
  const user = parts.user ?? { id: userId };
  const guildId = member?.guild_id ?? parts.guildId;
  const server = guildId === undefined || member === undefined ? undefined : { guildId, avatar: member.avatar ?? null, banner: member.banner ?? null };
  const urls = profileImageUrls(user, cdnBaseUrl, { animated, ...(server && { server }), ...(member && { member }) });
  const fields = Object.keys(urls) as ProfileImageField[];
  const loaded = await Promise.all(fields.map(async (field) => [field, await images.load(urls[field]!, field, userId)] as const));
  const bytes: Partial<Record<ProfileImageField, Buffer>> = {};
  for (const [field, image] of loaded) if (image) bytes[field] = image;
  return toCardProfile(parts.user, bytes, member, parts.roleColors, userId);
}

/**
 * Profiles from a request's own Discord objects when there is no bot token: the CDN images are
 * public, so the card is the member's true card all the same. Without objects the card knows only
 * the id (`idOnlyProfile`). `images` is the CDN image cache (its host the only one fetched from).
 */
export function createObjectProfiles(options: { images: ProfileImages; cdnBaseUrl?: string | undefined }) {
  const cdnBaseUrl = options.cdnBaseUrl ?? DISCORD_DEFAULTS.cdnBaseUrl;
  return {
    async resolveProfile(userId: string, request: { animated?: boolean; guildId?: string | undefined; objects?: DiscordCardObjects } = {}): Promise<CardProfile> {
      const objects = request.objects ?? {};
      if (!isDiscordUserId(userId)) throw new UnknownUserError(userId);
      if (!objects.user && !objects.member && !objects.roleColors) return idOnlyProfile(userId);
      const parts = { userId, user: objects.user ?? objects.member?.user, member: objects.member, roleColors: objects.roleColors, guildId: request.guildId };
      return profileFromDiscord(parts, options.images, cdnBaseUrl, request.animated ?? false);
    },
  };
}
