/**
 * The one module through which every remote image is fetched: SSRF-checked on the address actually
 * connected to, bounded in time and bytes, and judged by its magic bytes and header while it arrives.
 */
export { classifyAddress, type AddressClass } from './address-class.ts';
export { chooseDestination, type DestinationRules } from './destination.ts';
export { checkFetchTarget } from './fetch-target.ts';
export { createFetchSession, type FetchSession } from './fetch-session.ts';
export { ImageFetchError, type ImageFetchRefusal } from './image-fetch-error.ts';
export { createImageFetcher, type ImageFetcher } from './image-fetcher.ts';
export { PrivateAllowList } from './private-allow-list.ts';
