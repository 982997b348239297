import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { startTestGateway, type TestGateway } from '../../../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../../..');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
// Redocly reports usage and looks for updates over the network unless told not to.
const QUIET_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** Both documents a deployment can serve: with rate limits (the default) and with `RATE_LIMITS=off`. */
const DEPLOYMENTS = { 'rate-limited': {}, 'RATE_LIMITS=off': { RATE_LIMITS: 'off' } } as const;
const documents = new Map<string, string>();
const gateways: TestGateway[] = [];

test.before(async () => {
  const directory = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  for (const [name, env] of Object.entries(DEPLOYMENTS)) {
    const gateway = await startTestGateway({ render: true, env });
    gateways.push(gateway);
    const file = join(directory, `${name.replace(/\W/g, '-')}.json`);
    writeFileSync(file, await (await fetch(`${gateway.url}/v1/openapi.json`)).text());
    documents.set(name, file);
  }
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
});

/** A linter exits non-zero when it finds problems; its report is what the assertion shows. */
async function lint(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: ROOT, env: QUIET_ENV, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

for (const name of Object.keys(DEPLOYMENTS)) {
  test(`Redocly recommended-strict: no errors, no warnings (${name})`, async (t) => {
    const { code, stdout } = await lint(bin('redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', documents.get(name)!]);
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    t.deepEqual(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`), []);
    t.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    t.is(code, 0);
  });

  test(`Spectral spectral:oas: no errors, no warnings (${name})`, async (t) => {
    // Spectral prints a summary line after its JSON on stdout: the report goes to a file instead.
    const report = `${documents.get(name)!}.spectral.json`;
    const { code } = await lint(bin('spectral'), ['lint', '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--output', report, '--fail-severity', 'hint', documents.get(name)!]);
    const problems = JSON.parse(readFileSync(report, 'utf8')) as { code: string; message: string; path: string[] }[];
    t.deepEqual(problems.map((problem) => `${problem.code} at ${problem.path.join('.')}: ${problem.message}`), []);
    t.is(code, 0);
  });
}
