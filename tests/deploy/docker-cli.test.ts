/**
 * `pnpm test:docker` picks the docker CLI that can build the Dockerfiles (BuildKit), after it has
 * installed docker.io: a newer `docker` earlier on PATH without its buildx plugin must not win
 * just for being found first. Fake CLIs in a temp folder play both parts: they answer
 * `docker build --help` as the real ones do (docker.io's 20.10 prints its help; a 28.x without
 * buildx fails with BuildKit on), so the choice is made by the script's own probe.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { buildsWithBuildKit, chooseDockerCli } from '../../scripts/docker-test/docker-daemon.ts';

/** Like Docker 23+ without buildx: every build fails unless BuildKit is turned off (which the Dockerfiles cannot do without). */
const WITHOUT_BUILDX = `#!/bin/sh
if [ "$1" = build ] && [ "\${DOCKER_BUILDKIT:-1}" != 0 ]; then
  echo 'ERROR: BuildKit is enabled but the buildx component is missing or broken.' >&2
  exit 1
fi
exit 0
`;
/** Like docker.io's 20.10 (BuildKit built in), or a newer CLI with buildx: the build help prints. */
const WITH_BUILDKIT = `#!/bin/sh
[ "$1" = build ] && echo 'Usage:  docker build [OPTIONS] PATH | URL | -'
exit 0
`;

const root = mkdtempSync(join(tmpdir(), 'docker-cli-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

function executable(path: string, script: string): string {
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return path;
}

/** A machine: a `docker` on PATH (first in PATH) and where docker.io's CLI goes once installed. */
function machine(name: string, pathDocker: string) {
  const pathFolder = join(root, name, 'path');
  const dockerIo = join(root, name, 'usr-bin', 'docker');
  mkdirSync(pathFolder, { recursive: true });
  mkdirSync(join(root, name, 'usr-bin'), { recursive: true });
  executable(join(pathFolder, 'docker'), pathDocker);
  const env = { ...process.env, PATH: `${pathFolder}:${process.env.PATH ?? ''}` };
  return { dockerIo, choose: () => chooseDockerCli([dockerIo, 'docker'], (cli) => buildsWithBuildKit(cli, env)) };
}

test('a buildx-less docker first on PATH: no CLI before docker.io is installed, docker.io\'s once it is', async (t) => {
  const { dockerIo, choose } = machine('without-buildx', WITHOUT_BUILDX);
  // Before the install step: the PATH docker is refused by name, not chosen to fail later in a build.
  const refused = await t.throwsAsync(choose());
  t.regex(refused.message, /no docker CLI here builds with BuildKit/);
  t.true(refused.message.includes(dockerIo));
  executable(dockerIo, WITH_BUILDKIT);
  t.is(await choose(), dockerIo);
});

test('docker.io\'s CLI is preferred even when the PATH docker has buildx', async (t) => {
  const { dockerIo, choose } = machine('both', WITH_BUILDKIT);
  executable(dockerIo, WITH_BUILDKIT);
  t.is(await choose(), dockerIo);
});

test('without docker.io, a PATH docker that builds with BuildKit is used', async (t) => {
  const { choose } = machine('path-only', WITH_BUILDKIT);
  t.is(await choose(), 'docker');
});

test('the probe asks for BuildKit: a buildx-less CLI fails it, though it builds with BuildKit off', async (t) => {
  const cli = executable(join(root, 'probe-docker'), WITHOUT_BUILDX);
  t.false(await buildsWithBuildKit(cli, { ...process.env, DOCKER_BUILDKIT: '0' }));
  t.true(await buildsWithBuildKit(executable(join(root, 'probe-docker-io'), WITH_BUILDKIT)));
  t.false(await buildsWithBuildKit(join(root, 'no-such-docker')));
});
