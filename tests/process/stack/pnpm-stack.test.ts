/**
 * `./run stack` as users run it (`node scripts/stack.ts`), as a process: a renderer
 * SIGKILLed mid-card is restarted and the card still arrives (BullMQ hands the stalled job to a
 * live renderer once its lock expires: LOCK_DURATION_MS + STALLED_INTERVAL_MS, shortened here); a
 * dead gateway is restarted; Ctrl-C stops everything and keeps the data, which the next run serves;
 * Redis dying stops the stack with a message; STACK_FRESH=1 starts clean.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freeLoopbackPort } from '../../../scripts/local-stack/local-stack.ts';
import { startServiceProcess, type ServiceProcess } from '../../../scripts/local-stack/service-process.ts';
import type { ImageServer } from '../../support/pipeline/image-server.ts';
import { USER_ID } from '../../support/pipeline/profile-image-suite.ts';
import { SLOW_PATH, startSlowImageServer } from '../../support/pipeline/slow-image-server.ts';

const API_KEY = 'stack-key-0123456789abcdef';
const LOCKS = { LOCK_DURATION_MS: 2000, STALLED_INTERVAL_MS: 1000 };
let images: ImageServer;
/** Client ports of the connections that asked for the slow image, in order. */
const slowImageClientPorts: number[] = [];
let dataDirectory: string;
const stacks: ServiceProcess[] = [];
/** The card made in the first run, served again by the second. */
let cardUrl = '';

test.before(async () => {
  images = await startSlowImageServer(3000, (request) => slowImageClientPorts.push(request.socket.remotePort ?? 0));
  dataDirectory = mkdtempSync(join(tmpdir(), 'stack-data-'));
});

test.after.always(async () => {
  await Promise.all(stacks.map((stack) => stack.stop('SIGINT')));
  await images?.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

interface RunningStack {
  process: ServiceProcess;
  url: string;
  pids: Map<string, number>;
}

async function startStack(env: Record<string, string> = {}): Promise<RunningStack> {
  const port = await freeLoopbackPort();
  const stack = startServiceProcess({
    name: 'pnpm-stack',
    entry: 'scripts/stack.ts',
    env: {
      PORT: String(port),
      RENDERERS: '2',
      API_KEYS: API_KEY,
      STACK_DATA_DIR: dataDirectory,
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      RENDER_WORKERS: '1',
      LOG_LEVEL: 'info',
      // Services left without Redis drain until this deadline; no need to wait the default 25 s.
      SHUTDOWN_TIMEOUT_MS: '5000',
      ...Object.fromEntries(Object.entries(LOCKS).map(([name, value]) => [name, String(value)])),
      ...env,
    },
  });
  stacks.push(stack);
  const line = await stack.waitFor(/^pids: /, 120_000);
  const pids = new Map([...line.matchAll(/([\w-]+) (\d+)/g)].map((match) => [match[1]!, Number(match[2])]));
  return { process: stack, url: `http://127.0.0.1:${port}`, pids };
}

function postCard(url: string, body: unknown) {
  return fetch(`${url}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Which of `pids` owns the TCP connection whose local port is `port` (Linux /proc). */
function pidOwningPort(port: number, pids: readonly number[]): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      if (Number.parseInt(fields[1]?.split(':')[1] ?? '', 16) === port && fields[9] !== undefined) inodes.add(fields[9]);
    }
  }
  return pids.find((pid) =>
    readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false; // closed meanwhile
      }
    }),
  );
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (await condition()) return;
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

test.serial('a renderer killed mid-card is restarted, the card still arrives, and Ctrl-C keeps the data', async (t) => {
  t.timeout(180_000);
  const stack = await startStack();
  const firstFetch = images.nextRequest(SLOW_PATH);
  const pending = postCard(stack.url, { customBackground: `${images.url}${SLOW_PATH}`, customTag: 'survives a renderer' });
  await firstFetch;

  // Kill the renderer that is fetching this card's background, in the middle of it.
  const renderers = [...stack.pids].filter(([name]) => name.startsWith('renderer-'));
  const victimPid = pidOwningPort(slowImageClientPorts.at(-1)!, renderers.map(([, pid]) => pid));
  const victim = renderers.find(([, pid]) => pid === victimPid)?.[0];
  t.truthy(victim, 'one of the renderers holds the connection');
  process.kill(victimPid!, 'SIGKILL');

  const response = await pending;
  const body = (await response.json()) as { url: string };
  t.is(response.status, 200, JSON.stringify(body));
  // Fetched again by whichever renderer took the stalled job over.
  t.true(images.requests.filter((path) => path === SLOW_PATH).length >= 2);
  await stack.process.waitFor(new RegExp(`${victim} exited \\(code null, signal SIGKILL\\); restarting it in 1 s`), 5000);
  const restarted = await stack.process.waitFor(new RegExp(`${victim} restarted \\(pid (\\d+)\\)`), 60_000);
  const restartedPid = Number(/pid (\d+)/.exec(restarted)?.[1]);
  t.true(isAlive(restartedPid));

  // Everything else kept running: the gateway answers ready (it checks Redis and the S3 server).
  t.is((await fetch(`${stack.url}/readyz`)).status, 200);
  for (const [name, pid] of stack.pids) if (name !== victim) t.true(isAlive(pid), `${name} is still running`);
  t.is((await fetch(body.url)).status, 200);
  cardUrl = body.url;

  // Ctrl-C: every process stops, the data stays.
  stack.process.child.kill('SIGINT');
  t.is((await stack.process.exited).code, 0);
  for (const pid of [...stack.pids.values(), restartedPid]) t.false(isAlive(pid), `pid ${pid} stopped`);
  const mediaKey = body.url.split('/').pop()!;
  t.true(existsSync(join(dataDirectory, 's3', 'cards', `${mediaKey}._S3rver_object`)), 'the card is still on disk');
  t.true(existsSync(join(dataDirectory, 'redis', 'appendonlydir')), "Redis' append-only file is still on disk");
});

test.serial('the next run serves the earlier card; a dead gateway is restarted; Redis dying stops the stack', async (t) => {
  t.timeout(180_000);
  const stack = await startStack();
  const again = cardUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, stack.url);
  t.is((await fetch(again)).status, 200, 'the card from the first run is served by the second');

  process.kill(stack.pids.get('gateway')!, 'SIGKILL');
  await stack.process.waitFor(/gateway restarted \(pid \d+\)/, 60_000);
  await until(async () => (await fetch(`${stack.url}/healthz`).catch(() => undefined))?.status === 200, 10_000, 'the gateway to answer');

  process.kill(stack.pids.get('redis-server')!, 'SIGKILL');
  const exit = await stack.process.exited;
  t.is(exit.code, 1);
  t.regex(stack.process.output(), /redis-server exited \(code null, signal SIGKILL\): the queue, keys and limits are gone with it/);
  t.regex(stack.process.output(), /redis-server died: stopping the stack/);
  for (const [name, pid] of stack.pids) t.false(isAlive(pid), `${name} stopped`);
  t.true(existsSync(join(dataDirectory, 's3', 'cards')), 'the data directory is kept');
});

test.serial('STACK_FRESH=1 starts from an empty data directory', async (t) => {
  t.timeout(180_000);
  const stack = await startStack({ STACK_FRESH: '1' });
  t.regex(stack.process.output(), /STACK_FRESH=1: removing the data in /);
  const again = cardUrl.replace(/^http:\/\/127\.0\.0\.1:\d+/, stack.url);
  t.is((await fetch(again)).status, 404, 'the earlier card is gone');
  stack.process.child.kill('SIGINT');
  t.is((await stack.process.exited).code, 0);

  // A data directory that holds anything else is not a stack's: STACK_FRESH=1 leaves it alone.
  writeFileSync(join(dataDirectory, 'notes.txt'), 'not the stack\'s');
  const refused = startServiceProcess({
    name: 'pnpm-stack',
    entry: 'scripts/stack.ts',
    env: { PORT: String(await freeLoopbackPort()), API_KEYS: API_KEY, STACK_DATA_DIR: dataDirectory, STACK_FRESH: '1' },
  });
  t.is((await refused.exited).code, 1);
  t.regex(refused.output(), /holds more than a stack's data \(notes\.txt\); not removing anything/);
  t.true(existsSync(join(dataDirectory, 'notes.txt')) && existsSync(join(dataDirectory, 'redis')));
});
