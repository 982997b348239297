import { randomUUID } from 'node:crypto';
import { createLogger, type Logger } from '@utility-api/infra';

export function newKey(): string {
  return randomUUID();
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export interface CapturedLogger {
  logger: Logger;
  /** Parsed JSON lines logged so far. */
  lines(): { level: number; msg: string; [field: string]: unknown }[];
}

/** A real pino logger writing into memory, so tests read exactly what production would log. */
export function captureLogger(): CapturedLogger {
  const raw: string[] = [];
  const logger = createLogger({ service: 'media-store-test', level: 'debug', destination: { write: (line: string) => void raw.push(line) } });
  return { logger, lines: () => raw.map((line) => JSON.parse(line) as ReturnType<CapturedLogger['lines']>[number]) };
}

export const PINO_WARN = 40;

/** Milliseconds a promise took to settle, and how it settled. */
export async function timed<T>(work: Promise<T>): Promise<{ ms: number; error?: unknown; value?: T }> {
  const started = performance.now();
  try {
    const value = await work;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}
