import { type CanvasRenderingContext2D, createCanvas } from 'canvas';
import sharp from 'sharp';
import type { CardInput } from '../src/profile/card-profile.ts';

/**
 * Animated sources drawn like the real thing, for the animated-card benchmark: a photo-like
 * background whose light drifts across it, and an avatar with a turning spotlight. Drawn with
 * canvas, encoded by libvips as animated WebP (background) and GIF (avatar, as Discord's `a_`
 * avatars were for years).
 */
async function animation(format: 'gif' | 'webp', width: number, height: number, frames: number, delayMs: number, draw: (context: CanvasRenderingContext2D, phase: number) => void): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const pixels = Buffer.alloc(width * height * 4 * frames);
  for (let frame = 0; frame < frames; frame += 1) {
    draw(context, frame / frames);
    pixels.set(context.getImageData(0, 0, width, height).data, frame * width * height * 4);
  }
  const image = sharp(pixels, { raw: { width, height: height * frames, channels: 4, pageHeight: height } });
  const options = { loop: 0, delay: Array.from({ length: frames }, () => delayMs) };
  return format === 'gif' ? image.gif(options).toBuffer() : image.webp({ ...options, quality: 85 }).toBuffer();
}

/** A 900x300 background of `frames` frames of 50 ms: a dusk gradient with a sun crossing it. */
export function movingBackground(frames = 40): Promise<Buffer> {
  return animation('webp', 900, 300, frames, 50, (context, phase) => {
    const sky = context.createLinearGradient(0, 0, 0, 300);
    sky.addColorStop(0, '#1d2b64');
    sky.addColorStop(1, '#f8cdda');
    context.fillStyle = sky;
    context.fillRect(0, 0, 900, 300);
    const sun = context.createRadialGradient(100 + phase * 700, 180, 10, 100 + phase * 700, 180, 140);
    sun.addColorStop(0, 'rgba(255, 220, 120, 1)');
    sun.addColorStop(1, 'rgba(255, 220, 120, 0)');
    context.fillStyle = sun;
    context.fillRect(0, 0, 900, 300);
    context.fillStyle = '#2b1b3d';
    for (let hill = 0; hill < 6; hill += 1) {
      context.beginPath();
      context.ellipse(hill * 180, 320, 160, 80 + (hill % 3) * 20, 0, 0, Math.PI * 2);
      context.fill();
    }
  });
}

/** A 256x256 avatar of 24 frames of 60 ms: a face-like disc with a light turning around it. */
export function movingAvatar(): Promise<Buffer> {
  return animation('gif', 256, 256, 24, 60, (context, phase) => {
    context.fillStyle = '#5865f2';
    context.fillRect(0, 0, 256, 256);
    const angle = phase * Math.PI * 2;
    const light = context.createRadialGradient(128 + Math.cos(angle) * 80, 128 + Math.sin(angle) * 80, 5, 128, 128, 180);
    light.addColorStop(0, '#ffffff');
    light.addColorStop(1, 'rgba(88, 101, 242, 0)');
    context.fillStyle = light;
    context.fillRect(0, 0, 256, 256);
    context.fillStyle = '#23272a';
    context.beginPath();
    context.arc(96, 110, 14, 0, Math.PI * 2);
    context.arc(160, 110, 14, 0, Math.PI * 2);
    context.fill();
  });
}

/** `base` with the moving avatar and a 40-frame moving custom background: the benchmark's animated card. */
export async function animatedBenchCard(base: CardInput): Promise<CardInput> {
  const [avatar, background] = await Promise.all([movingAvatar(), movingBackground()]);
  return { ...base, profile: { ...base.profile, avatar }, options: { ...base.options, customBackground: 'https://example.com/dusk.webp' }, images: { ...base.images, background } };
}
