/**
 * Fetches one image and returns its bytes, or throws. Production passes the safe fetcher pinned to
 * the CDN host (size cap, no redirects elsewhere); `field` names the image in its errors.
 */
export type ImageFetcher = (url: string, field: string) => Promise<Buffer>;
