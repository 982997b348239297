export { createClient, decodeExtValue, UtilityApiClient, UtilityApiError, type CardImage, type ClientOptions, type RetryOptions } from './client.ts';
export type * from './types.ts';
