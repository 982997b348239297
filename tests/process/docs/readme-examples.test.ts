/**
 * Every example of the README and of docs/*.md runs as written, against a whole gateway this test
 * starts: shell blocks with bash (with BASE, KEY, AVATAR and MOVING set as the README's API tour
 * tells the reader to, to this gateway, its key and images this test serves), TypeScript and
 * JavaScript type-checked and then run with a fake discord.js delivering a member joining, Python
 * run with discord.py's client run replaced the same way, JSON parsed and, where it shows an answer,
 * compared in shape with the answer the block before it got. A block that cannot run here carries
 * `<!-- example: covered by <file>: <command> -->`, checked against the file that runs it.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { ContainerBuilder, MessageFlags } from 'discord.js';
import { defaultPublicBaseUrl } from '../../../services/gateway/src/config.ts';
import { png, startImageServer, type ImageServer } from '../../support/pipeline/image-server.ts';
import { animatedImage, BLUE, encodePng, GREEN, isCloseTo, quadrantCanvas, RED, type Rgba, solidPng, WHITE } from '../../fixtures/images.ts';
import { startFakeDiscord, type FakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { WELCOME_AVATAR } from '../../../packages/card/src/layout/welcome-layout.ts';
import { decodePng } from '../../support/pipeline/png-pixels.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';
import { allBlocks, blocksOf, describe, ROOT, type DocBlock } from '../../support/docs/doc-blocks.ts';

const run = promisify(execFile);
/** Debian's interpreter, with the python3-discord and python3-setuptools `scripts/setup.sh --test` installs (see tests/process/sdk/python-sdk.test.ts). */
const PYTHON = '/usr/bin/python3';
/** Where the code blocks are written to be compiled and run: inside the repository, so `discord.js` and `@utility-api/client` resolve as for examples/. */
const GENERATED = join(ROOT, 'tests/support/docs/generated');
const USER_ID = '302050872383242240';
/**
 * The members who join the documented bots, as Discord's API sends them: a real-looking one and one
 * with an 80-character display name (Discord allows 32; the card must still be drawn), each with an
 * avatar of four colours of its own on the fake CDN, to be found again in the card's avatar circle.
 */
const MEMBERS = [
  { user: { id: USER_ID, username: 'ada.codes', discriminator: '0', global_name: 'Ada Lovelace', avatar: '0123456789abcdef0123456789abcdef' }, quadrants: [RED, GREEN, BLUE, WHITE] as [Rgba, Rgba, Rgba, Rgba] },
  {
    user: { id: '80351110224678912', username: 'longname', discriminator: '0', global_name: `Grace ${'Brewster Murray '.repeat(5)}Hopper`.slice(0, 80), avatar: 'fedcba9876543210fedcba9876543210' },
    quadrants: [BLUE, WHITE, RED, GREEN] as [Rgba, Rgba, Rgba, Rgba],
  },
];
/** The variables the README's API tour tells the reader to set, and nothing else. */
const TOUR_VARIABLES = ['BASE', 'KEY', 'AVATAR', 'MOVING'];
/** Variables shell blocks may read besides the tour's: the environment itself. */
const ENVIRONMENT_VARIABLES = new Set(['HOME', 'PATH', 'PWD']);
/** PNG, WebP (RIFF) and GIF magic, as hex of the first 4 bytes. */
const IMAGE_HEADS = ['89504e47', '52494646', '47494638'];

let gateway: TestGateway;
let images: ImageServer;
let discord: FakeDiscord;
/** The reader's working folder: a `./run` of this repository, a copy of sdk/python, examples/. */
let checkout: string;
let scratch: string;
let shellEnvironment: NodeJS.ProcessEnv;

test.before(async () => {
  const movingGif = await animatedImage('gif', { width: 300, height: 100 }, ['#1abc9c', '#9b59b6', '#f1c40f'], [200, 200, 200]);
  images = await startImageServer({
    '/avatar.png': png(solidPng(256, 256, '#e67e22')),
    '/moving.gif': (_request, respond) => respond(200, 'image/gif', movingGif),
  });
  // The members' avatars on Discord's CDN, where the API fetches them from the objects the bots send (no bot token).
  discord = await startFakeDiscord();
  for (const { user, quadrants } of MEMBERS) discord.images.set(`/avatars/${user.id}/${user.avatar}.png`, encodePng(quadrantCanvas(256, 256, quadrants)));
  // Cards are checked for what they are, not for speed: the animated one takes seconds on a loaded machine.
  gateway = await startTestGateway({
    render: true,
    env: { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1', RENDER_TIMEOUT_MS: '120000', RENDER_ANIMATED_TIME_BUDGET_MS: '60000', DISCORD_CDN_BASE_URL: discord.cdnBaseUrl },
  });
  scratch = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  checkout = join(scratch, 'checkout');
  mkdirSync(join(checkout, 'sdk'), { recursive: true });
  writeFileSync(join(checkout, 'run'), `#!/usr/bin/env bash\nexec ${JSON.stringify(join(ROOT, 'run'))} "$@"\n`, { mode: 0o755 });
  cpSync(join(ROOT, 'sdk/python'), join(checkout, 'sdk/python'), { recursive: true, filter: (path) => !['build', '__pycache__'].includes(basename(path)) && !path.endsWith('.egg-info') });
  symlinkSync(join(ROOT, 'examples'), join(checkout, 'examples'));
  // `python3` is Debian's, as on the machine the README describes (a pyenv shim may come first on PATH here).
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  symlinkSync(PYTHON, join(bin, 'python3'));
  // curl fails on an HTTP error (and still prints the body), so a refused example fails its block.
  writeFileSync(join(scratch, '.curlrc'), 'fail-with-body\nmax-time = 150\n');
  shellEnvironment = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    CURL_HOME: scratch,
    // ./run keys works on this gateway's database, as on the reader's machine it works on theirs.
    DATABASE_PATH: join(gateway.mediaDir, 'accounts.sqlite'),
    BASE: gateway.url,
    KEY: TEST_API_KEY,
    AVATAR: `${images.url}/avatar.png`,
    MOVING: `${images.url}/moving.gif`,
  };
  mkdirSync(GENERATED, { recursive: true });
});

test.after.always(async () => {
  await gateway?.close();
  await images?.close();
  await discord?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  rmSync(GENERATED, { recursive: true, force: true });
});

const failure = (error: unknown) => {
  const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message?: string };
  return [message, stdout, stderr].filter(Boolean).join('\n');
};

/** Names a bash script reads as `$NAME` or `${NAME}` and those it assigns itself. */
function shellVariables(code: string) {
  const read = new Set([...code.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1]!));
  const assigned = new Set([...code.matchAll(/(?:^|[\s;(])([A-Z_][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
  return { read, assigned };
}

/** The same JSON shape: the same keys in every object, the same type of every value, arrays by their first item. */
function shapeDifferences(example: unknown, actual: unknown, path = '$'): string[] {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(example) !== kind(actual)) return [`${path}: ${kind(example)} in the example, ${kind(actual)} answered`];
  if (Array.isArray(example) && Array.isArray(actual)) {
    return example.length > 0 && actual.length > 0 ? shapeDifferences(example[0], actual[0], `${path}[0]`) : [];
  }
  if (kind(example) !== 'object') return [];
  const shown = example as Record<string, unknown>;
  const answered = actual as Record<string, unknown>;
  const keys = new Set([...Object.keys(shown), ...Object.keys(answered)]);
  return [...keys].flatMap((key) => {
    if (!(key in shown)) return [`${path}.${key}: answered, missing from the example`];
    if (!(key in answered)) return [`${path}.${key}: in the example, not answered`];
    return shapeDifferences(shown[key], answered[key], `${path}.${key}`);
  });
}

test('every block of the README and docs/ has a kind this test knows (text for output), or a marker', (t) => {
  const blocks = allBlocks();
  t.true(blocks.length > 30, `${blocks.length} blocks found`);
  for (const block of blocks) t.truthy(block.kind, `${describe(block)}: fence it as sh, ts, js, python, json or text`);
});

test('a block that cannot run here names the file that runs it, and that file runs its command', (t) => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const marked = allBlocks().filter((block) => block.coveredBy);
  t.true(marked.length > 0);
  for (const block of marked) {
    const { file, command } = block.coveredBy!;
    t.true(existsSync(join(ROOT, file)), `${describe(block)}: ${file} exists`);
    if (!existsSync(join(ROOT, file))) continue;
    t.true(readFileSync(join(ROOT, file), 'utf8').includes(command), `${describe(block)}: ${file} contains "${command}"`);
    // The command is the block's own, or what its `./run <script>` runs (./run is pnpm on Node 24).
    const viaScripts = [...block.code.matchAll(/\.\/run (\S+)/g)].some((match) => scripts[match[1]!]?.includes(command));
    t.true(block.code.includes(command) || viaScripts, `${describe(block)}: the block runs "${command}"`);
  }
});

test("the API tour's variables are the ones this test sets, and BASE is where ./run start listens", (t) => {
  const definitions = blocksOf('README.md').filter((block) => block.kind === 'shell' && /^BASE=/m.test(block.code));
  t.is(definitions.length, 1, 'one block defines BASE');
  const block = definitions[0]!;
  t.deepEqual([...block.code.matchAll(/^([A-Z_]+)=/gm)].map((match) => match[1]), TOUR_VARIABLES);
  const base = /^BASE=(\S+)/m.exec(block.code)![1];
  // PORT and HOST at their defaults (config.ts), as `./run start` without settings.
  t.is(base, defaultPublicBaseUrl('127.0.0.1', 3000));
  // The tour's image URLs are public ones a reader's gateway can fetch (loopback is refused unless allowed).
  for (const name of ['AVATAR', 'MOVING']) t.regex(new RegExp(`^${name}=(\\S+)`, 'm').exec(block.code)![1]!, /^https:\/\/[a-z0-9.-]+\.(com|org)\//);
});

test("the README's welcome bots are examples/ as they are, at most 15 lines each", (t) => {
  const readme = blocksOf('README.md');
  const typescript = readFileSync(join(ROOT, 'examples/discord-js-welcome.ts'), 'utf8');
  const python = readFileSync(join(ROOT, 'examples/discord-py-welcome.py'), 'utf8');
  t.true(readme.some((block) => block.kind === 'ts' && block.code === typescript), 'the discord.js bot');
  t.true(readme.some((block) => block.kind === 'python' && block.code === python), 'the discord.py bot');
  for (const bot of [typescript, python]) t.true(bot.trimEnd().split('\n').length <= 15);
});

test.serial('every shell block runs with bash as written; each JSON or header block after one matches what it got', async (t) => {
  t.timeout(600_000);
  for (const document of [...new Set(allBlocks().map((block) => block.document))]) {
    let previous: { block: DocBlock; stdout: string } | undefined;
    for (const block of blocksOf(document)) {
      const answered = previous;
      previous = undefined;
      if (block.coveredBy) continue;
      if (block.kind === 'shell') {
        const { read, assigned } = shellVariables(block.code);
        const unknown = [...read].filter((name) => !TOUR_VARIABLES.includes(name) && !assigned.has(name) && !ENVIRONMENT_VARIABLES.has(name));
        t.deepEqual(unknown, [], `${describe(block)} reads variables nobody sets`);
        const outcome = await run('bash', ['-e', '-o', 'pipefail', '-c', block.code], { cwd: checkout, env: shellEnvironment, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }).then(
          ({ stdout }) => ({ ok: true as const, stdout }),
          (error: unknown) => ({ ok: false as const, stdout: failure(error) }),
        );
        t.true(outcome.ok, `${describe(block)} failed:\n${block.code}\n${outcome.stdout}`);
        if (outcome.ok) previous = { block, stdout: outcome.stdout };
      } else if (block.kind === 'json') {
        let example: unknown;
        t.notThrows(() => (example = JSON.parse(block.code)), `${describe(block)} is JSON`);
        if (answered) {
          let actual: unknown;
          t.notThrows(() => (actual = JSON.parse(answered.stdout)), `${describe(answered.block)} printed JSON, as the block after it shows`);
          t.deepEqual(shapeDifferences(example, actual), [], `${describe(block)} has the shape of what ${describe(answered.block)} got:\n${answered.stdout}`);
        }
      } else if (block.kind === 'text' && answered && block.code.startsWith('HTTP/')) {
        const got = answered.stdout.toLowerCase();
        const [status, ...headers] = block.code.trimEnd().split('\n');
        t.true(got.startsWith(status!.toLowerCase()), `${describe(block)}: ${status}`);
        for (const header of headers) t.true(got.includes(`\n${header.split(':')[0]!.toLowerCase()}:`), `${describe(block)}: ${header} was answered`);
      }
    }
  }
});

/** TypeScript and JavaScript blocks, a block starting "// continues" joined to the one before it. */
function codeUnits(kind: 'ts' | 'js') {
  const units: { blocks: DocBlock[]; code: string; file: string }[] = [];
  for (const block of allBlocks().filter((candidate) => candidate.kind === kind && !candidate.coveredBy)) {
    const last = units.at(-1);
    if (block.code.startsWith('// continues') && last?.blocks[0]!.document === block.document) {
      last.blocks.push(block);
      last.code += `\n${block.code}`;
    } else {
      const name = `${block.document.replace(/[/.]/g, '-')}-${block.line}.${kind}`;
      units.push({ blocks: [block], code: block.code, file: join(GENERATED, name) });
    }
  }
  for (const unit of units) writeFileSync(unit.file, unit.code);
  return units;
}

/** What a documented bot did with the fake Discord: logged in, then sent messages or edited replies. */
async function runBot(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const members = JSON.stringify(MEMBERS.map(({ user }) => ({ user })));
  const { stdout } = await run(command, args, { cwd: ROOT, env: { ...process.env, UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY, DISCORD_TOKEN: 'not-a-real-token', FAKE_DISCORD_MEMBERS: members, ...env }, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trimEnd().split('\n').map(
    (line) =>
      JSON.parse(line) as {
        kind: string;
        token?: string;
        content?: string;
        files?: { name: string; description: string; head: string; base64: string }[];
        embeds?: { title?: string; image?: { url: string; status: number; contentType: string | null; head: string } }[];
        flags?: number;
        components?: unknown[];
      },
  );
}

/**
 * A bot that logged in with DISCORD_TOKEN and posted a card: an attachment carrying the card's alt
 * text, or an embed whose image (a card link) answers an image, as Discord's media proxy fetches it.
 */
function checkBot(t: ExecutionContext, label: string, events: Awaited<ReturnType<typeof runBot>>) {
  t.deepEqual(events[0], { kind: 'login', token: 'not-a-real-token' }, `${label} logs in with DISCORD_TOKEN`);
  const posted = events.filter((event) => (event.files ?? []).length > 0 || (event.embeds ?? []).some((embed) => embed.image !== undefined));
  t.true(posted.length > 0, `${label} posts a card: ${JSON.stringify(events)}`);
  for (const { files, embeds } of posted) {
    for (const file of files ?? []) {
      t.true(IMAGE_HEADS.includes(file.head), `${label}: ${file.name} is an image`);
      t.regex(file.description, /^(Profile|Welcome) card for /, `${label}: the attachment's description is the alt text`);
    }
    for (const { image } of embeds ?? []) {
      if (image === undefined) continue;
      t.is(image.status, 200, `${label}: the embed's image ${image.url} answers`);
      t.true(IMAGE_HEADS.includes(image.head) && /^image\//.test(image.contentType ?? ''), `${label}: the embed's image is an image (${image.contentType})`);
    }
  }
}

test.serial('every TypeScript and JavaScript block type-checks, and runs against the gateway with a fake Discord', async (t) => {
  t.timeout(600_000);
  const typescript = codeUnits('ts');
  const javascript = codeUnits('js');
  t.true(typescript.length > 0 && javascript.length > 0);
  const configs = {
    'tsconfig.ts.json': { extends: '../../../../tsconfig.base.json', include: typescript.map((unit) => basename(unit.file)) },
    // JavaScript as a bot developer's editor checks it: against the libraries' types, not in strict
    // mode, with the DOM's fetch types (whose response.json() is any, where Node's is unknown).
    'tsconfig.js.json': { extends: '../../../../tsconfig.base.json', compilerOptions: { allowJs: true, checkJs: true, strict: false, noUncheckedIndexedAccess: false, lib: ['ES2024', 'DOM'] }, include: javascript.map((unit) => basename(unit.file)) },
  };
  for (const [name, config] of Object.entries(configs)) {
    writeFileSync(join(GENERATED, name), JSON.stringify(config));
    const typecheck = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(GENERATED, name)], { cwd: ROOT }).then(() => '', failure);
    t.is(typecheck, '', name);
  }
  const ran = new Map<string, Awaited<ReturnType<typeof runBot>>>();
  for (const unit of [...typescript, ...javascript]) {
    const events = await runBot(process.execPath, ['--import', join(ROOT, 'tests/support/docs/fake-discord-hooks.ts'), unit.file], { FAKE_DISCORD_FOR: GENERATED, FAKE_DISCORD_USER_ID: USER_ID });
    checkBot(t, unit.blocks.map(describe).join(' + '), events);
    ran.set(unit.file, events);
  }
  // The README's bot posts, for each member who joined, a card with the member's own name and avatar.
  const readmeBot = typescript.find((unit) => unit.blocks[0]!.document === 'README.md')!;
  const sent = ran.get(readmeBot.file)!.filter((event) => event.kind === 'send');
  // The two members join at once: their cards may be sent in either order.
  t.deepEqual(sent.map((event) => event.content).sort(), MEMBERS.map(({ user }) => `Hi <@${user.id}>!`).sort());
  checkMembersCards(t, 'the README discord.js bot', sent, 'global_name');
  // The README's Components V2 bot: a message discord.js's own builders accept, its gallery showing
  // the attachment it sends with the alt text, its container tinted with the card's accent.
  const v2Bot = typescript.find((unit) => unit.blocks[0]!.document === 'README.md' && unit.code.includes('cardMessage('))!;
  const v2Sent = ran.get(v2Bot.file)!.filter((event) => event.kind === 'send');
  checkMembersCards(t, 'the README Components V2 bot', v2Sent, 'global_name');
  const greeted: string[] = [];
  for (const event of v2Sent) {
    t.is(event.flags, MessageFlags.IsComponentsV2);
    t.is(event.content, undefined);
    const [container] = event.components!.map((component) => new ContainerBuilder(component as never).toJSON());
    t.true(Number.isInteger(container!.accent_color) && container!.accent_color! > 0, 'tinted with the accent');
    const [text, gallery] = container!.components as [{ type: number; content: string }, unknown];
    greeted.push(text.content);
    t.deepEqual(container!.components, [
      { type: 10, content: text.content },
      { type: 12, items: [{ media: { url: `attachment://${event.files![0]!.name}` }, description: event.files![0]!.description }] },
    ]);
    t.truthy(gallery);
  }
  t.deepEqual(greeted.sort(), MEMBERS.map(({ user }) => `Hi <@${user.id}>!`).sort(), 'each member greeted once');
});

/**
 * Each member's card (found by its alt text, in whichever order the cards were sent): the alt text names the member's display name and
 * the avatar circle shows the member's own avatar (each quadrant its colour), as drawn from the
 * objects the bot sent; `nameField` is the name this library knows the member by.
 */
function checkMembersCards(t: ExecutionContext, label: string, sent: Awaited<ReturnType<typeof runBot>>, nameField: 'global_name' | 'username') {
  t.is(sent.length, MEMBERS.length, `${label}: one card per member`);
  for (const { user, quadrants } of MEMBERS) {
    const file = sent.map((event) => event.files?.[0]).find((candidate) => candidate?.description.includes(user[nameField]));
    t.truthy(file, `${label}: a card whose alt text names ${user[nameField]}: ${sent.map((event) => event.files?.[0]?.description).join(' | ')}`);
    if (file === undefined) continue;
    const pixels = decodePng(Buffer.from(file.base64, 'base64'));
    const { centerX, centerY, radius } = WELCOME_AVATAR;
    const offset = Math.round(radius / 2);
    const drawn = [[-offset, -offset], [offset, -offset], [-offset, offset], [offset, offset]].map(([dx, dy]) => {
      const { r, g, b, a } = pixels.at(centerX + dx!, centerY + dy!);
      return [r, g, b, a] as Rgba;
    });
    t.true(drawn.every((pixel, quadrant) => isCloseTo(pixel, quadrants[quadrant]!, 12)), `${label}: ${user[nameField]}'s avatar is drawn: ${JSON.stringify(drawn)}`);
  }
}

test.serial('every Python block runs against the gateway with the repository SDK, a bot with a member joining', async (t) => {
  t.timeout(300_000);
  const site = join(scratch, 'site');
  await run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', '--no-deps', '--target', site, join(checkout, 'sdk/python')], { env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_ROOT_USER_ACTION: 'ignore' } });
  const blocks = allBlocks().filter((block) => block.kind === 'python' && !block.coveredBy);
  t.true(blocks.length > 0);
  for (const block of blocks) {
    const file = join(scratch, `${block.document.replace(/[/.]/g, '-')}-${block.line}.py`);
    writeFileSync(file, block.code);
    const env = { PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: '1' };
    if (/\bdiscord\.Client\(/.test(block.code)) {
      const events = await runBot(PYTHON, [join(ROOT, 'tests/support/docs/run_discord_py_bot.py'), file], env);
      checkBot(t, describe(block), events);
      // Debian's discord.py (2.2) predates global names: the username is the name it knows.
      if (block.document === 'README.md') checkMembersCards(t, describe(block), events.filter((event) => event.kind === 'send'), 'username');
    } else {
      const outcome = await run(PYTHON, [file], { env: { ...process.env, ...env, UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY } }).then(() => '', failure);
      t.is(outcome, '', describe(block));
    }
  }
});
