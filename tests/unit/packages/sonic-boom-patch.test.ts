import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';

/** The sonic-boom pino writes through: resolved from pino's own folder, as pino resolves it. */
const fromInfra = createRequire(new URL('../../../packages/infra/package.json', import.meta.url));
const fromPino = createRequire(fromInfra.resolve('pino'));
const SonicBoom = fromPino('sonic-boom') as new (options: { dest: string; sync: boolean; minLength: number; maxWrite?: number }) => {
  write(data: string): boolean;
  end(): void;
  on(event: string, listener: () => void): void;
};

type Stream = InstanceType<typeof SonicBoom> & { flushSync(): void };

/** A stream writing to a file of its own in a fresh directory (removed after the test), once it is ready. */
async function openStream(t: ExecutionContext, options: { minLength: number; maxWrite?: number }): Promise<{ stream: Stream; dest: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sonic-boom-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dest = join(dir, 'out.log');
  const stream = new SonicBoom({ dest, sync: false, ...options }) as Stream;
  await once(stream as unknown as NodeJS.EventEmitter, 'ready');
  return { stream, dest };
}

/** Each `Buffer.byteLength` argument's length while `run` runs. */
function measuredLengths(run: () => void): number[] {
  const descriptor = Object.getOwnPropertyDescriptor(Buffer, 'byteLength')!;
  const original = descriptor.value as (value: string, encoding?: BufferEncoding) => number;
  const lengths: number[] = [];
  Object.defineProperty(Buffer, 'byteLength', {
    ...descriptor,
    value: (value: string, encoding?: BufferEncoding) => {
      lengths.push(typeof value === 'string' ? value.length : -1);
      return original(value, encoding);
    },
  });
  try {
    run();
  } finally {
    Object.defineProperty(Buffer, 'byteLength', descriptor);
  }
  return lengths;
}

test('the installed sonic-boom measures each written line, not the whole pending chunk (patches/sonic-boom@4.2.1.patch)', async (t) => {
  // minLength keeps the lines pending in memory, as they are while a write is in progress.
  const { stream, dest } = await openStream(t, { minLength: 8192 });
  const line = `${JSON.stringify({ level: 30, msg: 'request', route: '/v1/hex-to-rgb' })}\n`;
  const lengths = measuredLengths(() => {
    for (let index = 0; index < 100; index += 1) stream.write(line);
  });
  // Unpatched, every write after the first also measured the pending chunk (up to 100 lines long).
  t.true(lengths.length > 0);
  t.deepEqual(lengths.filter((length) => length > line.length), []);
  stream.end();
  await once(stream as unknown as NodeJS.EventEmitter, 'close');
  t.is(readFileSync(dest, 'utf8'), line.repeat(100));
});

test('the patched sonic-boom still splits pending text at maxWrite bytes, multi-byte characters counted as bytes', async (t) => {
  const maxWrite = 64;
  // The first write starts at once; the lines after it wait in memory until it is done.
  const { stream, dest } = await openStream(t, { minLength: 0, maxWrite });
  // 7 bytes as 4 characters: a string length would let a chunk grow past maxWrite bytes.
  const lines = Array.from({ length: 40 }, (_, index) => `é€${index % 10}\n`);
  for (const text of lines) stream.write(text);
  const pending = (stream as unknown as { _bufs: string[] })._bufs;
  t.true(pending.length > 1);
  for (const chunk of pending) t.true(Buffer.byteLength(chunk) <= maxWrite, `a pending chunk of ${Buffer.byteLength(chunk)} bytes`);
  stream.end();
  await once(stream as unknown as NodeJS.EventEmitter, 'close');
  t.is(readFileSync(dest, 'utf8'), lines.join(''));
});

// Serial: fs.write is counted process-wide, and the other tests' streams write too.
test.serial('the installed sonic-boom writes lines logged close together in one fs.write, and flushSync still writes lines waiting for it', async (t) => {
  const { stream, dest } = await openStream(t, { minLength: 0 });
  const fs = fromPino('node:fs') as { write: (...args: unknown[]) => unknown };
  const write = fs.write;
  let writes = 0;
  fs.write = (...args: unknown[]) => {
    writes += 1;
    return write(...args);
  };
  try {
    // As a server does: lines from several callbacks close together (here, three timers due together).
    const writesSeen: number[] = [];
    await new Promise<void>((resolve) => {
      for (let index = 0; index < 3; index += 1) {
        setTimeout(() => {
          stream.write(`line ${index}\n`);
          writesSeen.push(writes);
          if (writesSeen.length === 3) resolve();
        }, 0);
      }
    });
    t.deepEqual(writesSeen, [0, 0, 0], 'no write starts at once');
    await once(stream as unknown as NodeJS.EventEmitter, 'write');
    t.is(writes, 1, 'one fs.write for the three lines');
  } finally {
    fs.write = write;
  }
  // A line still waiting for its write is written by flushSync (what pino runs at exit). The batch
  // above is done (its 'write' came after the file write, and nothing waits behind it): the stream is idle.
  t.false((stream as unknown as { _writing: boolean })._writing, 'the stream is idle before the last line');
  stream.write('last\n');
  t.true((stream as unknown as { _writing: boolean })._writing, 'the last line waits for its deferred write');
  stream.flushSync();
  t.is(readFileSync(dest, 'utf8'), 'line 0\nline 1\nline 2\nlast\n');
  stream.end();
  await once(stream as unknown as NodeJS.EventEmitter, 'close');
});

// Serial: setTimeout is counted process-wide.
test.serial('a backlog of full chunks is written chunk after chunk, not one chunk per timer (a busy server fell behind its log)', async (t) => {
  const maxWrite = 64;
  const { stream, dest } = await openStream(t, { minLength: 0, maxWrite });
  // About forty-five chunks' worth of lines at once, as a server writes while its file write falls behind.
  const lines = Array.from({ length: 320 }, (_, index) => `line ${String(index).padStart(3, '0')}\n`);
  const chunks = Math.ceil(Buffer.byteLength(lines.join('')) / maxWrite);
  const timers = globalThis.setTimeout;
  let delays = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    delays += 1;
    return timers(...args);
  }) as typeof setTimeout;
  try {
    for (const line of lines) stream.write(line);
    await new Promise<void>((resolve) => {
      const check = () => (readFileSync(dest, 'utf8').length === lines.join('').length ? resolve() : void timers(check, 5));
      void timers(check, 5);
    });
  } finally {
    globalThis.setTimeout = timers;
  }
  // Patched before: every chunk after a write waited its own 1 ms timer, so a server logging faster
  // than one chunk per event-loop turn or two kept a growing rope of lines in memory.
  t.true(delays <= 2, `${delays} write delays for ${chunks} chunks`);
  t.is(readFileSync(dest, 'utf8'), lines.join(''));
  stream.end();
  await once(stream as unknown as NodeJS.EventEmitter, 'close');
});
