import { createCanvas, type CanvasRenderingContext2D } from 'canvas';
import { prepareCardFonts } from '../src/fonts/card-fonts.ts';
import { withStops } from '../src/paint/shapes.ts';

/**
 * Fills with a radial gradient that ends transparent only where it paints: outside its circle
 * every pixel would be composited with nothing, so the picture is the same bytes as filling the
 * whole canvas, at a fraction of the cost (these pictures are made in every test process that draws).
 */
function fillAround(context: CanvasRenderingContext2D, x: number, y: number, radius: number): void {
  const left = Math.floor(x - radius) - 1;
  const top = Math.floor(y - radius) - 1;
  context.fillRect(left, top, Math.ceil(x + radius) + 1 - left, Math.ceil(y + radius) + 1 - top);
}

// node-canvas starts fontconfig with the first canvas a process creates. Sample pictures are drawn
// as soon as the samples load; without this, every card drawn afterwards (goldens, previews, the
// benchmark) would use the system's fonts and settings instead of the card's own, unlike production.
prepareCardFonts();

/**
 * Pictures drawn in code for previews, tests and benchmarks, so no photo or third-party asset has
 * to live in the repository. Each is deterministic: the same bytes on every run.
 */

function mulberry(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function ridge(context: CanvasRenderingContext2D, random: () => number, width: number, base: number, height: number, color: string) {
  context.beginPath();
  context.moveTo(0, base + height);
  let y = base;
  for (let x = 0; x <= width; x += 20) {
    y = Math.min(base + height * 0.4, Math.max(base - height * 0.6, y + (random() - 0.5) * height * 0.35));
    context.lineTo(x, y);
  }
  context.lineTo(width, base + height * 2);
  context.lineTo(0, base + height * 2);
  context.closePath();
  context.fillStyle = color;
  context.fill();
}

/** A ten-point star around (cx, cy), its first point at `start` radians. */
function starPath(context: CanvasRenderingContext2D, cx: number, cy: number, outer: number, inner: number, start: number) {
  context.beginPath();
  for (let point = 0; point < 10; point += 1) {
    const radius = point % 2 === 0 ? outer : inner;
    const angle = start + (point * Math.PI) / 5;
    const x = cx + radius * Math.cos(angle);
    const y = cy + radius * Math.sin(angle);
    if (point === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  }
  context.closePath();
}

/** A dusk landscape with a sun and mountain ridges, JPEG, 1600x640: a stand-in for a photo banner. */
export function sampleLandscapeJpeg(seed = 7): Buffer {
  const width = 1600;
  const height = 640;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const random = mulberry(seed);
  context.fillStyle = withStops(context.createLinearGradient(0, 0, 0, height), [[0, '#1b2a6b'], [0.55, '#c2577a'], [1, '#f6b26b']]);
  context.fillRect(0, 0, width, height);
  const sunStops = [[0, 'rgba(255, 240, 200, 1)'], [0.25, 'rgba(255, 200, 120, 0.8)'], [1, 'rgba(255, 160, 100, 0)']] as const;
  context.fillStyle = withStops(context.createRadialGradient(1100, 380, 10, 1100, 380, 260), sunStops);
  fillAround(context, 1100, 380, 260);
  for (let star = 0; star < 180; star += 1) {
    context.fillStyle = `rgba(255, 255, 255, ${0.3 + random() * 0.6})`;
    context.fillRect(random() * width, random() * height * 0.4, 2, 2);
  }
  ridge(context, random, width, 420, 120, '#6b3a6e');
  ridge(context, random, width, 500, 110, '#402650');
  ridge(context, random, width, 580, 90, '#1f1530');
  return canvas.toBuffer('image/jpeg', { quality: 0.9 });
}

/** A teal-and-violet abstract with soft circles, PNG, 1200x400: a second background. */
export function sampleAbstractPng(seed = 3): Buffer {
  const width = 1200;
  const height = 400;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const random = mulberry(seed);
  context.fillStyle = withStops(context.createLinearGradient(0, 0, width, height), [[0, '#0f766e'], [1, '#4c1d95']]);
  context.fillRect(0, 0, width, height);
  for (let blob = 0; blob < 14; blob += 1) {
    const x = random() * width;
    const y = random() * height;
    const radius = 40 + random() * 180;
    const hue = Math.round(160 + random() * 140);
    context.fillStyle = withStops(context.createRadialGradient(x, y, 0, x, y, radius), [[0, `hsla(${hue}, 80%, 65%, 0.55)`], [1, `hsla(${hue}, 80%, 65%, 0)`]]);
    fillAround(context, x, y, radius);
  }
  return canvas.toBuffer('image/png');
}

/** A friendly round character face on a warm gradient, PNG, 256x256: a stand-in avatar. */
export function sampleAvatarPng(hue = 28): Buffer {
  const size = 256;
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = withStops(context.createLinearGradient(0, 0, size, size), [[0, `hsl(${hue}, 90%, 62%)`], [1, `hsl(${hue + 40}, 85%, 45%)`]]);
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#fff4e6';
  context.beginPath();
  context.arc(128, 140, 78, 0, Math.PI * 2);
  context.fill();
  context.fillStyle = '#2b2140';
  for (const x of [100, 156]) {
    context.beginPath();
    context.arc(x, 128, 10, 0, Math.PI * 2);
    context.fill();
  }
  context.strokeStyle = '#2b2140';
  context.lineWidth = 7;
  context.lineCap = 'round';
  context.beginPath();
  context.arc(128, 150, 30, 0.15 * Math.PI, 0.85 * Math.PI);
  context.stroke();
  context.fillStyle = 'rgba(255, 120, 120, 0.45)';
  for (const x of [82, 174]) {
    context.beginPath();
    context.ellipse(x, 160, 14, 9, 0, 0, Math.PI * 2);
    context.fill();
  }
  return canvas.toBuffer('image/png');
}

/** A badge image: a colored rounded star on transparency, PNG, 64x64. */
export function sampleBadgePng(color = '#ffb020'): Buffer {
  const canvas = createCanvas(64, 64);
  const context = canvas.getContext('2d');
  starPath(context, 32, 33, 30, 13, -Math.PI / 2);
  context.fillStyle = color;
  context.fill();
  context.lineWidth = 3;
  context.lineJoin = 'round';
  context.strokeStyle = 'rgba(0, 0, 0, 0.35)';
  context.stroke();
  return canvas.toBuffer('image/png');
}

/** An avatar decoration: a ring of small stars around a transparent middle, PNG, 288x288 (1.2x avatar). */
export function sampleDecorationPng(): Buffer {
  const size = 288;
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  const center = size / 2;
  for (let index = 0; index < 12; index += 1) {
    const angle = (index / 12) * Math.PI * 2;
    starPath(context, center + Math.cos(angle) * 128, center + Math.sin(angle) * 128, 13, 5.5, angle);
    context.fillStyle = index % 2 === 0 ? '#ffd76a' : '#ff9ad5';
    context.fill();
  }
  return canvas.toBuffer('image/png');
}

/** One flat color, PNG, 900x300: the hardest plain grounds (white, black) for the card's text. */
export function sampleSolidPng(color: string): Buffer {
  const canvas = createCanvas(900, 300);
  const context = canvas.getContext('2d');
  context.fillStyle = color;
  context.fillRect(0, 0, 900, 300);
  return canvas.toBuffer('image/png');
}

/**
 * A busy picture, PNG, 1200x400: hard-edged stripes and blocks from black to white in every hue,
 * so any text box lands on both its best and its worst ground.
 */
export function sampleBusyPng(seed = 11): Buffer {
  const width = 1200;
  const height = 400;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const random = mulberry(seed);
  for (let stripe = 0; stripe < width; stripe += 24) {
    context.fillStyle = `hsl(${Math.round(random() * 360)}, ${Math.round(40 + random() * 60)}%, ${Math.round(random() * 100)}%)`;
    context.fillRect(stripe, 0, 24, height);
  }
  for (let block = 0; block < 160; block += 1) {
    const light = random() < 0.5;
    context.fillStyle = light ? `hsl(${Math.round(random() * 360)}, 80%, ${Math.round(80 + random() * 20)}%)` : `hsl(${Math.round(random() * 360)}, 70%, ${Math.round(random() * 25)}%)`;
    context.fillRect(random() * width, random() * height, 10 + random() * 90, 6 + random() * 40);
  }
  return canvas.toBuffer('image/png');
}

/** A pale sky with white clouds, JPEG, 1600x640: the everyday light photo. */
export function sampleLightPhotoJpeg(seed = 5): Buffer {
  const width = 1600;
  const height = 640;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const random = mulberry(seed);
  context.fillStyle = withStops(context.createLinearGradient(0, 0, 0, height), [[0, '#9fd3f7'], [0.7, '#dff1fc'], [1, '#f4efe3']]);
  context.fillRect(0, 0, width, height);
  for (let cloud = 0; cloud < 40; cloud += 1) {
    const x = random() * width;
    const y = random() * height * 0.8;
    const radius = 40 + random() * 140;
    context.fillStyle = withStops(context.createRadialGradient(x, y, 0, x, y, radius), [[0, 'rgba(255, 255, 255, 0.95)'], [1, 'rgba(255, 255, 255, 0)']]);
    fillAround(context, x, y, radius);
  }
  return canvas.toBuffer('image/jpeg', { quality: 0.9 });
}

/**
 * A nameplate's artwork as Discord's CDN serves its `static.png`: leaves drifting in from the right
 * on transparency, PNG, 600x120 (a stand-in for a collectible such as `bonsai`).
 */
export function sampleNameplatePng(seed = 17): Buffer {
  const canvas = createCanvas(600, 120);
  const context = canvas.getContext('2d');
  const random = mulberry(seed);
  for (let index = 0; index < 16; index += 1) {
    context.fillStyle = `hsla(${95 + random() * 40}, 60%, ${30 + random() * 25}%, 0.85)`;
    context.beginPath();
    context.ellipse(300 + random() * 300, random() * 120, 16 + random() * 14, 8 + random() * 8, random() * Math.PI, 0, Math.PI * 2);
    context.fill();
  }
  return canvas.toBuffer('image/png');
}
