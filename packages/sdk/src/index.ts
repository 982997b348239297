export { createClient, decodeExtValue, UtilityApiClient, UtilityApiError, type CardImage, type ClientOptions, type RetryOptions } from './client.ts';
export { cardLinkKeyId, cardUrl, type CardUrlOptions } from './card-links.ts';
export type * from './types.ts';
