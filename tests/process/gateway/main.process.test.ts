import test from 'ava';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { readJson } from '../../helpers/test-gateway.ts';

/** `main.ts` started with the test's variables over the test defaults; an empty API_KEYS is the same as none. */
const startMain = (env: Record<string, string>) => startGatewayProcess({ env, waitUntilListening: false });

test('exits 78 listing every bad variable at once', async (t) => {
  const gateway = await startMain({ PORT: 'nope', API_KEYS: 'short', LOG_LEVEL: 'loud' });
  const { code } = await gateway.process.exited;
  await gateway.stop();
  t.is(code, 78);
  const output = gateway.process.output();
  for (const variable of ['PORT', 'API_KEYS', 'LOG_LEVEL']) t.true(output.includes(variable), variable);
});

test('serves on PORT with a key from API_KEYS and drains on SIGTERM', async (t) => {
  const gateway = await startMain({ API_KEYS: 'process-key-0123456789' });
  try {
    await gateway.process.waitFor(/gateway listening/);
    const response = await fetch(`${gateway.url}/v1/coin-flip`, {
      headers: { authorization: 'process-key-0123456789' },
    });
    t.is(response.status, 200);
    t.regex((await readJson(response)).result, /^(Heads|Tails)$/);
    // The log line travels through a pipe and may arrive after the response does.
    const logLine = await gateway.process.waitFor(/"route":"\/v1\/coin-flip"/);
    const entry = JSON.parse(logLine);
    t.is(entry.status, 200);
    t.regex(entry.requestId, /^[0-9a-f-]{36}$/);
    t.false(gateway.process.output().includes('process-key-0123456789'), 'the key never reaches the log');
  } finally {
    await gateway.stop('SIGTERM');
  }
  const { code } = await gateway.process.exited;
  t.is(code, 0);
  t.regex(gateway.process.output(), /shutdown complete/);
});

test('without API_KEYS, generates a key for the run and prints it once', async (t) => {
  const gateway = await startMain({ API_KEYS: '' });
  try {
    const line = await gateway.process.waitFor(/generated a key/);
    const key = /(dev_[A-Za-z0-9_-]+)/.exec(line)?.[1];
    t.truthy(key);
    await gateway.process.waitFor(/gateway listening/);
    const ok = await fetch(`${gateway.url}/v1/hex-to-rgb?hex=fff`, { headers: { authorization: key! } });
    t.is(ok.status, 200);
  } finally {
    await gateway.stop();
  }
});

test('when ready, a plain summary says where it answers, the key to use, the sign-in link, the docs and the playground', async (t) => {
  const gateway = await startMain({ API_KEYS: '' });
  try {
    await gateway.process.waitFor(/Playground {2}http/);
    const base = gateway.url;
    const summary = gateway.process.output().slice(gateway.process.output().indexOf('Utility API is ready'));
    t.regex(summary, new RegExp(`^Utility API is ready: ${base}$`, 'm'));
    const key = /^ {2}Key {9}(dev_\S+) /m.exec(summary)?.[1];
    t.truthy(key, summary);
    const link = /^ {2}Account {5}(\S+) \(one-time sign-in link/m.exec(summary)?.[1];
    t.regex(link ?? '', new RegExp(`^${base}/account/sign-in#token=[A-Za-z0-9_-]{43}$`));
    t.regex(summary, new RegExp(`^ {2}Docs {8}${base}/docs$`, 'm'));
    t.regex(summary, new RegExp(`^ {2}Playground {2}${base}/playground$`, 'm'));
    // "Ready" means a card can be drawn: the log (one ordered stream, unlike the summary on stderr)
    // says a render worker was ready before the gateway said it was, and the summary follows that.
    const readyLine = JSON.parse(await gateway.process.waitFor(/"msg":"gateway ready"/));
    t.is(readyLine.renderWorkerReady, true);
    const output = gateway.process.output();
    const workerReady = output.indexOf('"msg":"render worker ready"');
    t.true(workerReady >= 0 && workerReady < output.indexOf('"msg":"gateway ready"'), 'the gateway waited for a render worker');
    t.false(summary.includes('no render worker is ready'));
    // What it says works: the key calls the API.
    t.is((await fetch(`${base}/v1/coin-flip`, { headers: { authorization: key! } })).status, 200);
  } finally {
    await gateway.stop();
  }
});

test('with its port taken, it exits 1 with a one-line hint naming the port and what to do', async (t) => {
  const holder = createServer();
  holder.listen(0, '127.0.0.1');
  await once(holder, 'listening');
  const { port } = holder.address() as AddressInfo;
  try {
    const gateway = await startMain({ PORT: String(port) });
    const { code } = await gateway.process.exited;
    await gateway.stop();
    t.is(code, 1);
    const hint = gateway.process.output().split('\n').find((line) => line.startsWith(`Port ${port} `));
    t.is(hint, `Port ${port} on 127.0.0.1 is already in use by another program: stop it, or start on another port, e.g. PORT=${port + 1} ./run start`);
  } finally {
    holder.close();
  }
});
