/**
 * Three box blurs in a row approximate a Gaussian (the central limit theorem at work); each box is
 * separable and runs in constant time per pixel with a running sum, whatever the radius. Works on
 * RGBA in place, premultiplying alpha first so transparent pixels do not bleed their color.
 */
export function gaussianishBlur(data: Uint8ClampedArray, width: number, height: number, radius: number, passes = 3): void {
  if (radius < 1 || width === 0 || height === 0) return;
  const pixels = Float32Array.from(data);
  const opaque = isOpaque(data);
  if (!opaque) premultiply(pixels);
  const scratch = new Float32Array(pixels.length);
  for (let pass = 0; pass < passes; pass += 1) {
    boxPass(pixels, scratch, width, height, radius, 4, width * 4);
    boxPass(scratch, pixels, height, width, radius, width * 4, 4);
  }
  if (!opaque) unpremultiply(pixels);
  data.set(pixels);
}

/**
 * One box pass along `lines` lines of `length` pixels each: `step` is the distance (in array
 * slots) between two neighbours on a line, `lineStep` between the starts of two lines, so rows and
 * columns share the code. Edges repeat the outermost pixel, so borders do not darken. The four
 * channels run together with four running sums: this loop is the whole cost of a blur.
 */
function boxPass(from: Float32Array, to: Float32Array, length: number, lines: number, radius: number, step: number, lineStep: number): void {
  const scale = 1 / (radius * 2 + 1);
  const last = length - 1;
  for (let line = 0; line < lines; line += 1) {
    const start = line * lineStep;
    let [r, g, b, a] = [0, 0, 0, 0];
    for (let index = -radius; index <= radius; index += 1) {
      const at = start + Math.min(last, Math.max(0, index)) * step;
      r += from[at] as number;
      g += from[at + 1] as number;
      b += from[at + 2] as number;
      a += from[at + 3] as number;
    }
    for (let index = 0; index < length; index += 1) {
      const out = start + index * step;
      to[out] = r * scale;
      to[out + 1] = g * scale;
      to[out + 2] = b * scale;
      to[out + 3] = a * scale;
      const enter = start + Math.min(last, index + radius + 1) * step;
      const leave = start + Math.max(0, index - radius) * step;
      r += (from[enter] as number) - (from[leave] as number);
      g += (from[enter + 1] as number) - (from[leave + 1] as number);
      b += (from[enter + 2] as number) - (from[leave + 2] as number);
      a += (from[enter + 3] as number) - (from[leave + 3] as number);
    }
  }
}

/** Photos usually are: then premultiplying changes nothing and is skipped. */
function isOpaque(data: Uint8ClampedArray): boolean {
  for (let index = 3; index < data.length; index += 4) if (data[index] !== 255) return false;
  return true;
}

function premultiply(pixels: Float32Array): void {
  for (let index = 0; index < pixels.length; index += 4) {
    const alpha = (pixels[index + 3] as number) / 255;
    pixels[index] = (pixels[index] as number) * alpha;
    pixels[index + 1] = (pixels[index + 1] as number) * alpha;
    pixels[index + 2] = (pixels[index + 2] as number) * alpha;
  }
}

function unpremultiply(pixels: Float32Array): void {
  for (let index = 0; index < pixels.length; index += 4) {
    const alpha = (pixels[index + 3] as number) / 255;
    if (alpha === 0) continue;
    pixels[index] = (pixels[index] as number) / alpha;
    pixels[index + 1] = (pixels[index + 1] as number) / alpha;
    pixels[index + 2] = (pixels[index + 2] as number) / alpha;
  }
}
