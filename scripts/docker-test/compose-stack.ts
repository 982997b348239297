import { setTimeout as sleep } from 'node:timers/promises';
import { run } from './commands.ts';
import type { DockerClient } from './docker-daemon.ts';

/** One container as `docker inspect` tells it, with what the test reads. */
export interface ContainerState {
  id: string;
  /** Compose v1 names them <project>_<service>_<n>. */
  name: string;
  service: string;
  status: string;
  exitCode: number;
  health?: string;
  startedAt: number;
  /** End of the first passing healthcheck, when one is still in Docker's last-five log. */
  firstHealthyAt?: number;
  ipAddresses: string[];
  /** What compose applied from the service's settings (deploy.resources, read_only, the image's USER). */
  limits: { memoryBytes: number; cpus: number; readOnlyRoot: boolean; user: string };
}

interface InspectedContainer {
  Id: string;
  Name: string;
  Config: { Labels: Record<string, string>; User: string };
  HostConfig: { Memory: number; NanoCpus: number; ReadonlyRootfs: boolean };
  State: { Status: string; ExitCode: number; StartedAt: string; Health?: { Status: string; Log?: { End: string; ExitCode: number }[] } };
  NetworkSettings: { Networks: Record<string, { IPAddress: string }> };
}

/** Docker's timestamps carry nanoseconds; Date.parse wants at most milliseconds. */
export function dockerTime(text: string): number {
  return Date.parse(text.replace(/(\.\d{3})\d*/, '$1'));
}

/** `docker-compose` (v1.29, Debian's) on one project, with the test's env file and override files. */
export class ComposeStack {
  /** The docker CLI for what docker-compose does not do (inspect, logs, networks). */
  readonly cli: string;
  readonly env: NodeJS.ProcessEnv;
  readonly project: string;
  readonly files: readonly string[];
  readonly envFile: string;

  constructor(options: DockerClient & { project: string; files: readonly string[]; envFile: string }) {
    this.cli = options.cli;
    this.env = options.env;
    this.project = options.project;
    this.files = options.files;
    this.envFile = options.envFile;
  }

  /** The command line a person would type for `args` (printed in the report). */
  commandLine(args: readonly string[]): string {
    return ['docker-compose', '-p', this.project, '--env-file', this.envFile, ...this.files.flatMap((file) => ['-f', file]), ...args].join(' ');
  }

  compose(args: readonly string[]): Promise<string> {
    return run('docker-compose', ['-p', this.project, '--env-file', this.envFile, ...this.files.flatMap((file) => ['-f', file]), ...args], { env: this.env });
  }

  async containers(): Promise<ContainerState[]> {
    const ids = (await run(this.cli, ['ps', '--all', '--quiet', '--filter', `label=com.docker.compose.project=${this.project}`], { env: this.env })).split('\n').filter(Boolean);
    if (ids.length === 0) return [];
    const inspected = JSON.parse(await run(this.cli, ['inspect', ...ids], { env: this.env })) as InspectedContainer[];
    return inspected
      .map((container) => {
        const firstPass = container.State.Health?.Log?.find((entry) => entry.ExitCode === 0);
        return {
          id: container.Id,
          name: container.Name.replace(/^\//, ''),
          service: container.Config.Labels['com.docker.compose.service'] ?? '?',
          status: container.State.Status,
          exitCode: container.State.ExitCode,
          health: container.State.Health?.Status,
          startedAt: dockerTime(container.State.StartedAt),
          firstHealthyAt: firstPass ? dockerTime(firstPass.End) : undefined,
          ipAddresses: Object.values(container.NetworkSettings.Networks).map((network) => network.IPAddress).filter(Boolean),
          limits: {
            memoryBytes: container.HostConfig.Memory,
            cpus: container.HostConfig.NanoCpus / 1e9,
            readOnlyRoot: container.HostConfig.ReadonlyRootfs,
            user: container.Config.User || 'root',
          },
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Waits until every container with a healthcheck is healthy and every one-shot container has
   * exited 0; returns them. Fails at once when a container is unhealthy or exited otherwise.
   */
  async waitHealthy(timeoutMs: number, expected: Record<string, number>): Promise<ContainerState[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const containers = await this.containers();
      const problems: string[] = [];
      const waiting: string[] = [];
      for (const container of containers) {
        if (container.status === 'exited' && container.exitCode !== 0) problems.push(`${container.name} exited with ${container.exitCode}`);
        else if (container.health === 'unhealthy') problems.push(`${container.name} is unhealthy`);
        else if (container.health !== undefined && container.health !== 'healthy') waiting.push(`${container.name} (${container.health})`);
        else if (container.health === undefined && container.status !== 'exited') waiting.push(`${container.name} (${container.status}, no healthcheck)`);
      }
      for (const [service, count] of Object.entries(expected)) {
        const found = containers.filter((container) => container.service === service).length;
        if (found < count) waiting.push(`${service}: ${found} of ${count} containers`);
      }
      if (problems.length > 0) throw new Error(`${problems.join('; ')}\n${await this.logsTail(containers)}`);
      if (waiting.length === 0) return containers;
      if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs / 1000} s for ${waiting.join(', ')}\n${await this.logsTail(containers)}`);
      await sleep(1000);
    }
  }

  /** The last lines of every container's log, for failure messages. */
  async logsTail(containers: readonly ContainerState[], lines = 15): Promise<string> {
    const parts = await Promise.all(
      containers.map(async (container) => {
        const output = await run(this.cli, ['logs', '--tail', String(lines), container.id], { env: this.env }).catch((error: Error) => error.message);
        return `--- ${container.name} (${container.status}${container.health ? `, ${container.health}` : ''})\n${output.trim()}`;
      }),
    );
    return parts.join('\n');
  }

  /** When the container first printed a line matching `pattern` (Docker's own log timestamps). */
  async firstLogLineAt(container: ContainerState, pattern: RegExp): Promise<number | undefined> {
    // Docker keeps stdout and stderr apart; both matter (MinIO and Redis print to stdout, pino too).
    const output = await run(this.cli, ['logs', '--timestamps', container.id], { env: this.env });
    const line = output.split('\n').find((candidate) => pattern.test(candidate));
    return line === undefined ? undefined : dockerTime(line.split(' ')[0]!);
  }

  async networkGateway(): Promise<string> {
    const networks = (await run(this.cli, ['network', 'ls', '--quiet', '--filter', `label=com.docker.compose.project=${this.project}`], { env: this.env })).split('\n').filter(Boolean);
    if (networks.length !== 1) throw new Error(`expected one network for ${this.project}, found ${networks.length}`);
    const gateway = (await run(this.cli, ['network', 'inspect', '--format', '{{range .IPAM.Config}}{{.Gateway}}{{end}}', networks[0]!], { env: this.env })).trim();
    if (!gateway) throw new Error('the compose network has no gateway address');
    return gateway;
  }
}
