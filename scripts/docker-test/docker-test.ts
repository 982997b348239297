/**
 * `pnpm test:docker`: the Docker deployment built and run for real, end to end.
 *
 *   1. a Docker daemon: DOCKER_HOST or the system one, else a private dockerd under the cache
 *      folder (UTILITY_API_DOCKER_DIR, default /var/tmp/utility-api-docker), stopped at the end;
 *   2. the gateway and renderer images from docker/*.Dockerfile; when node:24-bookworm-slim,
 *      redis:7.4-alpine or MinIO cannot be pulled, stand-ins made from Debian packages and the npm
 *      registry take their place (stand-in-images.ts, compose overrides docker-compose.stand-in-*.yml);
 *   3. docker-compose.yml up (gateway, 2 renderers, Redis, S3) until every healthcheck passes; a card
 *      through the published port and its /media PNG; `--scale renderer=3` and the third renderer
 *      taking cards; a renderer `docker kill`ed mid-card while the card still arrives; `down -v`.
 *
 * Prints step timings, image sizes and container start-up times. Not part of `pnpm test`: it needs
 * root (or a Docker daemon), Debian's archive and the npm registry, and takes minutes.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { parse } from 'yaml';
import { freeLoopbackPort } from '../local-stack/free-port.ts';
import { startBackgroundServer, type BackgroundServer } from './background-server.ts';
import { run } from './commands.ts';
import { ComposeStack, type ContainerState } from './compose-stack.ts';
import { ensureDockerDaemon, ensureSystemPackages, type DockerDaemon } from './docker-daemon.ts';
import { imageAvailable, standInNode, standInRedis, standInS3, STAND_IN_TAGS, type StandInContext } from './stand-in-images.ts';

const REPO_ROOT = join(import.meta.dirname, '../..');
const CACHE = process.env.UTILITY_API_DOCKER_DIR ?? '/var/tmp/utility-api-docker';
const PROJECT = 'utility-api-docker-test';
const IMAGE_TAG = 'docker-test';
const USER_ID = '302050872383242240';
const API_KEY = `docker-test-${randomBytes(12).toString('hex')}`;
const RENDERER_READY = /renderer ready/;
const READY_LINES: Record<string, RegExp> = {
  gateway: /gateway listening/,
  renderer: RENDERER_READY,
  redis: /Ready to accept connections/,
  minio: /s3rver stand-in listening|API: http/,
};

const startedAt = performance.now();
const timings: { step: string; seconds: number }[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function step<T>(name: string, action: () => Promise<T>): Promise<T> {
  console.log(`\n== ${name}`);
  const began = performance.now();
  try {
    return await action();
  } finally {
    const seconds = (performance.now() - began) / 1000;
    timings.push({ step: name, seconds });
    console.log(`   (${seconds.toFixed(1)} s)`);
  }
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`   ok - ${message}`);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(0)} MB`;
}

async function imageSize(daemon: DockerDaemon, tag: string): Promise<number> {
  return Number((await run(daemon.cli, ['image', 'inspect', '--format', '{{.Size}}', tag], { env: daemon.env })).trim());
}

/** The images docker-compose.yml and the Dockerfiles name (so the test follows their pins). */
function productionImages() {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { image?: string }> };
  const nodeBase = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(REPO_ROOT, 'docker/renderer.Dockerfile'), 'utf8'))?.[1];
  if (!nodeBase) throw new Error('docker/renderer.Dockerfile declares no ARG NODE_IMAGE=<default>');
  const image = (service: string) => {
    const found = compose.services[service]?.image;
    if (!found) throw new Error(`docker-compose.yml: service ${service} has no image`);
    return found;
  };
  return { nodeBase, redis: image('redis'), minio: image('minio'), minioClient: image('minio-init') };
}

async function buildServiceImage(daemon: DockerDaemon, service: 'gateway' | 'renderer', nodeBase: string): Promise<string> {
  const tag = `utility-api-${service}:${IMAGE_TAG}`;
  const logFile = join(CACHE, 'logs', `${service}-build.log`);
  writeFileSync(logFile, '');
  await run(daemon.cli, ['build', '--network', 'host', '--build-arg', `NODE_IMAGE=${nodeBase}`, '--file', `docker/${service}.Dockerfile`, '--tag', tag, '.'], {
    cwd: REPO_ROOT,
    env: daemon.env,
    logFile,
  });
  console.log(`   docker build -f docker/${service}.Dockerfile --build-arg NODE_IMAGE=${nodeBase} -t ${tag} . (log: ${logFile})`);
  return tag;
}

interface ProfileImageAnswer {
  status: number;
  body: { url?: string; error?: string };
}

async function postCard(gatewayUrl: string, body: Record<string, unknown>): Promise<ProfileImageAnswer> {
  const response = await fetch(`${gatewayUrl}/v1/profile-image?userId=${USER_ID}`, {
    method: 'POST',
    headers: { authorization: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  return { status: response.status, body: (await response.json()) as ProfileImageAnswer['body'] };
}

/** Fetches a card's /media URL and checks it is a real PNG of a card's size. */
async function fetchCardPng(url: string): Promise<{ bytes: number; width: number; height: number }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  check(response.status === 200, `GET ${new URL(url).pathname} answers 200`);
  check(response.headers.get('content-type') === 'image/png', 'served as image/png');
  const bytes = Buffer.from(await response.arrayBuffer());
  const metadata = await sharp(bytes).metadata();
  check(metadata.format === 'png' && (metadata.width ?? 0) > 100 && (metadata.height ?? 0) > 50, `the bytes decode as a ${metadata.width}x${metadata.height} PNG (${bytes.length} bytes)`);
  return { bytes: bytes.length, width: metadata.width ?? 0, height: metadata.height ?? 0 };
}

function containerOf(containers: readonly ContainerState[], address: string): ContainerState | undefined {
  return containers.find((container) => container.ipAddresses.includes(address));
}

async function startUpTimes(stack: ComposeStack, containers: readonly ContainerState[]): Promise<string[]> {
  const lines: string[] = [];
  for (const container of containers) {
    const ready = READY_LINES[container.service];
    const readyAt = ready ? await stack.firstLogLineAt(container, ready) : undefined;
    const parts = [
      readyAt === undefined ? undefined : `ready (log line) ${((readyAt - container.startedAt) / 1000).toFixed(1)} s after start`,
      container.firstHealthyAt === undefined ? undefined : `first healthcheck passed ${((container.firstHealthyAt - container.startedAt) / 1000).toFixed(1)} s after start`,
      container.health === undefined && container.status === 'exited' ? `one-shot, exited ${container.exitCode}` : undefined,
    ].filter(Boolean);
    lines.push(`${container.name}: ${parts.join(', ') || container.status}`);
  }
  return lines;
}

async function main(): Promise<void> {
  mkdirSync(join(CACHE, 'logs'), { recursive: true });
  await step('system packages (docker.io, docker-compose, debootstrap)', () => ensureSystemPackages(['docker.io', 'docker-compose', 'debootstrap']));
  const daemon = await step('Docker daemon', () => ensureDockerDaemon(join(CACHE, 'dockerd')));
  cleanups.push(() => daemon.stop());
  console.log(`   using ${daemon.describe}`);

  // ---- images
  const production = productionImages();
  const standIns: StandInContext = { cli: daemon.cli, env: daemon.env, cacheDirectory: CACHE, log: (message) => console.log(`   ${message}`) };
  const bases = await step('base images (pulled, or stand-ins)', async () => {
    const [node, redis, minio, minioClient] = await Promise.all(
      [production.nodeBase, production.redis, production.minio, production.minioClient].map((tag) => imageAvailable(daemon, tag)),
    );
    const overrides: string[] = [];
    const used: string[] = [];
    let nodeBase = production.nodeBase;
    let standInNodeBase: Awaited<ReturnType<typeof standInNode>> | undefined;
    if (!node) {
      standInNodeBase = await standInNode(standIns);
      nodeBase = standInNodeBase.tag;
    }
    used.push(`${production.nodeBase}: ${node ? 'pulled' : `cannot be pulled; STAND-IN ${nodeBase}`}`);
    if (!redis) {
      await standInRedis(standIns);
      overrides.push('scripts/docker-test/docker-compose.stand-in-redis.yml');
    }
    used.push(`${production.redis}: ${redis ? 'pulled' : `cannot be pulled; STAND-IN ${STAND_IN_TAGS.redis}`}`);
    if (!minio || !minioClient) {
      standInNodeBase ??= await standInNode(standIns);
      await standInS3(standIns, standInNodeBase);
      overrides.push('scripts/docker-test/docker-compose.stand-in-s3.yml');
    }
    used.push(`${production.minio} + ${production.minioClient}: ${minio && minioClient ? 'pulled' : `cannot be pulled; STAND-IN ${STAND_IN_TAGS.s3rver} (s3rver)`}`);
    for (const line of used) console.log(`   ${line}`);
    return { nodeBase, overrides, used };
  });

  const renderer = await step('build docker/renderer.Dockerfile', () => buildServiceImage(daemon, 'renderer', bases.nodeBase));
  const gateway = await step('build docker/gateway.Dockerfile', () => buildServiceImage(daemon, 'gateway', bases.nodeBase));
  const imageSizes: string[] = [];
  for (const tag of [gateway, renderer, bases.nodeBase]) imageSizes.push(`${tag}: ${megabytes(await imageSize(daemon, tag))}`);

  // ---- the stack
  const port = await freeLoopbackPort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const envFile = join(CACHE, 'docker-test.env');
  const settings: Record<string, string> = {
    IMAGE_TAG,
    GATEWAY_PORT: String(port),
    PUBLIC_BASE_URL: gatewayUrl,
    API_KEYS: API_KEY,
    MINIO_ROOT_USER: 'docker-test-root',
    MINIO_ROOT_PASSWORD: randomBytes(16).toString('hex'),
    // s3rver knows one access key, S3RVER (any secret: it does not check v4 signatures).
    S3_ACCESS_KEY: bases.overrides.some((file) => file.endsWith('stand-in-s3.yml')) ? 'S3RVER' : 'docker-test-services',
    S3_SECRET_KEY: randomBytes(16).toString('hex'),
    // The test's backgrounds come from the host's address on the compose network (Docker's pools).
    FETCH_ALLOW_PRIVATE_HOSTS: '172.16.0.0/12,192.168.0.0/16',
    // One render thread per renderer (the machine is shared), and room for a card whose renderer
    // was killed: lock expiry (8 s) + stalled check (4 s) + the second render, beyond the 20 s default.
    RENDER_WORKERS: '1',
    RENDER_TIMEOUT_MS: '60000',
    CARDS_IN_FLIGHT_PER_KEY: '32',
    RATE_LIMIT_PROFILE_IMAGE: '600/60s',
    SHUTDOWN_TIMEOUT_MS: '5000',
  };
  writeFileSync(envFile, Object.entries(settings).map(([name, value]) => `${name}=${value}\n`).join(''), { mode: 0o600 });
  const stack = new ComposeStack({ cli: daemon.cli, env: daemon.env, project: PROJECT, files: ['docker-compose.yml', ...bases.overrides], envFile });

  await step('clear any earlier test stack', () => stack.compose(['down', '--volumes', '--remove-orphans']));
  cleanups.push(async () => {
    await step('docker-compose down -v', async () => {
      await stack.compose(['down', '--volumes', '--remove-orphans', '--timeout', '10']);
      const left = await stack.containers();
      check(left.length === 0, 'no container of the test project is left');
      const volumes = (await run(daemon.cli, ['volume', 'ls', '--quiet', '--filter', `label=com.docker.compose.project=${PROJECT}`], { env: daemon.env })).trim();
      check(volumes === '', 'its volumes are removed');
    });
  });

  await step('docker-compose up -d (gateway, 2 renderers, Redis, S3)', async () => {
    try {
      await stack.compose(['up', '-d', '--no-build']);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await stack.logsTail(await stack.containers())}`, { cause: error });
    }
  });
  console.log(`   ${stack.commandLine(['up', '-d', '--no-build'])}`);
  const upContainers = await step('every healthcheck healthy', () => stack.waitHealthy(240_000, { gateway: 1, renderer: 2, redis: 1, minio: 1 }));
  const startUp = await startUpTimes(stack, upContainers);
  for (const line of startUp) console.log(`   ${line}`);
  const settingsApplied = upContainers
    .filter((container) => container.service === 'gateway' || container.service === 'renderer')
    .map(({ name, limits }) => `${name.replace(`${PROJECT}_`, '')}: user ${limits.user}, ${limits.readOnlyRoot ? 'read-only root' : 'WRITABLE root'}, memory ${limits.memoryBytes / 2 ** 20} MiB, ${limits.cpus} CPUs`);
  for (const line of settingsApplied) console.log(`   ${line}`);
  for (const container of upContainers.filter((candidate) => candidate.service === 'gateway' || candidate.service === 'renderer')) {
    check(container.limits.user === 'node' && container.limits.readOnlyRoot, `${container.name} runs as node on a read-only root`);
  }

  const networkGateway = await stack.networkGateway();
  const backgrounds: BackgroundServer = await startBackgroundServer(networkGateway);
  cleanups.push(() => backgrounds.close());

  const firstCard = await step('a card through the published gateway port, and its /media PNG', async () => {
    const answer = await postCard(gatewayUrl, { customBackground: `${backgrounds.url}/slow/first?ms=200`, customTag: 'built by Docker' });
    check(answer.status === 200 && typeof answer.body.url === 'string', `POST /v1/profile-image answers 200 with a url (${answer.status} ${JSON.stringify(answer.body)})`);
    check(answer.body.url.startsWith(`${gatewayUrl}/media/`), `the url is ${answer.body.url}`);
    return fetchCardPng(answer.body.url);
  });

  const scaled = await step('docker-compose up -d --scale renderer=3, the third renderer takes cards', async () => {
    await stack.compose(['up', '-d', '--no-build', '--no-recreate', '--scale', 'renderer=3']);
    console.log(`   ${stack.commandLine(['up', '-d', '--no-build', '--no-recreate', '--scale', 'renderer=3'])}`);
    const containers = await stack.waitHealthy(240_000, { gateway: 1, renderer: 3, redis: 1, minio: 1 });
    const third = containers.find((container) => container.name === `${PROJECT}_renderer_3`);
    check(third !== undefined, 'renderer_3 runs and is healthy');
    // Twelve slow cards at once: each renderer holds at most RENDER_CONCURRENCY (4) at a time, so
    // two renderers cannot take them all while the cards are still being fetched.
    const before = backgrounds.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => postCard(gatewayUrl, { customBackground: `${backgrounds.url}/slow/scaled-${index}?ms=3000`, customTag: `scaled ${index}` })),
    );
    check(answers.every((answer) => answer.status === 200), `all 12 cards answered 200 (${answers.map((answer) => answer.status).join(' ')})`);
    const byRenderer = new Map<string, number>();
    for (const request of backgrounds.requests.slice(before)) {
      const name = containerOf(containers, request.remoteAddress)?.name ?? request.remoteAddress;
      byRenderer.set(name, (byRenderer.get(name) ?? 0) + 1);
    }
    const spread = [...byRenderer].sort().map(([name, count]) => `${name.replace(`${PROJECT}_`, '')}: ${count}`).join(', ');
    check((byRenderer.get(third.name) ?? 0) > 0, `renderer_3 fetched ${byRenderer.get(third.name) ?? 0} of the 12 backgrounds (${spread})`);
    return { third: third, spread, startUp: await startUpTimes(stack, [third]) };
  });

  const kill = await step('docker kill a renderer mid-card; the card still arrives', async () => {
    const containers = await stack.containers();
    const fetching = backgrounds.nextRequest('/slow/killed');
    const began = performance.now();
    const pending = postCard(gatewayUrl, { customBackground: `${backgrounds.url}/slow/killed?ms=4000`, customTag: 'outlives its renderer' });
    const request = await fetching;
    const victim = containerOf(containers, request.remoteAddress);
    check(victim?.service === 'renderer', `the background is being fetched by ${victim?.name ?? request.remoteAddress}`);
    await run(daemon.cli, ['kill', victim.id], { env: daemon.env });
    const killedAfter = (performance.now() - began) / 1000;
    console.log(`   docker kill ${victim.name} ${killedAfter.toFixed(1)} s into the card`);
    const answer = await pending;
    const seconds = (performance.now() - began) / 1000;
    check(answer.status === 200 && typeof answer.body.url === 'string', `the card still answers 200 with a url, after ${seconds.toFixed(1)} s (${JSON.stringify(answer.body)})`);
    const retried = backgrounds.requests.filter((seen) => seen.path === '/slow/killed');
    const takenOverBy = containerOf(containers, retried.at(-1)!.remoteAddress)?.name ?? '?';
    check(retried.length >= 2 && takenOverBy !== victim.name, `another renderer (${takenOverBy}) fetched the background again`);
    await fetchCardPng(answer.body.url);
    await sleep(1000);
    const after = (await stack.containers()).find((container) => container.id === victim.id);
    console.log(`   ${victim.name} after docker kill: ${after?.status ?? 'gone'} (exit code ${after?.exitCode ?? '?'})`);
    return { victim: victim.name, seconds, takenOverBy, afterKill: `${after?.status ?? 'gone'}` };
  });

  // ---- report (down -v runs in the cleanups, timed too)
  await runCleanups();
  const total = (performance.now() - startedAt) / 1000;
  console.log('\n== summary');
  console.log(`bases: ${bases.used.join('; ')}`);
  console.log('image sizes (docker image inspect .Size):');
  for (const line of imageSizes) console.log(`  ${line}`);
  console.log('container start-up (from the container start):');
  for (const line of [...startUp, ...scaled.startUp]) console.log(`  ${line}`);
  console.log(`settings compose applied: ${settingsApplied.join('; ')}`);
  console.log(`first card: ${firstCard.width}x${firstCard.height} PNG, ${firstCard.bytes} bytes`);
  console.log(`scaled to 3 renderers; backgrounds fetched per renderer: ${scaled.spread}`);
  console.log(`killed ${kill.victim} mid-card: the card arrived after ${kill.seconds.toFixed(1)} s, taken over by ${kill.takenOverBy}; the killed container is ${kill.afterKill}`);
  console.log('step timings:');
  for (const { step: name, seconds } of timings) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
  console.log(`docker-test: passed in ${total.toFixed(0)} s`);
}

let cleaningUp: Promise<void> | undefined;
function runCleanups(): Promise<void> {
  cleaningUp ??= (async () => {
    while (cleanups.length > 0) {
      const cleanup = cleanups.pop()!;
      try {
        await cleanup();
      } catch (error) {
        console.error(`docker-test: cleanup failed: ${(error as Error).message}`);
        process.exitCode = 1;
      }
    }
  })();
  return cleaningUp;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\ndocker-test: ${signal}; tearing down what this run started`);
    void runCleanups().then(() => process.exit(130));
  });
}

try {
  await main();
} catch (error) {
  console.error(`\ndocker-test: FAILED: ${(error as Error).message}`);
  await runCleanups();
  process.exit(1);
}
