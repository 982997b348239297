import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createLogger, DROPPED_LINES_REPORT_MS, LOG_BACKLOG_MAX_BYTES, templateLineWriter, type Logger } from '@utility-api/infra';
import test from 'ava';

/** A logger at `level` whose lines are parsed into `lines` as they are written. */
function recordingLogger(level: 'info' | 'debug' = 'info'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ service: 'test', level, destination }), lines };
}

/** Everything but the timestamp, which differs between two lines written one after the other. */

test('credentials are censored by path, one level down and in child bindings, without touching the logged objects', (t) => {
  const { logger, lines } = recordingLogger();
  const job = { id: 7, token: 'secret-token' };
  const headers = { authorization: 'Bearer key', cookie: 'c=1', 'proxy-authorization': 'p', accept: '*/*' };
  logger.info({ headers, job, key: { apiKey: 'secret-key' }, list: [{ token: 'kept: arrays are not searched' }] }, 'one');
  logger.child({ job }).info('two');

  t.deepEqual(lines[0]?.headers, { authorization: '[redacted]', cookie: '[redacted]', 'proxy-authorization': '[redacted]', accept: '*/*' });
  t.deepEqual(lines[0]?.job, { id: 7, token: '[redacted]' });
  t.deepEqual(lines[0]?.key, { apiKey: '[redacted]' });
  t.deepEqual(lines[0]?.list, [{ token: 'kept: arrays are not searched' }]);
  t.deepEqual(lines[1]?.job, { id: 7, token: '[redacted]' });
  t.is(job.token, 'secret-token');
  t.is(headers.authorization, 'Bearer key');
});

test('an error holding a token is censored and still serialised as an error', (t) => {
  const { logger, lines } = recordingLogger();
  const error = Object.assign(new TypeError('boom'), { token: 'secret', code: 'E_BOOM' });
  logger.error({ err: error }, 'failed');
  const err = lines[0]?.err as Record<string, unknown>;
  t.like(err, { type: 'TypeError', message: 'boom', code: 'E_BOOM', token: '[redacted]' });
  t.true(typeof err.stack === 'string' && err.stack.includes('boom'));
  t.is(error.token, 'secret');
});

/** The raw text each write got, one entry per write. */
function rawLogger(level: 'info' | 'warn' = 'info'): { logger: Logger; writes: string[] } {
  const writes: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger({ service: 'test', level, destination }), writes };
}

test('a template line is the line pino writes for the same fields, byte for byte but the time', (t) => {
  const { logger, writes } = rawLogger();
  const write = templateLineWriter(logger, 'info', 'request');
  const fields = { requestId: 'req-1', keyId: 'key_"quoted"', method: 'GET', route: '/v1/hex-to-rgb', status: 200, ms: 0.37 };
  logger.info(fields, 'request');
  write(Object.entries(fields).map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`).join(''));
  t.is(writes.length, 2);
  const [fromPino, fromTemplate] = writes.map((line) => line.replace(/"time":"[^"]+"/, '"time":"<time>"'));
  t.is(fromTemplate, fromPino);
  t.true(writes[1]!.endsWith('\n'));
  // The time field is pino's ISO time, formatted once per millisecond.
  t.regex(writes[1]!, /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/);
});

test('a template line is not written below the logger\'s level, and follows a level change', (t) => {
  const { logger, writes } = rawLogger('warn');
  const write = templateLineWriter(logger, 'info', 'request');
  write(',"status":200');
  t.deepEqual(writes, []);
  logger.level = 'info';
  write(',"status":200');
  t.is(writes.length, 1);
  t.like(JSON.parse(writes[0]!) as Record<string, unknown>, { level: 30, service: 'test', status: 200, msg: 'request' });
});

test('a child logger\'s template line carries its bindings, as its pino lines do', (t) => {
  const { logger, writes } = rawLogger();
  const child = logger.child({ component: 'http' });
  templateLineWriter(child, 'info', 'request')(',"status":404');
  child.info({ status: 404 }, 'request');
  const [fromTemplate, fromPino] = writes.map((line) => line.replace(/"time":"[^"]+"/, '"time":"<time>"'));
  t.is(fromTemplate, fromPino);
});

test('a stdout nobody reads holds at most LOG_BACKLOG_MAX_BYTES of lines; the rest are dropped, counted and the count is logged', async (t) => {
  // A process logging three times the bound while its reader has stopped (a stalled log collector).
  const lineCount = Math.ceil((3 * LOG_BACKLOG_MAX_BYTES) / 1000);
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createLogger } from ${JSON.stringify(new URL('../../../packages/infra/src/index.ts', import.meta.url).href)};
       const logger = createLogger({ service: 'stalled', level: 'info' });
       const filler = 'x'.repeat(1000);
       for (let line = 0; line < ${lineCount}; line += 1) logger.info({ line, filler }, 'line');
       process.send('written');
       process.on('message', () => process.exit(0));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  t.teardown(() => child.kill());
  const stdout = child.stdout!;
  stdout.pause();
  await once(child, 'message');

  // Read now; the dropped lines are reported DROPPED_LINES_REPORT_MS after the first of them.
  let bytes = 0;
  let text = '';
  let received = 0;
  let reported = 0;
  const complete = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the child exited (${code}) after ${received} lines and ${reported} reported dropped`)));
    stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      text += chunk.toString('utf8');
      const lines = text.split('\n');
      text = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as { msg: string; droppedLines?: number };
        if (entry.msg === 'line') received += 1;
        else if (entry.droppedLines !== undefined) reported += entry.droppedLines;
      }
      if (received + reported >= lineCount) resolve();
    });
    stdout.resume();
  });
  const backstop = setTimeout(() => child.kill(), 30 * DROPPED_LINES_REPORT_MS);
  await complete;
  clearTimeout(backstop);
  child.send('exit');

  t.is(received + reported, lineCount, 'every line was either written or counted as dropped');
  t.true(reported > lineCount / 2, `most lines were dropped: ${reported} of ${lineCount}`);
  // What was held for the stalled reader: the bound, plus the pipe's and the reader's own buffers.
  t.true(bytes <= LOG_BACKLOG_MAX_BYTES + 1024 * 1024, `${bytes} bytes were written for a reader that had stopped`);
});

test('docs/operations.md states the backlog bound and the report delay the logger uses', (t) => {
  const operations = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8').replaceAll('\n', ' ');
  t.true(operations.includes(`at most ${LOG_BACKLOG_MAX_BYTES / 1024 / 1024} MiB of lines`));
  t.is(DROPPED_LINES_REPORT_MS, 1000);
  t.true(operations.includes('a second after the first dropped line'));
});
