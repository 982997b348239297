import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/** Runs an installed tool on the bytes written to a temporary file, and returns what it printed. */
function inspect(tool: string, args: readonly string[], bytes: Buffer, name: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'animated-card-'));
  try {
    const file = join(directory, name);
    writeFileSync(file, bytes);
    return execFileSync(tool, [...args, file], { encoding: 'utf8' });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Frame count, durations (ms) and loop count of an animated WebP, as libwebp's `webpmux -info` reads them. */
export function webpmuxInfo(bytes: Buffer): { frames: number; durationsMs: number[]; loop: number; width: number; height: number } {
  const text = inspect('webpmux', ['-info'], bytes, 'card.webp');
  const [, width, height] = /Canvas size: (\d+) x (\d+)/.exec(text) ?? [];
  const frames = Number(/Number of frames: (\d+)/.exec(text)?.[1]);
  const loop = Number(/Loop Count\s*:\s*(\d+)/.exec(text)?.[1]);
  // Frame rows: "  1:   900   300    no        0        0      100 background ..."; duration is the 7th column.
  const durationsMs = [...text.matchAll(/^\s*\d+:\s+(.+)$/gm)].map((match) => Number((match[1] ?? '').trim().split(/\s+/)[5]));
  return { frames, durationsMs, loop, width: Number(width), height: Number(height) };
}

/** Frame delays (ms, from GIF's hundredths of a second) and size of a GIF, as `gifsicle --info` reads them. */
export function gifsicleInfo(bytes: Buffer): { frames: number; delaysMs: number[]; width: number; height: number; loopsForever: boolean } {
  const text = inspect('gifsicle', ['--info'], bytes, 'card.gif');
  const [, frames, width, height] = /(\d+) images?\s*\n\s*logical screen (\d+)x(\d+)/.exec(text) ?? [];
  const delaysMs = [...text.matchAll(/delay (\d+(?:\.\d+)?)s/g)].map((match) => Math.round(Number(match[1]) * 1000));
  return { frames: Number(frames), delaysMs, width: Number(width), height: Number(height), loopsForever: /loop forever/.test(text) };
}

/** The frames of an animation decoded by libvips, each as straight RGBA rows. */
export async function decodeFrames(bytes: Buffer): Promise<{ width: number; height: number; frames: Buffer[] }> {
  const { data, info } = await sharp(bytes, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const height = info.pageHeight ?? info.height;
  const size = info.width * height * 4;
  return { width: info.width, height, frames: Array.from({ length: info.height / height }, (_, index) => data.subarray(index * size, (index + 1) * size)) };
}
