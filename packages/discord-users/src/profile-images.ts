import { type Logger, withDeadline } from '@utility-api/infra';
import type { ImageFetcher } from '@utility-api/safe-fetch';
import { LRUCache } from 'lru-cache';
import type { DiscordMemberObject, DiscordUserObject } from '@utility-api/render-jobs';

/** Image sizes Discord's CDN serves: powers of two from 16 to 4096. Others are refused with 400. */
export const DISCORD_IMAGE_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;
type DiscordImageSize = (typeof DISCORD_IMAGE_SIZES)[number];

/** The card draws the avatar at well under 256 px and the banner across at most 1024 px. */
const AVATAR_SIZE: DiscordImageSize = 256;
const BANNER_SIZE: DiscordImageSize = 1024;

export type ProfileImageField = 'avatar' | 'banner' | 'avatarDecoration' | 'nameplate' | 'serverTagBadge';
/** Every CDN image kept in the byte cache: a profile's, and a leaderboard's server icon. */
type CdnImageField = ProfileImageField | 'guildIcon';

/** A server's icon as its still PNG (an animated `a_` icon's first frame), large enough for the header at `scale: 2`. */
export function guildIconUrl(cdnBaseUrl: string, guildId: string, iconHash: string): string {
  return imageUrl(cdnBaseUrl, `icons/${guildId}/${iconHash}`, AVATAR_SIZE);
}

/**
 * The static `.png` by default, also for animated (`a_`) hashes: Discord then serves the first
 * frame, which is what a still card shows, without us decoding a GIF. An animated card asks for the
 * moving variant of `a_` hashes as animated WebP (`.webp?animated=true`), which Discord serves
 * smaller than the `.gif` of the same frames.
 */
function imageUrl(cdnBaseUrl: string, path: string, size: DiscordImageSize | undefined, animated = false, extraQuery: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  if (size !== undefined) query.set('size', String(size));
  if (animated) query.set('animated', 'true');
  for (const [name, value] of Object.entries(extraQuery)) query.set(name, value);
  const search = query.size === 0 ? '' : `?${query.toString()}`;
  return `${cdnBaseUrl.replace(/\/+$/, '')}/${path}.${animated ? 'webp' : 'png'}${search}`;
}

/** The member fields that replace the user's own images; the avatar and banner only with a server id to build their URL. */
export type MemberImageFields = Pick<DiscordMemberObject, 'banner' | 'avatar_decoration_data' | 'collectibles'>;

/** Discord marks the hashes of animated avatars and banners with an `a_` prefix. */
const isAnimatedHash = (hash: string) => hash.startsWith('a_');

/**
 * The CDN URLs of the user's images; a missing hash means no URL (the card paints a default).
 * `animated`: animated avatars and banners as their moving variant, and the avatar decoration as
 * its APNG (`passthrough=true`; the still `.png` is its first frame). A member's server avatar and
 * banner (they need the server id) and its decoration and nameplate replace the user's own. The
 * nameplate is its still image (`static.png`); the server tag badge is asked for only when the user
 * shows the tag (`identity_enabled`).
 */
export function profileImageUrls(
  user: Pick<DiscordUserObject, 'id' | 'avatar' | 'banner' | 'avatar_decoration_data' | 'collectibles' | 'primary_guild'>,
  cdnBaseUrl: string,
  options: { animated?: boolean; server?: { guildId: string; avatar: string | null; banner?: string | null | undefined }; member?: MemberImageFields } = {},
): Partial<Record<ProfileImageField, string>> {
  const urls: Partial<Record<ProfileImageField, string>> = {};
  const animated = options.animated ?? false;
  const moving = (hash: string) => animated && isAnimatedHash(hash);
  const server = options.server;
  const serverPath = server && `guilds/${server.guildId}/users/${user.id}`;
  // A server avatar replaces the user's own, as `member.displayAvatarURL()` does; a server banner likewise.
  if (serverPath && server.avatar) urls.avatar = imageUrl(cdnBaseUrl, `${serverPath}/avatars/${server.avatar}`, AVATAR_SIZE, moving(server.avatar));
  else if (user.avatar) urls.avatar = imageUrl(cdnBaseUrl, `avatars/${user.id}/${user.avatar}`, AVATAR_SIZE, moving(user.avatar));
  if (serverPath && server.banner) urls.banner = imageUrl(cdnBaseUrl, `${serverPath}/banners/${server.banner}`, BANNER_SIZE, moving(server.banner));
  else if (user.banner) urls.banner = imageUrl(cdnBaseUrl, `banners/${user.id}/${user.banner}`, BANNER_SIZE, moving(user.banner));
  const decoration = (options.member?.avatar_decoration_data ?? user.avatar_decoration_data)?.asset;
  if (decoration) urls.avatarDecoration = imageUrl(cdnBaseUrl, `avatar-decoration-presets/${decoration}`, undefined, false, animated ? { passthrough: 'true' } : {});
  const nameplate = (options.member?.collectibles?.nameplate ?? user.collectibles?.nameplate)?.asset;
  // The asset is a folder path ending in `/` (checked by the schemas), its still image `static.png` inside.
  if (nameplate) urls.nameplate = `${cdnBaseUrl.replace(/\/+$/, '')}/assets/collectibles/${nameplate}static.png`;
  const guild = user.primary_guild;
  if (guild?.identity_enabled === true && guild.tag && guild.identity_guild_id && guild.badge) {
    urls.serverTagBadge = imageUrl(cdnBaseUrl, `guild-tag-badges/${guild.identity_guild_id}/${guild.badge}`, undefined);
  }
  return urls;
}

export interface ProfileImagesOptions {
  fetcher: ImageFetcher;
  /** The CDN's hostname: the only host an image may come from, redirects included. */
  onlyHost: string;
  /** Bytes of images kept; 0 keeps none. */
  maxBytes: number;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Profile images by URL in an lru-cache bounded by bytes, whose `fetch` also lets concurrent loads
 * of one URL (the same decoration preset on many users) share one download. Keying by URL is safe
 * because Discord CDN paths carry the content hash: a new avatar gets a new URL. A failure is
 * never the card's failure: the CDN drops old hashes, and a card without a banner beats no card,
 * so it is logged, left out and not cached.
 */
export function createProfileImages(options: ProfileImagesOptions) {
  const { logger } = options;
  if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) throw new RangeError(`imageCache.maxBytes must be a non-negative integer, got ${options.maxBytes}`);
  const counts = { imageCacheHits: 0, imageCacheMisses: 0, imageFailures: 0 };
  type Context = { field: CdnImageField; userId: string };
  const cache = new LRUCache<string, Buffer, Context>({
    // lru-cache wants a positive bound: with the cache off it is 1 byte, which no image fits, and
    // a download in flight is still shared.
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
    // An eviction under pressure must not cut a download others are waiting for.
    ignoreFetchAbort: true,
    fetchMethod: async (url, _stale, { context: { field, userId } }) => {
      try {
        const image = await withDeadline(options.fetcher.fetchImage(url, field, { onlyHost: options.onlyHost }), options.timeoutMs, 'image fetch');
        return image.bytes;
      } catch (error) {
        counts.imageFailures += 1;
        const reason = error instanceof Error ? error.message : 'unknown error';
        logger.warn({ userId, field, url, reason }, 'Discord profile image left out of the card');
        return undefined;
      }
    },
  });
  return {
    /** The image's bytes (`userId`: whose, or the server's id, for the logs), or `undefined` when it could not be fetched or is not a usable image. */
    async load(url: string, field: CdnImageField, userId: string): Promise<Buffer | undefined> {
      const status: LRUCache.Status<string, Buffer, Context> = {};
      const loading = cache.fetch(url, { context: { field, userId }, status });
      counts[status.fetch === 'hit' ? 'imageCacheHits' : 'imageCacheMisses'] += 1;
      return loading;
    },
    stats: () => ({ ...counts, imageCacheBytes: cache.calculatedSize, imageCacheEntries: cache.size }),
  };
}

export type ProfileImages = ReturnType<typeof createProfileImages>;
