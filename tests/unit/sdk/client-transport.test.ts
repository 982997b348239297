/**
 * What the gateway under test cannot be made to send on demand: a 503 with its Retry-After (in
 * seconds or as an HTTP date) and a proxy's non-JSON error page. A scripted fetch answers instead;
 * the 429 path is covered end to end in typescript-sdk.test.ts.
 */
import test from 'ava';
import { createClient, UtilityApiError, type ClientOptions } from '@utility-api/client';

/** Answers the scripted responses in order and records when each request was made. */
function scripted(...answers: (() => Response)[]) {
  const sentAt: number[] = [];
  const fetch: typeof globalThis.fetch = async () => {
    sentAt.push(performance.now());
    const next = answers.shift();
    if (!next) throw new Error('more requests than scripted');
    return next();
  };
  return { sentAt, fetch };
}

const ok = () => Response.json({ result: 'Heads', description: '', flipCount: 1, timestamp: '', probability: { heads: '50%', tails: '50%' }, flipMethod: 'Simulated Randomly', isValid: true });
const unavailable = (retryAfter?: string) => () =>
  Response.json({ error: { status: 503, code: 'overloaded', message: 'Busy.' }, requestId: 'r-503' }, { status: 503, headers: retryAfter ? { 'retry-after': retryAfter } : {} });
const client = (fetch: typeof globalThis.fetch, retry?: ClientOptions['retry']) => createClient({ baseUrl: 'http://api.invalid', apiKey: 'key', fetch, ...(retry ? { retry } : {}) });

test('a 503 is retried after its Retry-After seconds', async (t) => {
  const { sentAt, fetch } = scripted(unavailable('1'), ok);
  t.is((await client(fetch).coinFlip()).result, 'Heads');
  t.is(sentAt.length, 2);
  // A timer may fire within its millisecond early.
  t.true(sentAt[1]! - sentAt[0]! >= 999, `${sentAt[1]! - sentAt[0]!} ms`);
});

test('a Retry-After given as an HTTP date is waited until that date', async (t) => {
  const until = new Date(Date.now() + 2000);
  const { sentAt, fetch } = scripted(unavailable(until.toUTCString()), ok);
  t.is((await client(fetch).coinFlip()).result, 'Heads');
  // The date has whole seconds: the retry leaves at the second it names, not before.
  t.true(Date.now() >= Math.floor(until.getTime() / 1000) * 1000 - 1);
  t.is(sentAt.length, 2);
});

test('a 503 still refused after the tries is the typed error with what the last answer said', async (t) => {
  const { sentAt, fetch } = scripted(unavailable('1'), unavailable('1'));
  const error = await t.throwsAsync(client(fetch, { attempts: 2 }).coinFlip(), { instanceOf: UtilityApiError });
  t.like(error, { status: 503, code: 'overloaded', message: 'Busy.', requestId: 'r-503', retryAfter: 1, attempts: 2 });
  t.is(sentAt.length, 2);
});

test('without Retry-After the fallback wait counts against the total wait', async (t) => {
  const { sentAt, fetch } = scripted(unavailable());
  const error = await t.throwsAsync(client(fetch, { attempts: 3, maxTotalWaitMs: 500 }).coinFlip(), { instanceOf: UtilityApiError });
  t.like(error, { status: 503, attempts: 1, retryAfter: undefined });
  t.is(sentAt.length, 1);
});

test("an error page that is not the API's JSON is an http_error with its status and request id", async (t) => {
  const { fetch } = scripted(() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'x-request-id': 'proxy-1' } }));
  const error = await t.throwsAsync(client(fetch).coinFlip(), { instanceOf: UtilityApiError });
  t.like(error, { status: 502, code: 'http_error', requestId: 'proxy-1', attempts: 1 });
  t.deepEqual(error.details, []);
  t.regex(error.message, /^HTTP 502 Bad Gateway: <html>Bad gateway/);
});
