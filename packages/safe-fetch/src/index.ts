/**
 * The one module through which every remote image is fetched: SSRF-checked on the address actually
 * connected to, bounded in time and bytes, and judged by its magic bytes and header while it arrives.
 */
export { classifyAddress, type AddressClass, type NonPublicRange } from './address-class.ts';
export { chooseDestination, type Destination, type DestinationRules } from './destination.ts';
export { checkFetchTarget, MAX_URL_LENGTH, type FetchTarget, type TargetRules } from './fetch-target.ts';
export { FetchBudget } from './fetch-budget.ts';
export { createFetchSession, type FetchSession } from './fetch-session.ts';
export { ImageFetchError, type ImageFetchRefusal } from './image-fetch-error.ts';
export { createImageFetcher, type FetchedImage, type FetchImageOptions, type ImageFetcher } from './image-fetcher.ts';
export { PrivateAllowList } from './private-allow-list.ts';
export { DEFAULT_SAFE_FETCH_SETTINGS, type SafeFetchSettings } from './settings.ts';
