import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { aptPackages, envOf, execForm, finalStage, instructionsOf, readDockerfile, stageNamed } from '../../support/deploy/dockerfile.ts';
import { IMAGES, NODE_BASE } from '../../support/deploy/images.ts';
import { workspaceClosure } from '../../support/deploy/workspace.ts';
import { GATEWAY_HEAP_FLAGS } from '../../../services/gateway/src/config.ts';

const BUILD_TOOLS = new Set(['build-essential', 'gcc', 'g++', 'make', 'python3', 'pkg-config', 'node-gyp']);

for (const image of IMAGES) {
  const dockerfile = readDockerfile(image.dockerfile);
  const runtime = finalStage(dockerfile);

  test(`${image.service}: every stage starts from an earlier stage or the pinned Node 24 slim base`, (t) => {
    const seen = new Set<string>();
    for (const stage of dockerfile.stages) {
      if (!seen.has(stage.base)) {
        t.regex(stage.base, NODE_BASE, `stage ${stage.name ?? '(unnamed)'} starts from ${stage.base}`);
        t.notRegex(stage.base, /:latest\b/);
      }
      if (stage.name) seen.add(stage.name);
    }
    for (const stage of dockerfile.stages) {
      for (const copy of instructionsOf(stage, 'COPY')) {
        const from = /--from=(\S+)/.exec(copy.text)?.[1];
        if (from !== undefined) t.true(seen.has(from), `line ${copy.line}: COPY --from=${from} is not a stage of this file`);
      }
    }
  });

  test(`${image.service}: builds with the daemon's own Dockerfile frontend (no syntax directive)`, (t) => {
    // A `# syntax=` line makes BuildKit pull a frontend image first, so the build fails where no
    // registry answers (pnpm test:docker builds these files on such a machine); the built-in
    // frontend of Docker 20.10+ already has RUN --mount.
    const text = readFileSync(join(REPO_ROOT, image.dockerfile), 'utf8');
    t.notRegex(text, /^#\s*syntax\s*=/im);
  });

  test(`${image.service}: the runtime stage runs as a non-root user`, (t) => {
    const user = instructionsOf(runtime, 'USER').at(-1)?.text;
    t.truthy(user, 'the final stage has no USER');
    const [name] = (user ?? 'root').split(':');
    t.not(name, 'root');
    t.not(name, '0');
  });

  test(`${image.service}: the runtime stage has no compiler, -dev package or install step`, (t) => {
    const packages = aptPackages(runtime);
    t.deepEqual(packages.filter((name) => name.endsWith('-dev') || BUILD_TOOLS.has(name)), []);
    for (const run of instructionsOf(runtime, 'RUN')) t.notRegex(run.text, /\b(npm|pnpm|yarn) (install|ci|add)\b/, `line ${run.line}`);
    t.true(packages.includes('tini'), 'tini is installed for the ENTRYPOINT');
  });

  test(`${image.service}: production settings, signals, port and entry point agree`, (t) => {
    const env = envOf(runtime);
    t.is(env.get('NODE_ENV'), 'production');
    t.is(env.get(image.hostVariable), '0.0.0.0', 'listens outside the container');
    t.is(env.get(image.portVariable), String(image.port));
    t.deepEqual(
      instructionsOf(runtime, 'EXPOSE').map((expose) => expose.text),
      [String(image.port)],
    );
    t.is(instructionsOf(runtime, 'STOPSIGNAL').at(-1)?.text, 'SIGTERM');
    t.deepEqual(execForm(instructionsOf(runtime, 'ENTRYPOINT').at(-1)?.text ?? ''), ['/usr/bin/tini', '--']);
    // Node 24 strips the types itself: the image runs the .ts sources with no loader installed.
    // The gateway starts with its heap limits (its share of the embedded tree), as `pnpm start` does.
    const nodeFlags = image.service === 'gateway' ? [...GATEWAY_HEAP_FLAGS] : [];
    t.deepEqual(execForm(instructionsOf(runtime, 'CMD').at(-1)?.text ?? ''), ['node', ...nodeFlags, 'src/main.ts']);
    for (const { folder } of workspaceClosure(image.workspacePackage)) {
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      t.false('tsx' in (manifest.dependencies ?? {}), `${folder} ships no TypeScript loader`);
    }
    const workdir = instructionsOf(runtime, 'WORKDIR').at(-1)?.text;
    t.is(workdir, `/app/services/${image.service}`);
    t.true(existsSync(join(REPO_ROOT, 'services', image.service, 'src/main.ts')));
  });

  test(`${image.service}: the healthcheck is node fetching /healthz on the exposed port`, (t) => {
    const healthchecks = instructionsOf(runtime, 'HEALTHCHECK');
    t.is(healthchecks.length, 1);
    t.regex(healthchecks[0]!.text, /\bCMD \[/, 'exec form: no shell in between');
    const command = execForm(healthchecks[0]!.text);
    t.deepEqual(command.slice(0, 2), ['node', '-e']);
    t.regex(command[2]!, new RegExp(`process\\.env\\.${image.portVariable} \\|\\| ${image.port}\\) \\+ '/healthz'`));
  });

  test(`${image.service}: production dependencies of the service only, from the lockfile`, (t) => {
    const build = stageNamed(dockerfile, 'build');
    const install = instructionsOf(build, 'RUN').find((run) => /\bpnpm install\b/.test(run.text));
    t.truthy(install, 'the build stage runs pnpm install');
    const words = install!.text.split(/\s+/);
    t.true(words.includes('--frozen-lockfile'));
    t.true(words.includes('--prod'));
    t.is(words[words.indexOf('--filter') + 1], `"${image.workspacePackage}..."`);
  });

  test(`${image.service}: the runtime stage copies every service folder the service depends on`, (t) => {
    const copied = instructionsOf(runtime, 'COPY').map((copy) => copy.text.split(/\s+/).at(-1));
    t.true(copied.includes('/app/node_modules'));
    t.true(copied.includes('/app/packages'));
    const serviceFolders = workspaceClosure(image.workspacePackage)
      .map((found) => found.folder)
      .filter((folder) => folder.startsWith('services/'));
    for (const folder of serviceFolders) t.true(copied.includes(`/app/${folder}`), `${folder} is not copied`);
  });
}

test('gateway: the emojibase-data folders the image keeps are the only ones the gateway imports', (t) => {
  const build = stageNamed(readDockerfile('docker/gateway.Dockerfile'), 'build');
  const prune = instructionsOf(build, 'RUN').find((run) => run.text.includes('emojibase-data'));
  t.truthy(prune);
  const kept = [...prune!.text.matchAll(/! -name (\S+)/g)].map((match) => match[1]!);
  t.true(kept.includes('en') && kept.includes('meta'));

  const sources = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  const imported = sources(join(REPO_ROOT, 'services/gateway/src')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from 'emojibase-data\/([^/']+)\//g)].map((match) => match[1]!),
  );
  t.true(imported.length > 0, 'the gateway imports emojibase-data');
  t.deepEqual(
    imported.filter((folder) => !kept.includes(folder)),
    [],
  );
});

test('pnpm start runs the gateway with its heap limits, as the image does', (t) => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  t.true(manifest.scripts.start!.endsWith(`node ${GATEWAY_HEAP_FLAGS.join(' ')} services/gateway/src/main.ts`), manifest.scripts.start);
});

test('docs/operations.md and docs/run-modes.md state the heap limits the gateway starts with', (t) => {
  for (const page of ['operations', 'run-modes']) {
    const text = readFileSync(join(REPO_ROOT, 'docs', `${page}.md`), 'utf8').replaceAll('\n', ' ');
    for (const flag of GATEWAY_HEAP_FLAGS) {
      const [name, value] = flag.split('=');
      t.true(text.includes(flag) || (name === '--max-old-space-size' ? text.includes(`old space ${value} MiB`) : text.includes(`semi-space ${value} MiB`)), `${page}: ${flag}`);
    }
  }
});
