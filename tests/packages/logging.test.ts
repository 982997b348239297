import { Writable } from 'node:stream';
import { createLogger, templateLineWriter, type Logger } from '@utility-api/infra';
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
