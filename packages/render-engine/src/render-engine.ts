import { cardAltText, type CardProfile, leaderboardAltText, type LeaderboardInput } from '@utility-api/card';
import { createDiscordProfiles, createMemoryProfileCache, createObjectProfiles, createProfileImages, createRedisProfileCache, type DiscordCardObjects } from '@utility-api/discord-users';
import type { DiscordSettings } from '@utility-api/discord-users/config';
import type { Lifecycle, Logger } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import { cardAnimationEncoding, DEFAULT_MEDIA_FORMAT, highlightPlacement, type LeaderboardJobPayload, LEADERBOARD_LIMITS, type LeaderboardRow, mediaKeyForImage, RenderAbandonedError, type RenderJobPayload, type RenderJobResult } from '@utility-api/render-jobs';
import { createFetchSession, createImageFetcher, type FetchSession, ImageFetchError } from '@utility-api/safe-fetch';
import type { ImageFetchSettings } from '@utility-api/safe-fetch/config';
import type { Cluster, Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import { createCardRenderPool, type CardRenderPool } from './card-pool/card-render-pool.ts';
import type { RenderPoolSettings } from './config.ts';
import { asRenderFailure } from './render-failures.ts';
import { boardWithResolvedGuild, type LeaderboardGuildLookup, resolveLeaderboardGuild } from './leaderboard-guild.ts';
import { createRenderMetrics, registerDiscordCacheMetrics, type RenderMetrics } from './render-metrics.ts';

/**
 * One render job from payload to stored image, in both run modes: the renderer service calls it from
 * its BullMQ worker, the embedded gateway from its render queue. Domain failures come back as a
 * failure result; anything unexpected is thrown (a crash of the job). `signal` is aborted when
 * nobody waits for the card any more: its downloads stop, a card still waiting for a worker is
 * withdrawn, and the job rejects with RenderAbandonedError (a card already drawing is finished).
 */
export interface RenderEngine {
  process(payload: RenderJobPayload, context?: { jobId?: string; attempt?: number; signal?: AbortSignal }): Promise<RenderJobResult>;
  pool: CardRenderPool;
  metrics: RenderMetrics;
}

/** What a render needs from the environment: each part as its package's `config` module makes it. */
export type RenderingSettings = { renderPool: RenderPoolSettings; fetch: ImageFetchSettings } & DiscordSettings;

const USER_AGENT = 'UtilityApiCardRenderer/1.0 (+https://github.com/utility-api)';
/** Deadline of each Discord API call and CDN image fetch. */
const DISCORD_REQUEST_TIMEOUT_MS = 4000;
/** Bytes of Discord CDN images kept in memory, keyed by URL (every CDN path carries the content hash). */
const PROFILE_IMAGE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Everything a render needs, built once per process: the worker process pool, the safe fetcher and
 * the profile source (Discord with a bot token, else the user id alone). Embedded mode passes no
 * Redis (profiles cached in memory).
 */
export function createRenderEngine(
  settings: RenderingSettings,
  parts: { store: MediaStore; redis?: Redis | Cluster; logger: Logger; lifecycle: Lifecycle; registry: Registry },
): RenderEngine {
  const { logger, lifecycle } = parts;
  const { workers, ...limits } = settings.renderPool;
  const pool = lifecycle.add('card render pool', createCardRenderPool({ size: workers, ...limits, logger }), (opened) => opened.close());
  const metrics = createRenderMetrics(parts.registry, pool);
  const { allowPrivateHosts, maxBytes, deadlineMs } = settings.fetch;
  const fetcher = createImageFetcher({ allowPrivateHosts, maxBytes, deadlineMs, userAgent: USER_AGENT });
  /** `animated`: Discord's `a_` avatars and banners as their animations (animated WebP), not a still first frame. */
  let resolveProfile: (userId: string, animated: boolean, guildId: string | undefined, objects?: DiscordCardObjects) => Promise<CardProfile>;
  /** A leaderboard header's server (`guild.id`) from Discord; none without a token. */
  let lookupGuild: LeaderboardGuildLookup | undefined;
  // The CDN images of every profile, with a token or from a request's own objects: one byte-bounded cache.
  const images = createProfileImages({ fetcher, onlyHost: new URL(settings.cdnBaseUrl).hostname, maxBytes: PROFILE_IMAGE_CACHE_BYTES, timeoutMs: DISCORD_REQUEST_TIMEOUT_MS, logger });
  if (settings.discord) {
    const discord = createDiscordProfiles({
      ...settings.discord,
      fetcher,
      images,
      cache: parts.redis ? createRedisProfileCache(parts.redis) : createMemoryProfileCache({ maxEntries: 10_000 }),
      profileTtlMs: settings.profileCacheTtlMs,
      requestTimeoutMs: DISCORD_REQUEST_TIMEOUT_MS,
      maxRetryWaitMs: 2000,
      logger,
    });
    registerDiscordCacheMetrics(parts.registry, () => discord.stats());
    resolveProfile = (userId, animated, guildId, objects) => discord.resolveProfile(userId, { animated, guildId, ...(objects && { objects }) });
    lookupGuild = (guildId) => discord.resolveGuild(guildId);
  } else {
    // Without a token there is no server to ask either: `guildId` changes nothing (documented), but
    // the objects a request brings are drawn with their CDN images (public, no token needed).
    logger.info('DISCORD_BOT_TOKEN is not set: cards are drawn from the user id alone (default avatar, no banner or badges) unless a request sends discordUser or discordMember');
    const fromObjects = createObjectProfiles({ images, cdnBaseUrl: settings.cdnBaseUrl });
    resolveProfile = (userId, animated, guildId, objects) => fromObjects.resolveProfile(userId, { animated, guildId, ...(objects && { objects }) });
  }

  /**
   * A leaderboard's avatars, one per drawn row (the highlighted member's last when it gets a row of
   * its own): by URL through the card's fetch session (its byte budget, each URL once), or the
   * Discord user's avatar. At most LEADERBOARD_LIMITS.maxAvatars, which the schema already caps;
   * checked again here because this is where the downloads start. One that cannot be had is the
   * default avatar with a warning, never a failed board: one member's dead avatar link is not the
   * caller's to fix. Only a cancelled session (nobody waits any more) stops the board.
   */
  const leaderboardAvatars = async (payload: LeaderboardJobPayload, session: FetchSession) => {
    const board = payload.leaderboard;
    const placement = highlightPlacement(board);
    const drawn: [LeaderboardRow, string][] = board.rows.map((row, index) => [row, `rows.${index}`]);
    if (placement !== undefined && 'extra' in placement) drawn.push([placement.extra, 'highlight']);
    if (drawn.length > LEADERBOARD_LIMITS.maxAvatars) throw new Error(`a leaderboard job with ${drawn.length} rows passed validation`);
    const warnings: string[] = [];
    const avatars = await Promise.all(
      drawn.map(async ([row, field]): Promise<Buffer | undefined> => {
        try {
          if (row.avatarUrl !== undefined) return (await session.fetchImage(row.avatarUrl, `${field}.avatarUrl`)).bytes;
          // The row's own object: its avatar from the CDN, without asking Discord for the user.
          if (row.discordUser !== undefined) return (await resolveProfile(row.discordUser.id, false, undefined, { user: row.discordUser })).avatar;
          if (row.userId !== undefined) return (await resolveProfile(row.userId, false, undefined)).avatar;
          return undefined;
        } catch (error) {
          if (error instanceof ImageFetchError && error.reason === 'cancelled') throw error;
          const failure = asRenderFailure(error);
          if (!failure) throw error;
          metrics.imageFailed(error);
          // The row's own field, whatever the fetcher or the profile source called it.
          warnings.push(`${field}.${row.avatarUrl !== undefined ? 'avatarUrl' : row.discordUser !== undefined ? 'discordUser' : 'userId'}: ${failure.detail}`);
          return undefined;
        }
      }),
    );
    return { avatars, warnings };
  };

  /** The server header's icon (`guild.iconUrl`) through the card's fetch session; one that cannot be had is the server's initials with a warning, as a dead avatar is the default avatar. */
  const leaderboardGuildIcon = async (url: string | undefined, session: FetchSession): Promise<{ bytes: Buffer | undefined; warnings: string[] }> => {
    if (url === undefined) return { bytes: undefined, warnings: [] };
    try {
      return { bytes: (await session.fetchImage(url, 'guild.iconUrl')).bytes, warnings: [] };
    } catch (error) {
      if (error instanceof ImageFetchError && error.reason === 'cancelled') throw error;
      const failure = asRenderFailure(error);
      if (!failure) throw error;
      metrics.imageFailed(error);
      return { bytes: undefined, warnings: [`guild.iconUrl: ${failure.detail}`] };
    }
  };

  const process: RenderEngine['process'] = async (payload, context = {}) => {
    const log = logger.child({ jobId: context.jobId, requestId: payload.requestId, ...(payload.kind === 'leaderboard' ? { kind: payload.kind } : { userId: payload.userId }) });
    const timings: Record<string, number> = {};
    const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[phase] = performance.now() - started;
      }
    };
    // A session per card: each distinct URL fetched once, all of them within one byte budget.
    // Profile images above go through the fetcher directly: their sizes are Discord's, not the caller's.
    const session = createFetchSession(fetcher, settings.fetch.cardBudgetBytes);
    const fetchImage = async (url: string, field: string) => (await session.fetchImage(url, field)).bytes;
    const { signal } = context;
    const abandon = () => session.cancel();
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      if (payload.kind === 'leaderboard') {
        const board = payload.leaderboard;
        const cancelled = (error: unknown) => error instanceof ImageFetchError && error.reason === 'cancelled';
        const [{ avatars, warnings }, guildHeader, background] = await Promise.all([
          timed('avatars', () => leaderboardAvatars(payload, session)),
          timed('guild', () => resolveLeaderboardGuild(board.guild, lookupGuild, (url) => leaderboardGuildIcon(url, session), cancelled)),
          // The caller chose the background: one that cannot be had refuses the board, as `customBackground` refuses a card.
          timed('background', async () => (board.background === undefined ? undefined : fetchImage(board.background, 'background'))),
        ]);
        if (signal?.aborted) throw new RenderAbandonedError();
        const input: LeaderboardInput = { kind: 'leaderboard', options: boardWithResolvedGuild(board, guildHeader), avatars, guildIcon: guildHeader.icon, guildIconField: board.guild?.iconUrl === undefined ? 'guild.id' : 'guild.iconUrl', background, warnings: [...warnings, ...guildHeader.warnings] };
        const format = payload.format ?? DEFAULT_MEDIA_FORMAT;
        const card = await timed('render', () => pool.render(input, format, undefined, { tenant: payload.keyId, signal }));
        timings.draw = card.timings.draw;
        timings.encode = card.timings.encode;
        const { mediaKey, sha256 } = mediaKeyForImage(card.image);
        await timed('store', () => parts.store.put(mediaKey, card.image, card.format, sha256));
        metrics.phases(timings);
        log.info({ mediaKey, format: card.format, bytes: card.image.length, imageBytes: session.budget.usedBytes, timings, warnings: card.warnings }, 'card rendered');
        const altText = leaderboardAltText(payload.leaderboard);
        return { ok: true, mediaKey, format: card.format, altText, width: card.width, height: card.height, bytes: card.image.length, timings, warnings: card.warnings };
      }
      const { options } = payload;
      const encoding = cardAnimationEncoding(payload);
      const [profile, background, avatar, customBadges] = await Promise.all([
        timed('profile', () =>
          resolveProfile(payload.userId, encoding !== undefined, options.guildId, { user: options.discordUser, member: options.discordMember, roleColors: options.discordRoleColors }),
        ),
        timed('background', async () => (options.customBackground === undefined ? undefined : fetchImage(options.customBackground, 'customBackground'))),
        timed('avatar', async () => (options.customAvatar === undefined ? undefined : fetchImage(options.customAvatar, 'customAvatar'))),
        timed('badges', async () =>
          options.customBadges === undefined || options.removeBadges === true
            ? undefined
            : Promise.all(options.customBadges.map((url, index) => fetchImage(url, `customBadges.${index}`))),
        ),
      ]);
      const input = { profile, options, images: { background, avatar, customBadges } };
      if (signal?.aborted) throw new RenderAbandonedError();
      const scheduling = { tenant: payload.keyId, signal };
      const card = await timed('render', () => pool.render(input, encoding?.still ?? payload.format ?? DEFAULT_MEDIA_FORMAT, encoding?.animation, scheduling));
      // An animated request may come back still (nothing moved): the stored format is the card's.
      const { format } = card;
      const animation = card.animation && { animated: card.animation.animated, frames: card.animation.frames };
      timings.draw = card.timings.draw;
      timings.encode = card.timings.encode;
      const { mediaKey, sha256 } = mediaKeyForImage(card.image);
      await timed('store', () => parts.store.put(mediaKey, card.image, format, sha256));
      metrics.phases(timings);
      log.info({ mediaKey, format, ...animation, bytes: card.image.length, imageBytes: session.budget.usedBytes, timings, warnings: card.warnings }, 'card rendered');
      const altText = cardAltText(input);
      return { ok: true, mediaKey, format, altText, accentColor: card.accentColor, width: card.width, height: card.height, bytes: card.image.length, ...(animation && { animation }), timings, warnings: card.warnings };
    } catch (error) {
      // One image refused (or the profile failing) fails the card: its other downloads stop here.
      session.cancel();
      if (signal?.aborted) {
        // Nobody is waiting: whatever stopped the work (a cancelled download, the withdrawn
        // card), this is no failure of the card and nothing for anyone to hear about.
        metrics.jobAbandoned();
        log.info({ imageBytes: session.budget.usedBytes }, 'card abandoned: no request waits for it');
        throw new RenderAbandonedError();
      }
      metrics.imageFailed(error);
      const failure = asRenderFailure(error);
      if (!failure) {
        log.error({ err: error, attempt: context.attempt }, 'card render failed unexpectedly');
        throw error;
      }
      log.warn({ code: failure.code, retryable: failure.retryable ?? false, imageBytes: session.budget.usedBytes, err: error }, 'card render failed');
      return { ok: false, failure };
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
  };
  return { process, pool, metrics };
}
