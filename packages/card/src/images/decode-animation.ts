import type { Canvas } from 'canvas';
import sharp, { type OutputInfo } from 'sharp';
import { corruptImage } from './card-image-error.ts';
import { type CardPixelBudget, type ImageTransform, rgbaCanvas, sniffImageFormat } from './decode-image.ts';
import { stripPngMetadata } from './decoder-guards.ts';
import { keepFirstFrames } from './animation-frames.ts';
import { MAX_SOURCE_FRAMES } from '@utility-api/render-jobs';
import { type ApngLayout, compositeApngFrames, readApngLayout } from './decode-apng.ts';
import { framesWithinDuration, playedDelayMs } from '../animation/timeline.ts';

/** A moving source at its drawn size: its frames and how long each shows (played delays, ms). */
export interface AnimatedSource {
  frames: Canvas[];
  delaysMs: number[];
}

/**
 * The most bytes one source's frames may take once decoded at their drawn size (4 bytes a pixel):
 * libvips hands back every frame it read in one buffer, so this bounds the memory of a source with
 * hundreds of frames (a 1x avatar at 184 px keeps ~240 frames, about 5 s at 20 ms a frame).
 */
const MAX_DECODED_BYTES = 32 * 1024 * 1024;

/**
 * Checks the frames of an image whose first frame the card already checked, decoded and charged
 * (scene.ts), beside decode-image.ts as the other reader of untrusted bytes: undefined when it does
 * not move, else the decode of its frames to run later (a card checks its sources one after the
 * other, so the budget is charged in a fixed order, then decodes them side by side). Only libvips
 * reads them, with the same guards as a still image (decode-image.ts), plus:
 * - a GIF or WebP is cut to its first MAX_SOURCE_FRAMES (500) frames before libvips reads its
 *   header, and to the frames the card plays before they are decoded (animation-frames.ts): later
 *   frames are never read, and libwebp's cost, quadratic in the frame count, stays small;
 * - frames that start after the longest a card plays (10 s) are not read;
 * - each later frame is charged to the card's pixel budget at its declared size; when the budget
 *   (or MAX_DECODED_BYTES at the drawn size) runs out the animation is cut there, never refused,
 *   so an animated card accepts everything the still card accepts;
 * - `transform` (the resize to the drawn size) runs inside libvips on every frame, as for stills.
 * APNG: the PNG loader in sharp 0.35's prebuilt libvips (libspng) reads the default image only (one
 *   page), so a PNG that libvips accepted and whose acTL comes before its first IDAT is read by
 *   decode-apng.ts: frames found by walking chunks (acTL's count is not trusted), each decoded by
 *   libvips as a PNG of its own size, composited at the image's size (IHDR, already within the
 *   per-image limit by the still path) and charged like any other frame, at that size.
 * Images turned by EXIF orientation (the still path turns them) are drawn still too.
 * A damaged later frame is `corrupt`: the caller then draws the still image with a warning.
 */
export async function checkAnimation(
  bytes: Buffer,
  options: { field: string; budget: CardPixelBudget; transform: ImageTransform; drawnPixels: number },
): Promise<(() => Promise<AnimatedSource>) | undefined> {
  const { field } = options;
  const format = sniffImageFormat(bytes, field);
  const input = format === 'png' ? stripPngMetadata(bytes, field) : keepFirstFrames(bytes, format, field, MAX_SOURCE_FRAMES);
  const header = await sharp(input, { animated: true, limitInputPixels: false, failOn: 'warning', ignoreIcc: true })
    .metadata()
    .catch(() => {
      throw corruptImage(field, 'the image could not be decoded; it may be damaged');
    });
  const pages = header.pages ?? 1;
  if ((header.orientation ?? 1) > 1) return undefined;
  if (pages < 2) return format === 'png' ? checkApng(input, options) : undefined;
  const width = header.width;
  const height = header.pageHeight ?? header.height / pages;
  const delays = Array.from({ length: pages }, (_, index) => playedDelayMs(header.delay?.[index]));
  const wanted = Math.min(framesWithinDuration(delays), Math.floor(MAX_DECODED_BYTES / Math.max(1, options.drawnPixels * 4)));
  // The first frame was charged by the still path; only the others are charged here.
  const frames = 1 + options.budget.chargeFrames(width, height, wanted - 1);
  if (frames < 2) return undefined;
  return async () => decodeFrames(keepFirstFrames(input, format, field, frames), { field, frames, width, height, transform: options.transform, delaysMs: delays.slice(0, frames) });
}

/** {@link checkAnimation} for an APNG (one page to libvips): the same duration, memory and budget caps. */
function checkApng(input: Buffer, options: { field: string; budget: CardPixelBudget; transform: ImageTransform; drawnPixels: number }): (() => Promise<AnimatedSource>) | undefined {
  const layout = readApngLayout(input, options.field);
  if (!layout) return undefined;
  const delays = layout.frames.map((frame) => playedDelayMs(frame.delayMs));
  const wanted = Math.min(framesWithinDuration(delays), Math.floor(MAX_DECODED_BYTES / Math.max(1, options.drawnPixels * 4)));
  const frames = 1 + options.budget.chargeFrames(layout.width, layout.height, wanted - 1);
  if (frames < 2) return undefined;
  // Composited no larger than the card draws it: the drawn region's side, doubled to cover any aspect
  // up to 4:1 and to leave the transform's own resize something to do (the composite's memory then
  // follows the card, not the image: 3 x 64 MiB for a 4000 px one at full size).
  const scale = Math.min(1, (2 * Math.sqrt(options.drawnPixels)) / Math.min(layout.width, layout.height));
  return () => decodeApngFrames(layout, { field: options.field, frames, scale, transform: options.transform, delaysMs: delays.slice(0, frames) });
}

/** The first `frames` frames of an APNG, composited, then each resized as other sources' frames are. */
async function decodeApngFrames(layout: ApngLayout, options: { field: string; frames: number; scale: number; transform: ImageTransform; delaysMs: number[] }): Promise<AnimatedSource> {
  const canvases: Canvas[] = [];
  await compositeApngFrames(layout, options.frames, options.field, async (rgba, size) => {
    const raw = { ...size, channels: 4 as const };
    let resized: { data: Buffer; info: OutputInfo };
    try {
      resized = await options.transform(sharp(rgba, { raw })).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    } catch {
      throw corruptImage(options.field, 'a frame of the animation could not be decoded; it may be damaged');
    }
    canvases.push(rgbaCanvas(resized.data, resized.info.width, resized.info.height));
  }, options.scale);
  return { frames: canvases, delaysMs: options.delaysMs };
}

/** The pixels of the first `frames` frames, checked and charged by {@link checkAnimation}. */
async function decodeFrames(input: Buffer, options: { field: string; frames: number; width: number; height: number; transform: ImageTransform; delaysMs: number[] }): Promise<AnimatedSource> {
  const { field, frames, width, height } = options;
  const pipeline = options.transform(sharp(input, { pages: frames, limitInputPixels: frames * width * height, failOn: 'warning', ignoreIcc: true }));
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch {
    throw corruptImage(field, 'a frame of the animation could not be decoded; it may be damaged');
  }
  const frameWidth = pixels.info.width;
  const frameHeight = pixels.info.height / frames;
  const frameBytes = frameWidth * frameHeight * 4;
  const canvases = Array.from({ length: frames }, (_, index) => rgbaCanvas(pixels.data.subarray(index * frameBytes, (index + 1) * frameBytes), frameWidth, frameHeight));
  return { frames: canvases, delaysMs: options.delaysMs };
}
