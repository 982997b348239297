import type { Rgb } from '@utility-api/render-jobs';
import { createCanvas } from 'canvas';
import { fromHsl, toHsl } from '../color/color.ts';
import type { Drawable } from './soften.ts';

/**
 * The colour a picture is "about", for a card whose caller gave none: a pink avatar gives a pink
 * ring, not the lime a hash of the user id used to pick. Read cheaply: the picture drawn at
 * SAMPLE_SIDE x SAMPLE_SIDE (enough for its dominant hues; 0.7 ms for an avatar, 1-2.5 ms for a
 * background, measured on the loaded 2-core machine), pixels grouped by hue into
 * HUE_BUCKETS, the bucket with the most colour (pixels weighted by chroma, so a vivid backdrop
 * outweighs pale skin) wins, and its mean hue is made vivid enough to draw a ring and a border
 * with (VIVID).
 */
const SAMPLE_SIDE = 24;
const HUE_BUCKETS = 12;
/** Pixels this grey, dark or light carry no hue worth taking (skin in shadow, white, black). */
const COLOURFUL = { minSaturation: 0.22, minLightness: 0.1, maxLightness: 0.9 } as const;
/** The winning hue must cover this share of the opaque pixels: a grey photo with a red dot has no colour of its own. */
const MIN_SHARE = 0.06;
/** The accent's saturation and lightness range: vivid beside white text, never neon, never mud. */
const VIVID = { minSaturation: 0.5, maxSaturation: 0.85, minLightness: 0.48, maxLightness: 0.62 } as const;

/** Read once per decoded picture: decoded images and backgrounds are cached objects, used card after card. */
const known = new WeakMap<Drawable, Rgb | null>();

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The picture's dominant vivid colour, or undefined when it has none (grey, black and white, or transparent). */
export function dominantColor(image: Drawable): Rgb | undefined {
  const cached = known.get(image);
  if (cached !== undefined) return cached ?? undefined;
  const found = readDominantColor(image);
  known.set(image, found ?? null);
  return found;
}

function readDominantColor(image: Drawable): Rgb | undefined {
  const canvas = createCanvas(SAMPLE_SIDE, SAMPLE_SIDE);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  context.drawImage(image, 0, 0, SAMPLE_SIDE, SAMPLE_SIDE);
  const { data } = context.getImageData(0, 0, SAMPLE_SIDE, SAMPLE_SIDE);
  const buckets = Array.from({ length: HUE_BUCKETS }, () => ({ weight: 0, count: 0, x: 0, y: 0, saturation: 0, lightness: 0 }));
  let opaque = 0;
  for (let offset = 0; offset < data.length; offset += 4) {
    if ((data[offset + 3] ?? 0) < 128) continue;
    opaque += 1;
    const { h, s, l } = toHsl({ r: data[offset] ?? 0, g: data[offset + 1] ?? 0, b: data[offset + 2] ?? 0 });
    if (s < COLOURFUL.minSaturation || l < COLOURFUL.minLightness || l > COLOURFUL.maxLightness) continue;
    // Buckets centred on red, so reds just under 360° and just over 0° count together.
    const bucket = buckets[Math.floor(((h + 180 / HUE_BUCKETS) % 360) / (360 / HUE_BUCKETS))]!;
    const chroma = s * (1 - Math.abs(2 * l - 1));
    bucket.weight += chroma;
    bucket.count += 1;
    // The mean hue as a mean direction on the wheel, weighted like the bucket.
    bucket.x += Math.cos((h * Math.PI) / 180) * chroma;
    bucket.y += Math.sin((h * Math.PI) / 180) * chroma;
    bucket.saturation += s;
    bucket.lightness += l;
  }
  const best = buckets.reduce((first, second) => (second.weight > first.weight ? second : first));
  if (opaque === 0 || best.count < opaque * MIN_SHARE) return undefined;
  const hue = (Math.atan2(best.y, best.x) * 180) / Math.PI;
  return fromHsl(
    (hue + 360) % 360,
    clamp(best.saturation / best.count, VIVID.minSaturation, VIVID.maxSaturation),
    clamp(best.lightness / best.count, VIVID.minLightness, VIVID.maxLightness),
  );
}
