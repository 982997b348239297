/**
 * Keeps each test in the tier its folder names (docs/testing.md): loaded into every ava worker
 * (`nodeArguments` in package.json), it learns the test file from the module loader and refuses what
 * the file's tier does not allow, with a message naming the tier the test belongs in:
 *
 * - `tests/unit`: no socket (no server listening, no connection) and no program started;
 * - `tests/http`: servers and connections in this process, no program started;
 * - `tests/process`: programs, but no redis-server, browser or docker;
 * - `tests/redis`: no browser or docker; `tests/browser`: no docker; `tests/deploy`: anything.
 *
 * So the quick tiers (`pnpm test:quick`: unit and http) stay quick and need nothing installed
 * beyond the Node dependencies, and a test that starts more than its folder says fails at once.
 */
import childProcess from 'node:child_process';
import { registerHooks } from 'node:module';
import net from 'node:net';
import { basename } from 'node:path';

const TIERS = ['unit', 'http', 'process', 'redis', 'browser', 'deploy'] as const;
type Tier = (typeof TIERS)[number];

/** The programs that put a test in a costlier tier than `process`, and that tier. */
const PROGRAM_TIERS: Readonly<Record<string, Tier>> = {
  'redis-server': 'redis',
  'redis-cli': 'redis',
  chromium: 'browser',
  'chromium-browser': 'browser',
  chrome: 'browser',
  docker: 'deploy',
  'docker-compose': 'deploy',
};

let tier: Tier | undefined;
let testFile = '';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (tier === undefined) {
      const match = /\/tests\/(unit|http|process|redis|browser|deploy)\/.*\.test\.ts$/.exec(result.url);
      if (match) {
        tier = match[1] as Tier;
        testFile = result.url.slice(result.url.indexOf('/tests/') + 1);
      }
    }
    return result;
  },
});

const rank = (name: Tier) => TIERS.indexOf(name);

function refuse(what: string, needs: Tier): never {
  throw new Error(`${testFile} is in tests/${tier} but ${what}: it belongs in tests/${needs} (see docs/testing.md)`);
}

/** Every child process (spawn, exec, fork, execFile) starts through this internal method. */
type SpawnMethod = (this: childProcess.ChildProcess, options: { file: string }) => unknown;
const processPrototype = childProcess.ChildProcess.prototype as unknown as { spawn: SpawnMethod };
const spawnProcess = processPrototype.spawn;
processPrototype.spawn = function guardedSpawn(options) {
  if (tier !== undefined) {
    const needs = PROGRAM_TIERS[basename(options.file)] ?? 'process';
    if (rank(tier) < rank(needs)) refuse(`starts ${basename(options.file)}`, needs);
  }
  return spawnProcess.call(this, options);
};

type AnyMethod = (this: unknown, ...args: unknown[]) => unknown;
const serverPrototype = net.Server.prototype as unknown as { listen: AnyMethod };
const listen = serverPrototype.listen;
serverPrototype.listen = function guardedListen(...args) {
  if (tier === 'unit') refuse('listens on a socket', 'http');
  return listen.apply(this, args);
};

const socketPrototype = net.Socket.prototype as unknown as { connect: AnyMethod };
const connect = socketPrototype.connect;
socketPrototype.connect = function guardedConnect(...args) {
  if (tier === 'unit') refuse('opens a connection', 'http');
  return connect.apply(this, args);
};
