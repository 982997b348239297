import { randomBytes } from 'node:crypto';
import { startLocalStack } from './local-stack/local-stack.ts';

/**
 * `pnpm stack`: the distributed topology without Docker. PORT (default 3000), API_KEYS (a key is
 * generated when unset) and RENDERERS (default 2) are honoured; Ctrl-C stops everything.
 */
const port = Number(process.env.PORT ?? 3000);
const renderers = Number(process.env.RENDERERS ?? 2);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('PORT must be a port number');
if (!Number.isInteger(renderers) || renderers < 1 || renderers > 32) throw new Error('RENDERERS must be 1 to 32');
const apiKeys = process.env.API_KEYS ?? `dev_${randomBytes(24).toString('base64url')}`;
const passThrough = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && /^(LOG_LEVEL|PUBLIC_BASE_URL|DISCORD_|FETCH_|RENDER_|MEDIA_TTL_DAYS|PROFILE_CACHE_TTL_SECONDS|RATE_LIMITS)/.test(entry[0]),
  ),
);

const stack = await startLocalStack({
  gatewayPort: port,
  renderers,
  apiKeys,
  env: passThrough,
  echo: (service, line) => process.stdout.write(`${service.padEnd(11)} | ${line}\n`),
});
const firstKey = apiKeys.split(',')[0]!.trim();
console.log(`
stack ready: gateway ${stack.gatewayUrl}, ${renderers} renderer(s), redis ${stack.redis.url}, s3 ${stack.s3.endpoint}
try:
  curl -s -X POST "${stack.gatewayUrl}/v1/profile-image?userId=302050872383242240" \\
       -H "Authorization: ${process.env.API_KEYS ? '<one of your API_KEYS>' : firstKey}" -H "Content-Type: application/json" \\
       -d '{"customTag":"Welcome!","presenceStatus":"online"}'
Ctrl-C stops everything.
`);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the stack`);
  void stack.stop().then(() => process.exit(0));
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
for (const service of [stack.gateway, ...stack.renderers]) {
  void service.exited.then(({ code, signal }) => {
    if (!stopping) {
      console.error(`${service.name} exited (code ${code}, signal ${signal}); stopping the stack`);
      shutdown('exit');
    }
  });
}
