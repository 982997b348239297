import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@utility-api/infra';
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

