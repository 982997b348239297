import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { run, succeeds } from './commands.ts';

/**
 * The docker CLI that matches Debian's dockerd 20.10 (docker.io). A newer CLI elsewhere on PATH
 * may lack buildx, without which it refuses DOCKER_BUILDKIT=1 builds.
 */
export const DOCKER = existsSync('/usr/bin/docker') ? '/usr/bin/docker' : 'docker';

export interface DockerDaemon {
  /** The environment every docker and docker-compose call gets (DOCKER_HOST, BuildKit on). */
  env: NodeJS.ProcessEnv;
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

async function reachable(host: string | undefined): Promise<boolean> {
  return succeeds(DOCKER, ['version', '--format', '{{.Server.Version}}'], { env: dockerEnv(host) });
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
  const nothingToStop = async () => {};
  if (process.env.DOCKER_HOST && (await reachable(process.env.DOCKER_HOST))) {
    return { env: dockerEnv(process.env.DOCKER_HOST), startedHere: false, describe: `DOCKER_HOST ${process.env.DOCKER_HOST}`, stop: nothingToStop };
  }
  if (!process.env.DOCKER_HOST && existsSync('/var/run/docker.sock') && (await reachable(undefined))) {
    return { env: dockerEnv(undefined), startedHere: false, describe: 'the system daemon (/var/run/docker.sock)', stop: nothingToStop };
  }

  mkdirSync(directory, { recursive: true });
  const socket = join(directory, 'docker.sock');
  const host = `unix://${socket}`;
  const pidFile = join(directory, 'dockerd.pid');
  if (await reachable(host)) {
    // Left running by an earlier run that did not get to stop it: use it, and leave it as found.
    return { env: dockerEnv(host), startedHere: false, describe: `the private daemon already running on ${socket} (stop it with: kill $(cat ${pidFile}))`, stop: nothingToStop };
  }
  if (process.getuid?.() !== 0) throw new Error('no Docker daemon answers and starting one needs root: run as root, or set DOCKER_HOST');

  const logFile = join(directory, 'dockerd.log');
  const requested = process.env.DOCKER_TEST_STORAGE_DRIVER;
  let lastFailure = '';
  for (const driver of requested ? [requested] : ['overlay2', 'vfs']) {
    const started = Date.now();
    const pid = await startDockerd(directory, host, pidFile, logFile, driver);
    if (pid !== undefined) {
      return {
        env: dockerEnv(host),
        startedHere: true,
        describe: `a private dockerd (pid ${pid}, storage driver ${driver}, ${directory}), up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
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
async function startDockerd(directory: string, host: string, pidFile: string, logFile: string, driver: string): Promise<number | undefined> {
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
  while (!(await reachable(host))) {
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
