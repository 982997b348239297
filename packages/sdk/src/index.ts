export { createClient, decodeExtValue, UtilityApiClient, UtilityApiError, type CardImage, type ClientOptions, type RetryOptions } from './client.ts';
export { cardLinkKeyId, cardUrl, type CardUrlOptions } from './card-links.ts';
export {
  accentColorFromHeader, cardComponents, COMPONENT_TYPES, IS_COMPONENTS_V2,
  type CardComponents, type CardComponentsInput, type ContainerComponent, type MediaGalleryComponent, type TextDisplayComponent,
} from './components-v2.ts';
export type * from './types.ts';
