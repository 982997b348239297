import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { run, succeeds } from './commands.ts';

/**
 * Where the docker CLI may be, preferred first: Debian's docker.io CLI (20.10, matching its dockerd,
 * BuildKit built in), then whichever `docker` PATH finds.
 */
export const DOCKER_CLI_CANDIDATES = ['/usr/bin/docker', 'docker'] as const;

/**
 * The first candidate that can build with BuildKit, which the Dockerfiles need (`RUN --mount=type=cache`,
 * so DOCKER_BUILDKIT=0 is no way out). It must be chosen after docker.io is installed: chosen before,
 * on a fresh machine, it was a newer `docker` earlier on PATH, which without its buildx plugin refuses
 * every BuildKit build ("BuildKit is enabled but the buildx component is missing or broken").
 */
export async function chooseDockerCli(candidates: readonly string[], buildsWithBuildKit: (cli: string) => Promise<boolean>): Promise<string> {
  for (const cli of candidates) {
    if (await buildsWithBuildKit(cli)) return cli;
  }
  throw new Error(`no docker CLI here builds with BuildKit (tried ${candidates.join(', ')}): install docker.io, or the buildx plugin of your docker`);
}

/**
 * Whether `cli` can run a BuildKit build. `docker build --help` with DOCKER_BUILDKIT=1 answers
 * without a daemon: a CLI of 23 or later lacking buildx fails it at once with the error above, one
 * with BuildKit built in (20.10) or with buildx prints its help. A CLI that is not there fails too.
 */
export async function buildsWithBuildKit(cli: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  try {
    return await succeeds(cli, ['build', '--help'], { env: { ...env, DOCKER_BUILDKIT: '1' } });
  } catch {
    // Not found or not executable: spawn's own error, not an exit status.
    return false;
  }
}

/** A docker CLI to run and the environment to run it in: what every docker call needs. */
export interface DockerClient {
  /** The docker CLI chosen by chooseDockerCli. */
  cli: string;
  /** The environment every docker and docker-compose call gets (DOCKER_HOST, BuildKit on). */
  env: NodeJS.ProcessEnv;
}

export interface DockerDaemon extends DockerClient {
  /** True when this run started the daemon, which `stop` then ends. */
  startedHere: boolean;
  describe: string;
  stop(): Promise<void>;
}

function dockerEnv(host: string | undefined): NodeJS.ProcessEnv {
  // COMPOSE_HTTP_TIMEOUT: with the vfs storage driver, creating a container copies its whole image,
  // which on a busy machine takes longer than compose's default 60 s wait for the API.
  const env: NodeJS.ProcessEnv = { ...process.env, DOCKER_BUILDKIT: '1', COMPOSE_DOCKER_CLI_BUILD: '1', COMPOSE_HTTP_TIMEOUT: '600' };
  if (host === undefined) delete env.DOCKER_HOST;
  else env.DOCKER_HOST = host;
  return env;
}

async function reachable(cli: string, host: string | undefined): Promise<boolean> {
  return succeeds(cli, ['version', '--format', '{{.Server.Version}}'], { env: dockerEnv(host) });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A Docker daemon to talk to: DOCKER_HOST or the system socket when one answers; otherwise a
 * private dockerd whose socket, data, state and log all live under `directory`, so it clashes
 * with no other daemon on the machine and deleting the directory removes everything it stored.
 * It runs with what works in a sandbox without a network of its own: no iptables and no default
 * bridge (user-defined networks, which compose creates, still work; published ports go through
 * docker-proxy). Storage: overlay2 where the file system allows it, else vfs, which copies every
 * layer in full (slow, and tens of GB); DOCKER_TEST_STORAGE_DRIVER picks one.
 */
export async function ensureDockerDaemon(directory: string): Promise<DockerDaemon> {
  // Here, not when the module loads: the caller has installed docker.io by now.
  const cli = await chooseDockerCli(DOCKER_CLI_CANDIDATES, (candidate) => buildsWithBuildKit(candidate));
  const nothingToStop = async () => {};
  if (process.env.DOCKER_HOST && (await reachable(cli, process.env.DOCKER_HOST))) {
    return { cli, env: dockerEnv(process.env.DOCKER_HOST), startedHere: false, describe: `DOCKER_HOST ${process.env.DOCKER_HOST} (CLI ${cli})`, stop: nothingToStop };
  }
  if (!process.env.DOCKER_HOST && existsSync('/var/run/docker.sock') && (await reachable(cli, undefined))) {
    return { cli, env: dockerEnv(undefined), startedHere: false, describe: `the system daemon (/var/run/docker.sock, CLI ${cli})`, stop: nothingToStop };
  }

  mkdirSync(directory, { recursive: true });
  const socket = join(directory, 'docker.sock');
  const host = `unix://${socket}`;
  const pidFile = join(directory, 'dockerd.pid');
  if (await reachable(cli, host)) {
    // Left running by an earlier run that did not get to stop it: use it, and leave it as found.
    return { cli, env: dockerEnv(host), startedHere: false, describe: `the private daemon already running on ${socket} (stop it with: kill $(cat ${pidFile}))`, stop: nothingToStop };
  }
  if (process.getuid?.() !== 0) throw new Error('no Docker daemon answers and starting one needs root: run as root, or set DOCKER_HOST');

  const logFile = join(directory, 'dockerd.log');
  const requested = process.env.DOCKER_TEST_STORAGE_DRIVER;
  let lastFailure = '';
  for (const driver of requested ? [requested] : ['overlay2', 'vfs']) {
    const started = Date.now();
    const pid = await startDockerd(cli, directory, host, pidFile, logFile, driver);
    if (pid !== undefined) {
      return {
        cli,
        env: dockerEnv(host),
        startedHere: true,
        describe: `a private dockerd (pid ${pid}, storage driver ${driver}, ${directory}, CLI ${cli}), up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        async stop() {
          if (!pidAlive(pid)) return;
          // dockerd stops its containers and its own containerd on SIGTERM.
          process.kill(pid, 'SIGTERM');
          for (const stopAt = Date.now() + 60_000; pidAlive(pid) && Date.now() < stopAt; ) await sleep(250);
          if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
        },
      };
    }
    lastFailure = readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
  }
  throw new Error(`dockerd did not come up (log: ${logFile}):\n${lastFailure}`);
}

/**
 * Starts dockerd with `driver` and waits until it answers; undefined when it does not (a file
 * system without overlay support makes dockerd exit at once). Each driver keeps its own data
 * folder, so falling back never mixes the two.
 */
async function startDockerd(cli: string, directory: string, host: string, pidFile: string, logFile: string, driver: string): Promise<number | undefined> {
  const log = openSync(logFile, 'a');
  const daemon = spawn(
    'dockerd',
    [
      `--storage-driver=${driver}`,
      '--iptables=false',
      '--bridge=none',
      `--host=${host}`,
      `--data-root=${join(directory, `data-${driver}`)}`,
      `--exec-root=${join(directory, 'exec')}`,
      `--pidfile=${pidFile}`,
    ],
    // Its own process group: a Ctrl-C meant for this script reaches dockerd only through `stop`.
    { detached: true, stdio: ['ignore', log, log] },
  );
  daemon.unref();
  const pid = daemon.pid!;
  const started = Date.now();
  while (!(await reachable(cli, host))) {
    if (!pidAlive(pid)) return undefined;
    if (Date.now() - started > 60_000) {
      process.kill(pid, 'SIGTERM');
      for (const stopAt = Date.now() + 30_000; pidAlive(pid) && Date.now() < stopAt; ) await sleep(250);
      return undefined;
    }
    await sleep(250);
  }
  return pid;
}
/** Installs the Debian packages this test drives when they are missing (as scripts/check-deploy.sh does). */
export async function ensureSystemPackages(packages: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const name of packages) {
    const status = await run('dpkg-query', ['-W', '-f=${Status}', name]).catch(() => '');
    if (!status.includes('install ok installed')) missing.push(name);
  }
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`missing system packages: ${missing.join(' ')} (apt-get install them as root)`);
  console.log(`docker-test: installing ${missing.join(' ')} with apt`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}
