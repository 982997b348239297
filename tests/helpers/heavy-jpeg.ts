import { createCanvas } from 'canvas';

/** The largest side a 16-megapixel card image may have when square (MAX_IMAGE_PIXELS = 16,000,000). */
const HEAVY_SIDE = 4000;

/**
 * A legal but expensive card background: a 4000x4000 progressive JPEG (16 megapixels, the most
 * an image may have, about half a megabyte). Decoding it alone takes a render worker a few hundred
 * milliseconds and 64 MB, so a card drawn from it is reliably caught while drawing. `variant`
 * changes the content, so no worker cache can answer a second card from the first one's decode.
 */
export function heavyProgressiveJpeg(variant: number): Buffer {
  const canvas = createCanvas(HEAVY_SIDE, HEAVY_SIDE);
  const context = canvas.getContext('2d');
  const gradient = context.createLinearGradient(0, 0, HEAVY_SIDE, HEAVY_SIDE);
  gradient.addColorStop(0, `hsl(${(variant * 47) % 360}, 55%, 35%)`);
  gradient.addColorStop(1, `hsl(${(variant * 47 + 180) % 360}, 65%, 60%)`);
  context.fillStyle = gradient;
  context.fillRect(0, 0, HEAVY_SIDE, HEAVY_SIDE);
  // Blocks of colour give the encoder detail to keep, so decoding has real work to do.
  for (let index = 0; index < 400; index += 1) {
    context.fillStyle = `hsl(${(index * 37 + variant * 11) % 360}, 60%, 50%)`;
    context.fillRect((index * 97) % HEAVY_SIDE, (index * 211) % HEAVY_SIDE, 150, 150);
  }
  return canvas.toBuffer('image/jpeg', { quality: 0.9, progressive: true });
}
