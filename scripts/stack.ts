import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startLocalStack } from './local-stack/local-stack.ts';
import { REPO_ROOT } from './local-stack/service-process.ts';
import { supervise } from './local-stack/supervisor.ts';

/**
 * `./run stack`: the distributed topology without Docker. PORT (default 3000), API_KEYS (a key is
 * generated when unset) and RENDERERS (default 2) are honoured. Redis and the S3 server keep their
 * data in STACK_DATA_DIR (default `.data/stack`), reused by the next run; STACK_FRESH=1 empties it
 * first. A gateway or renderer that dies is restarted; Redis dying stops the stack. Ctrl-C stops
 * everything and keeps the data. With REDIS_CLUSTER_NODES (and REDIS_USERNAME/REDIS_PASSWORD when
 * it needs them) the services run on that Redis Cluster and no redis-server is started.
 */
const port = Number(process.env.PORT ?? 3000);
const renderers = Number(process.env.RENDERERS ?? 2);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('PORT must be a port number');
if (!Number.isInteger(renderers) || renderers < 1 || renderers > 32) throw new Error('RENDERERS must be 1 to 32');
const apiKeys = process.env.API_KEYS ?? `dev_${randomBytes(24).toString('base64url')}`;
const dataDirectory = resolve(REPO_ROOT, process.env.STACK_DATA_DIR ?? '.data/stack');
const fresh = process.env.STACK_FRESH === '1';
const redisClusterNodes = process.env.REDIS_CLUSTER_NODES?.trim() || undefined;
const passThrough = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined &&
      /^(LOG_LEVEL|PUBLIC_BASE_URL|REDIS_USERNAME|REDIS_PASSWORD|DISCORD_|FETCH_|RENDER_|MEDIA_TTL_DAYS|PROFILE_CACHE_TTL_SECONDS|RATE_LIMIT|CARDS_IN_FLIGHT_PER_KEY|LOCK_DURATION_MS|STALLED_INTERVAL_MS|SHUTDOWN_TIMEOUT_MS)/.test(entry[0]),
  ),
);
const say = (line: string) => process.stdout.write(`${'stack'.padEnd(11)} | ${line}\n`);

// Only the stack's own data is ever removed, and only when asked: a STACK_DATA_DIR holding
// anything besides what a stack writes there is refused rather than emptied.
if (fresh && existsSync(dataDirectory)) {
  const foreign = readdirSync(dataDirectory).filter((entry) => entry !== 'redis' && entry !== 's3');
  if (foreign.length > 0) {
    console.error(`STACK_FRESH=1: ${dataDirectory} holds more than a stack's data (${foreign.join(', ')}); not removing anything`);
    process.exit(1);
  }
  say(`STACK_FRESH=1: removing the data in ${dataDirectory}`);
  for (const entry of ['redis', 's3']) rmSync(resolve(dataDirectory, entry), { recursive: true, force: true });
}
const stack = await startLocalStack({
  gatewayPort: port,
  renderers,
  apiKeys,
  env: passThrough,
  dataDirectory,
  redisClusterNodes,
  echo: (service, line) => process.stdout.write(`${service.padEnd(11)} | ${line}\n`),
});
const firstKey = apiKeys.split(',')[0]!.trim();
const pids = [stack.gateway, ...stack.renderers].map((service) => `${service.name} ${service.child.pid}`).join(', ');
const redisWhere = stack.redis ? stack.redis.url : `cluster ${redisClusterNodes}`;
console.log(`
stack ready: gateway ${stack.gatewayUrl}, ${renderers} renderer(s), redis ${redisWhere}, s3 ${stack.s3.endpoint}
pids: ${pids}${stack.redis ? `, redis-server ${stack.redis.child.pid}` : ''}
data: ${dataDirectory} (kept on exit; STACK_FRESH=1 starts clean)
try:
  curl -s -X POST "${stack.gatewayUrl}/v1/profile-image?userId=302050872383242240" \\
       -H "Authorization: ${process.env.API_KEYS ? '<one of your API_KEYS>' : firstKey}" -H "Content-Type: application/json" \\
       -d '{"customTag":"Welcome!","presenceStatus":"online"}'
Ctrl-C stops everything.
`);

let stopping = false;
const shutdown = (reason: string, exitCode: number) => {
  if (stopping) return;
  stopping = true;
  say(`${reason}: stopping the stack`);
  void stack.stop().then(() => {
    say(`stopped; data kept in ${dataDirectory}`);
    process.exit(exitCode);
  });
};
process.on('SIGINT', () => shutdown('SIGINT', 0));
process.on('SIGTERM', () => shutdown('SIGTERM', 0));

// Gateway and renderers hold no state of their own: a crashed one is started again, and a job a
// dead renderer held is handed to another by BullMQ once its lock expires.
for (const service of [stack.gateway, ...stack.renderers]) {
  void supervise(service, { restart: (exited) => stack.restart(exited), stopping: () => stopping, log: say }).catch((error: unknown) => {
    say(`supervising ${service.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    shutdown('supervisor failure', 1);
  });
}
// Redis holds the queue, the keys and the limits; restarting it under running services would hide
// the loss of whatever it had not written yet, so its death ends the stack, loudly. A given
// cluster is not the stack's: its nodes fail over on their own and the services reconnect.
const ownRedis = stack.redis;
void ownRedis?.exited.then(({ code, signal }) => {
  if (stopping) return;
  say(`redis-server exited (code ${code}, signal ${signal}): the queue, keys and limits are gone with it. Its data (append-only file) is in ${ownRedis.directory}; run ./run stack again to start over from it.`);
  shutdown('redis-server died', 1);
});
