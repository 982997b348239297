import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freePort, startNodeProcess } from '../helpers/processes.ts';
import { readJson } from '../helpers/test-app.ts';

const ENTRY = 'services/gateway/src/main.ts';

/** Media and the account database in a folder of the test's own: the repository's .data is nobody's test data. */
function ownData(): Record<string, string> {
  const folder = mkdtempSync(join(tmpdir(), 'main-process-'));
  return { MEDIA_DIR: join(folder, 'media'), DATABASE_PATH: join(folder, 'accounts.sqlite') };
}

test('exits 78 listing every bad variable at once', async (t) => {
  const gateway = startNodeProcess(ENTRY, { PORT: 'nope', API_KEYS: 'short', LOG_LEVEL: 'loud' });
  const { code } = await gateway.exited();
  t.is(code, 78);
  const output = gateway.output();
  for (const variable of ['PORT', 'API_KEYS', 'LOG_LEVEL']) t.true(output.includes(variable), variable);
});

test('serves on PORT with a key from API_KEYS and drains on SIGTERM', async (t) => {
  const port = await freePort();
  const gateway = startNodeProcess(ENTRY, { ...ownData(), PORT: String(port), API_KEYS: 'process-key-0123456789' });
  try {
    await gateway.waitFor(/gateway listening/);
    const response = await fetch(`http://127.0.0.1:${port}/v1/coin-flip`, {
      headers: { authorization: 'process-key-0123456789' },
    });
    t.is(response.status, 200);
    t.regex((await readJson(response)).result, /^(Heads|Tails)$/);
    // The log line travels through a pipe and may arrive after the response does.
    const logLine = await gateway.waitFor(/"route":"\/v1\/coin-flip"/);
    const entry = JSON.parse(logLine);
    t.is(entry.status, 200);
    t.regex(entry.requestId, /^[0-9a-f-]{36}$/);
    t.false(gateway.output().includes('process-key-0123456789'), 'the key never reaches the log');
  } finally {
    await gateway.stop('SIGTERM');
  }
  const { code } = await gateway.exited();
  t.is(code, 0);
  t.regex(gateway.output(), /shutdown complete/);
});

test('without API_KEYS, generates a key for the run and prints it once', async (t) => {
  const port = await freePort();
  const gateway = startNodeProcess(ENTRY, { ...ownData(), PORT: String(port) });
  try {
    const line = await gateway.waitFor(/generated a key/);
    const key = /(dev_[A-Za-z0-9_-]+)/.exec(line)?.[1];
    t.truthy(key);
    await gateway.waitFor(/gateway listening/);
    const ok = await fetch(`http://127.0.0.1:${port}/v1/hex-to-rgb?hex=fff`, { headers: { authorization: key! } });
    t.is(ok.status, 200);
  } finally {
    await gateway.stop();
  }
});

test('when ready, a plain summary says where it answers, the key to use, the sign-in link, the docs and the playground', async (t) => {
  const port = await freePort();
  const gateway = startNodeProcess(ENTRY, { ...ownData(), PORT: String(port) });
  try {
    await gateway.waitFor(/Playground {2}http/);
    const base = `http://127.0.0.1:${port}`;
    const summary = gateway.output().slice(gateway.output().indexOf('Utility API is ready'));
    t.regex(summary, new RegExp(`^Utility API is ready: ${base}$`, 'm'));
    const key = /^ {2}Key {9}(dev_\S+) /m.exec(summary)?.[1];
    t.truthy(key, summary);
    const link = /^ {2}Account {5}(\S+) \(one-time sign-in link/m.exec(summary)?.[1];
    t.regex(link ?? '', new RegExp(`^${base}/account/sign-in#token=[A-Za-z0-9_-]{43}$`));
    t.regex(summary, new RegExp(`^ {2}Docs {8}${base}/docs$`, 'm'));
    t.regex(summary, new RegExp(`^ {2}Playground {2}${base}/playground$`, 'm'));
    // What it says works: the key calls the API.
    t.is((await fetch(`${base}/v1/coin-flip`, { headers: { authorization: key! } })).status, 200);
  } finally {
    await gateway.stop();
  }
});
