import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freeLoopbackPort, GATEWAY_ENTRY } from '../local-stack/local-stack.ts';
import { startRedisServer } from '../local-stack/redis-server.ts';
import { startS3Server } from '../local-stack/s3-server.ts';
import { REPO_ROOT, startServiceProcess, type ServiceProcess } from '../local-stack/service-process.ts';
import { BENCH_API_KEY } from './light-endpoints.ts';
import { USER_ID } from './profile-image.ts';

/**
 * Where a card's Redis commands come from (`node scripts/bench/command-origins.ts [cards] [concurrency]`):
 * one redis-server, one gateway and one no-op renderer; MONITOR records every command while the
 * cards are asked for, each attributed to its connection (gateway or renderer, by client name) and,
 * for commands run inside a Lua script (MONITOR shows them right after their EVALSHA), to that
 * script (BullMQ's by the SHA1 of its source, the services' own by theirs). Counts, not timings:
 * the machine's load changes only the few per-second commands (blocking-read timeouts, heartbeats).
 */
const cards = Number(process.argv[2] ?? 300);
const concurrency = Number(process.argv[3] ?? 8);

function bullmqScriptNames(): Map<string, string> {
  // The renderer's own copy (its dependency, linked by pnpm), the scripts it runs.
  const directory = join(REPO_ROOT, 'services/renderer/node_modules/bullmq/dist/esm/scripts');
  const require = createRequire(import.meta.url);
  const names = new Map<string, string>();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.js') && !name.startsWith('index'))) {
    const source = require(join(directory, file)) as Record<string, { name: string; content: string }>;
    for (const script of Object.values(source)) if (script?.content) names.set(createHash('sha1').update(script.content).digest('hex'), `bullmq:${script.name}`);
  }
  return names;
}

const redis = await startRedisServer({});
const s3 = await startS3Server({});
const env = { REDIS_URL: redis.url, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: 'cards', LOG_LEVEL: 'info' };
const services: ServiceProcess[] = [];
try {
  const renderer = startServiceProcess({ name: 'noop-renderer', entry: 'scripts/bench/noop-renderer.ts', env: { ...env, RENDER_CONCURRENCY: '64', HEALTH_PORT: '0' } });
  services.push(renderer);
  const port = await freeLoopbackPort();
  const gateway = startServiceProcess({
    name: 'gateway',
    entry: GATEWAY_ENTRY,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', API_KEYS: BENCH_API_KEY, PLANS: 'bench:cards=1000000000,requests=1000000000', RATE_LIMIT_DEFAULT: '999999999/60s', RATE_LIMIT_PROFILE_IMAGE: '999999999/60s', CARDS_IN_FLIGHT_PER_KEY: '10000' },
  });
  services.push(gateway);
  await Promise.all([renderer.waitFor(/renderer ready/, 60_000), gateway.waitFor(/gateway listening/, 60_000)]);
  let sequence = 0;
  const ask = async () => {
    sequence += 1;
    const response = await fetch(`http://127.0.0.1:${port}/v1/profile-image?userId=${USER_ID}`, { method: 'POST', headers: { Authorization: BENCH_API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ customTag: `O ${process.pid} #${sequence}` }) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`card answered ${response.status}`);
  };
  const run = async (count: number) => {
    let left = count;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await ask();
      }
    }));
  };
  await run(50);
  const admin = new Redis(redis.url);
  const clients = new Map<string, string>();
  for (const line of ((await admin.client('LIST')) as string).split('\n')) {
    const addr = /addr=(\S+)/.exec(line)?.[1];
    const name = /name=(\S*)/.exec(line)?.[1];
    if (addr) clients.set(addr, name || 'unnamed');
  }
  const scripts = bullmqScriptNames();
  const monitor = await admin.monitor();
  const counts = new Map<string, number>();
  let currentScript = '';
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const command = args[0]!.toLowerCase();
    if (source === 'lua') {
      add(`  in ${currentScript}: ${command}`);
      return;
    }
    const client = clients.get(source) ?? `other ${source}`;
    if (command === 'evalsha' || command === 'eval') {
      const sha = command === 'evalsha' ? args[1]! : createHash('sha1').update(args[1]!).digest('hex');
      currentScript = scripts.get(sha) ?? `script ${sha.slice(0, 8)} (${(args[3] ?? '').replace(/[0-9a-f-]{20,}/g, '*').replace(/\d{4}-\d{2}(-\d{2})?/g, 'date')})`;
      add(`${client}: evalsha ${currentScript}`);
    } else add(`${client}: ${command}${command === 'xadd' || command === 'hincrby' || command === 'exists' || command === 'zrem' || command === 'set' || command === 'del' ? ` ${(args[1] ?? '').replace(/[0-9a-f-]{20,}/g, '*')}` : ''}`);
  });
  const started = performance.now();
  await run(cards);
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 300));
  monitor.disconnect();
  admin.disconnect();
  let total = 0;
  let outside = 0;
  for (const [key, count] of counts) {
    total += count;
    if (!key.startsWith('  ')) outside += count;
  }
  console.log(`${cards} cards in ${seconds.toFixed(1)} s (${(cards / seconds).toFixed(0)}/s), ${concurrency} at once: ${(total / cards).toFixed(2)} commands per card (INFO commandstats counts), ${(outside / cards).toFixed(2)} sent by clients`);
  for (const [key, count] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) console.log(`${(count / cards).toFixed(3).padStart(8)}  ${key}`);
} finally {
  await Promise.all(services.map((service) => service.stop('SIGTERM')));
  await s3.stop();
  await redis.stop();
}
