/**
 * How a stored card is named: a content-derived UUID plus its format as the extension. Part of the
 * job contract (a job's result names its image this way); the media store checks and uses it.
 */
const MEDIA_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The image formats a card is stored in, each with the Content-Type it is served and uploaded with.
 * The format is also the file extension: `<uuid>.webp`.
 */
export const MEDIA_FORMATS = { png: 'image/png', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif' } as const;
export type MediaFormat = keyof typeof MEDIA_FORMATS;
export type MediaContentType = (typeof MEDIA_FORMATS)[MediaFormat];

/** The format of cards that ask for none: the spec's URL shape is `<uuid>.png`. */
export const DEFAULT_MEDIA_FORMAT: MediaFormat = 'png';

const isMediaFormat = (text: string): text is MediaFormat => Object.hasOwn(MEDIA_FORMATS, text);

/** A lowercase canonical UUID (8-4-4-4-12 hex) and nothing else: no dots, slashes or extension. */
export function isMediaKey(text: string): boolean {
  return typeof text === 'string' && MEDIA_KEY.test(text);
}

/** The file or object name of a key in a format: `<uuid>.png`, `<uuid>.webp`... */
export function mediaObjectName(key: string, format: MediaFormat = DEFAULT_MEDIA_FORMAT): string {
  return `${key}.${format}`;
}

/** The key and format a file or object name stands for, or undefined for any other name (`..`, other extensions, capitals). */
export function parseMediaName(name: string): { key: string; format: MediaFormat } | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const key = name.slice(0, dot);
  const format = name.slice(dot + 1);
  return isMediaKey(key) && isMediaFormat(format) ? { key, format } : undefined;
}
