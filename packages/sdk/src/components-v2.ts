/**
 * A card as a Discord Components V2 message, in Discord's own JSON (no discord.js needed): a
 * container tinted with the card's accent colour holding the card in a media gallery, its alt text
 * as the gallery item's description (what Discord reads to screen readers). The discord.js helper
 * (`cardMessage`) and the Python SDK's (`card_message`) build this same payload.
 */

/** Discord's message flag for a Components V2 message (`IS_COMPONENTS_V2`, 1 << 15): components only, no `content` or embeds. */
export const IS_COMPONENTS_V2 = 1 << 15;

/** The component types used here (Discord's `ComponentType`). */
export const COMPONENT_TYPES = { textDisplay: 10, mediaGallery: 12, container: 17 } as const;

/** Discord's limit on a media gallery item's `description`; the API's alt text never exceeds it (`ALT_TEXT_MAX_LENGTH`). */
const MEDIA_DESCRIPTION_MAX_LENGTH = 1024;
/** Discord's limit on all text of one Components V2 message. */
const COMPONENTS_V2_TEXT_MAX_LENGTH = 4000;

export interface TextDisplayComponent {
  type: typeof COMPONENT_TYPES.textDisplay;
  content: string;
}

export interface MediaGalleryComponent {
  type: typeof COMPONENT_TYPES.mediaGallery;
  items: { media: { url: string }; description?: string }[];
}

export interface ContainerComponent {
  type: typeof COMPONENT_TYPES.container;
  /** The container's side bar, a 24-bit integer colour; left out when the card told none. */
  accent_color?: number;
  components: (TextDisplayComponent | MediaGalleryComponent)[];
}

export interface CardComponentsInput {
  /** The attachment's file name (`card.png`): the gallery refers to it as `attachment://<fileName>`. */
  fileName: string;
  /** The card's alt text (`X-Alt-Text`, `altText`). */
  altText: string;
  /** The card's accent (`X-Card-Accent` as an integer); undefined: an untinted container. */
  accentColor?: number | undefined;
  /** Markdown drawn above the card inside the container (a greeting, a mention); a V2 message has no `content`. */
  text?: string | undefined;
}

/** The message's `flags` and `components`; send them with the card as the attachment named `fileName`. */
export interface CardComponents {
  flags: typeof IS_COMPONENTS_V2;
  components: [ContainerComponent];
}

/** `#rrggbb` (the `X-Card-Accent` header) as Discord's integer colour; undefined for anything else. */
export function accentColorFromHeader(header: string | null | undefined): number | undefined {
  const match = /^#([0-9a-f]{6})$/i.exec(header?.trim() ?? '');
  return match ? Number.parseInt(match[1]!, 16) : undefined;
}

export function cardComponents({ fileName, altText, accentColor, text }: CardComponentsInput): CardComponents {
  if (text !== undefined && text.length + altText.length > COMPONENTS_V2_TEXT_MAX_LENGTH) {
    throw new RangeError(`text and alt text together exceed Discord's ${COMPONENTS_V2_TEXT_MAX_LENGTH} characters per message`);
  }
  const gallery: MediaGalleryComponent = {
    type: COMPONENT_TYPES.mediaGallery,
    items: [{ media: { url: `attachment://${fileName}` }, ...(altText === '' ? {} : { description: altText.slice(0, MEDIA_DESCRIPTION_MAX_LENGTH) }) }],
  };
  const components: ContainerComponent['components'] = text === undefined || text === '' ? [gallery] : [{ type: COMPONENT_TYPES.textDisplay, content: text }, gallery];
  return { flags: IS_COMPONENTS_V2, components: [{ type: COMPONENT_TYPES.container, ...(accentColor === undefined ? {} : { accent_color: accentColor }), components }] };
}
