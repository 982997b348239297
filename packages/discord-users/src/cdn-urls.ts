import { type DiscordUser } from './discord-user.ts';

/** Image sizes Discord's CDN serves: powers of two from 16 to 4096. Others are refused with 400. */
export const DISCORD_IMAGE_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;
type DiscordImageSize = (typeof DISCORD_IMAGE_SIZES)[number];

/** The card draws the avatar at well under 256 px and the banner across at most 1024 px. */
const AVATAR_SIZE: DiscordImageSize = 256;
const BANNER_SIZE: DiscordImageSize = 1024;

interface ProfileImageUrls {
  avatar?: string;
  banner?: string;
  avatarDecoration?: string;
}

function withoutTrailingSlash(base: string): string {
  return base.replace(/\/+$/, '');
}

/**
 * Always the static `.png`, also for animated (`a_`) hashes: Discord then serves the first frame,
 * which is what a still card shows, without us decoding a GIF.
 */
function imageUrl(cdnBaseUrl: string, path: string, size: DiscordImageSize | undefined): string {
  const query = size === undefined ? '' : `?size=${size}`;
  return `${withoutTrailingSlash(cdnBaseUrl)}/${path}.png${query}`;
}

/** The CDN URLs of the user's images; a missing hash means no URL (the card paints a default). */
export function profileImageUrls(user: DiscordUser, cdnBaseUrl: string): ProfileImageUrls {
  const urls: ProfileImageUrls = {};
  if (user.avatar) urls.avatar = imageUrl(cdnBaseUrl, `avatars/${user.id}/${user.avatar}`, AVATAR_SIZE);
  if (user.banner) urls.banner = imageUrl(cdnBaseUrl, `banners/${user.id}/${user.banner}`, BANNER_SIZE);
  const decoration = user.avatar_decoration_data?.asset;
  if (decoration) urls.avatarDecoration = imageUrl(cdnBaseUrl, `avatar-decoration-presets/${decoration}`, undefined);
  return urls;
}
