import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Independent decoders for checking the images we produce: the reference command-line tools
 * (Debian `webp`, `libavif-bin`, `gifsicle`; scripts/setup.sh installs them), not the sharp that
 * encoded them.
 */

/** Runs a tool with `input` on its stdin, collecting all of its (possibly large) output. */
export function runWithInput(command: string, args: string[], input: Buffer): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { maxBuffer: 64 << 20 }, (error, stdout) => (error ? reject(new Error(`${command} failed`, { cause: error })) : resolve({ stdout })));
    child.stdin!.end(input);
  });
}

/** Writes `input` to a file, runs `command input output`, and answers the output file's bytes. */
async function convertWithFiles(command: string, args: (input: string, output: string) => string[], input: Buffer, extension: string): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), 'image-tools-'));
  try {
    const inputPath = join(directory, `input.${extension}`);
    const outputPath = join(directory, 'output.png');
    await writeFile(inputPath, input);
    await promisify(execFile)(command, args(inputPath, outputPath));
    return await readFile(outputPath);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A WebP decoded to PNG by libwebp's own `dwebp`. */
export const webpToPng = (webp: Buffer) => convertWithFiles('dwebp', (input, output) => [input, '-o', output], webp, 'webp');

/** An AVIF decoded to PNG by libavif's own `avifdec`. */
export const avifToPng = (avif: Buffer) => convertWithFiles('avifdec', (input, output) => [input, output], avif, 'avif');
