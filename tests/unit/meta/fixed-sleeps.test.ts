/**
 * The rule of docs/testing.md, checked: no test sleeps a fixed time to prove that nothing happened,
 * and no wall-clock bound is a bare number. A sleep is allowed inside a polling loop (waiting FOR
 * something, with a backstop), or with a `sleep-ok: <why>` comment on its line or the line above
 * (a fake server meant to hang, time that must pass for an expiry under test). A time bound is
 * allowed when it is derived from a named setting (`10 * STORE_TIMEOUT_MS`), never a literal.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';

const TESTS = new URL('../..', import.meta.url).pathname;

/** Folders not ours to check: dependencies, and what the tests generate (gitignored clients and types). */
const NOT_OURS = new Set(['node_modules', 'generated']);

function testSources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return NOT_OURS.has(entry.name) ? [] : testSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A timer used as a pause: `await sleep(…)`, `await setTimeout(…)` from timers/promises, or a Promise around setTimeout(resolve, …). */
const SLEEP = /await\s+(sleep|delay|setTimeout)\(|new Promise[^;]*setTimeout\(\s*(resolve|r|done)\b/;
/** A loop header on the line or within the few lines above: the pause is a poll interval. */
const LOOP = /\b(while|for)\s*\(/;
/** An elapsed time compared with a bare number of milliseconds. */
const LITERAL_BOUND = /(\b(elapsed|took|ms|wall)|(?:Ms|\.now\(\)\s*-\s*\w+))\s*<=?\s*\d[\d_]*\s*[,)]/;
const ALLOW = /sleep-ok:/;
const THIS_FILE = new URL(import.meta.url).pathname;

/** Every offending line, as `file:line: text`. */
function offences(): string[] {
  const found: string[] = [];
  for (const file of testSources(TESTS)) {
    if (file === THIS_FILE) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const code = line.replace(/\/\/.*$/, '');
      const allowed = ALLOW.test(line) || ALLOW.test(lines[index - 1] ?? '');
      if (allowed) return;
      const near = lines.slice(Math.max(0, index - 6), index + 1).join('\n');
      if (SLEEP.test(code) && !LOOP.test(near)) found.push(`${relative(TESTS, file)}:${index + 1}: ${line.trim()}`);
      if (LITERAL_BOUND.test(code)) found.push(`${relative(TESTS, file)}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

test('no test pauses a fixed time outside a polling loop, and no elapsed time is bounded by a bare number', (t) => {
  const found = offences();
  t.deepEqual(found, [], `wait on an event, a counter or a later request instead (docs/testing.md), or say why with a sleep-ok: comment:\n${found.join('\n')}`);
});

test('the check finds a fixed sleep and a literal bound, and lets a poll and an allowed pause through', (t) => {
  t.true(SLEEP.test('  await new Promise((resolve) => setTimeout(resolve, 1000));'));
  t.true(SLEEP.test('  await sleep(400);'));
  t.true(LOOP.test('  while (pool.workers.length === 0) await sleep(20);'));
  t.true(LITERAL_BOUND.test('  t.true(performance.now() - started < 2000);'));
  t.true(LITERAL_BOUND.test('  t.true(exitedMs - answeredMs < 2000, "x");'));
  t.false(LITERAL_BOUND.test('  t.true(took < 12 * STORE_TIMEOUT_MS, `${took} ms`);'));
  t.true(ALLOW.test('  await sleep(50); // sleep-ok: lets a 1 ms expiry pass'));
});
