import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { durationSeconds, readComposeFile, readEnvFile, referencedVariables, substitute, type ComposeService } from '../../support/deploy/compose-file.ts';
import { IMAGES } from '../../support/deploy/images.ts';

const compose = readComposeFile();
const services = Object.entries(compose.services);
const envExample = readEnvFile('.env.example');

/** Services others wait for with service_completed_successfully: jobs that run once and exit. */
const oneShotJobs = new Set(
  services.flatMap(([, service]) =>
    Object.entries(Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {}))
      .filter(([, dependency]) => dependency.condition === 'service_completed_successfully')
      .map(([name]) => name),
  ),
);

function commandLine(service: ComposeService): string {
  return Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');
}

test('the stack: gateway, renderer, redis, minio and the one-shot minio-init', (t) => {
  t.deepEqual(Object.keys(compose.services).sort(), ['gateway', 'minio', 'minio-init', 'redis', 'renderer']);
  t.deepEqual([...oneShotJobs], ['minio-init']);
});

test('every long-running service has a healthcheck and a restart policy; one-shot jobs do not restart', (t) => {
  for (const [name, service] of services) {
    if (oneShotJobs.has(name)) {
      t.is(service.restart, 'no', `${name} runs once`);
      continue;
    }
    t.truthy(service.healthcheck?.test, `${name} has no healthcheck`);
    t.not(service.healthcheck?.disable, true, name);
    t.is(service.restart, 'unless-stopped', name);
  }
});

test('every long-running service has a memory and CPU limit that both compose versions apply', (t) => {
  // No `version` key: the Compose Specification, read by docker compose v2 and by docker-compose
  // 1.27+, which turns deploy.resources.limits into the container's mem_limit and cpus even
  // without --compatibility (1.29.2's Project.from_config). A v2/v3 `version` would change that.
  t.false('version' in compose, 'docker-compose.yml must not pin a file format version');
  for (const [name, service] of services) {
    if (oneShotJobs.has(name)) continue;
    t.regex(service.deploy?.resources?.limits?.memory ?? '', /^\d+[MG]$/, `${name} has no memory limit`);
    t.truthy(service.deploy?.resources?.limits?.cpus, `${name} has no CPU limit`);
  }
  // A renderer that leaks is killed and restarted alone, not the host; the limit leaves room for its
  // two render workers at their own ceiling (RENDER_WORKER_MEMORY_MB, 512 MiB by default) and itself,
  // so it is the workers' ceiling, not the container's, that a decoding bomb meets first.
  t.is(compose.services.renderer?.deploy?.resources?.limits?.memory, '1536M');
  t.like(compose.services.renderer?.environment, { RENDER_WORKERS: '${RENDER_WORKERS:-2}', RENDER_WORKER_MEMORY_MB: '${RENDER_WORKER_MEMORY_MB:-}' });
  t.is(compose.services.renderer?.restart, 'unless-stopped');
});

test('depends_on waits for health or completion, never for mere start', (t) => {
  for (const [name, service] of services) {
    t.false(Array.isArray(service.depends_on), `${name}: short-form depends_on only waits for the start`);
    for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
      const target = compose.services[dependency];
      t.truthy(target, `${name} depends on unknown ${dependency}`);
      if (condition === 'service_healthy') t.truthy(target?.healthcheck?.test, `${name} waits for ${dependency}, which has no healthcheck`);
      else t.is(condition, 'service_completed_successfully', `${name} -> ${dependency}`);
    }
  }
  for (const name of ['gateway', 'renderer']) {
    t.deepEqual(Object.keys(compose.services[name]?.depends_on ?? {}).sort(), ['minio', 'minio-init', 'redis'], name);
  }
});

test('renderers scale: two by default, no fixed name, no host port', (t) => {
  const renderer = compose.services.renderer!;
  t.true((renderer.deploy?.replicas ?? 1) >= 2);
  t.is(renderer.container_name, undefined);
  t.is(renderer.ports, undefined);
  t.true(services.every(([, service]) => service.container_name === undefined), 'fixed names break --scale and parallel projects');
});

test('only the gateway is published, on its container port 3000', (t) => {
  const published = services.filter(([, service]) => service.ports !== undefined).map(([name]) => name);
  t.deepEqual(published, ['gateway']);
  const gatewayPort = IMAGES.find((image) => image.service === 'gateway')!.port;
  t.deepEqual(
    compose.services.gateway!.ports!.map((mapping) => substitute(mapping, new Map()).split(':').at(-1)),
    [String(gatewayPort)],
  );
});

test('images: ours are built from the docker/ Dockerfiles, the others are pinned release tags', (t) => {
  for (const image of IMAGES) {
    const service = compose.services[image.service]!;
    t.is(service.build?.context, '.');
    t.is(service.build?.dockerfile, image.dockerfile);
    t.true(existsSync(join(REPO_ROOT, image.dockerfile)));
  }
  for (const [name, service] of services.filter(([, candidate]) => candidate.build === undefined)) {
    const tag = service.image?.split(':')[1];
    t.truthy(tag, `${name} has no tag`);
    t.not(tag, 'latest', name);
    t.notRegex(service.image ?? '', /\$\{/, `${name}: the tag is not a variable`);
  }
  t.regex(compose.services.redis!.image!, /^redis:7\./);
});

test('redis keeps every BullMQ key and persists it', (t) => {
  const command = commandLine(compose.services.redis!);
  t.regex(command, /--maxmemory-policy noeviction\b/);
  t.regex(command, /--appendonly yes\b/);
  t.true((compose.services.redis!.volumes ?? []).some((volume) => volume.endsWith(':/data')));
});

test('named volumes hold Redis and MinIO data', (t) => {
  for (const name of ['redis', 'minio']) {
    const volume = (compose.services[name]!.volumes ?? []).map((mount) => mount.split(':')[0]!).find((source) => !source.startsWith('.'));
    t.truthy(volume, `${name} has no named volume`);
    t.true(volume! in (compose.volumes ?? {}), `${volume} is not declared`);
  }
});

test('minio-init runs the repository script, with the same TTL the services use', (t) => {
  const init = compose.services['minio-init']!;
  const script = (init.volumes ?? []).map((mount) => mount.split(':')).find(([source]) => source?.startsWith('./'));
  t.truthy(script);
  t.true(existsSync(join(REPO_ROOT, script![0]!)));
  t.deepEqual(init.entrypoint, ['/bin/sh', script![1]]);
  const ttl = (service: ComposeService) => String(service.environment?.MEDIA_TTL_DAYS);
  t.is(ttl(init), ttl(compose.services.gateway!));
  t.is(ttl(init), ttl(compose.services.renderer!));
  t.is(substitute(ttl(init), new Map()), '30', 'defaults to 30 days');
});

test('gateway and renderers get time to drain before SIGKILL', (t) => {
  for (const name of ['gateway', 'renderer']) {
    const service = compose.services[name]!;
    const drainMs = Number(substitute(String(service.environment?.SHUTDOWN_TIMEOUT_MS), envExample));
    t.true(durationSeconds(service.stop_grace_period ?? '10s') * 1000 > drainMs, `${name}: stop_grace_period ${service.stop_grace_period} vs ${drainMs} ms`);
    t.true(service.read_only, `${name} has a read-only root filesystem`);
    t.deepEqual(service.tmpfs, ['/tmp'], `${name} writes only to /tmp (fontconfig file)`);
  }
});

test('secrets are required from .env, never defaulted in the compose file', (t) => {
  const required = ['API_KEYS', 'MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'];
  for (const [name, service] of services) {
    for (const [variable, value] of Object.entries(service.environment ?? {})) {
      if (required.includes(variable)) t.regex(String(value), new RegExp(`^\\$\\{${variable}:\\?`), `${name}.${variable}`);
    }
  }
  t.throws(() => substitute(String(compose.services.gateway!.environment?.API_KEYS), new Map()), { message: /API_KEYS/ });
  t.is(compose.services.gateway!.environment?.DISCORD_BOT_TOKEN, undefined, 'the gateway does not need the Discord token');
});

test('.env.example names every variable the compose file reads, and nothing else', (t) => {
  const referenced = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') referencedVariables(value).forEach((name) => referenced.add(name));
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  collect(compose);
  t.deepEqual([...referenced].filter((name) => !envExample.has(name)).sort(), [], 'missing from .env.example');
  t.deepEqual([...envExample.keys()].filter((name) => !referenced.has(name)).sort(), [], 'unused by docker-compose.yml');
});
