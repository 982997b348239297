import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { OpenApiContract } from '../../helpers/openapi-contract.ts';
import type { Call, CallEveryOperation } from '../../support/clients/client-call.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);


let gateway: TestGateway;
let contract: OpenApiContract;
let documentFile: string;
/** `operationId` → path and method, from the served document. */
const operations = new Map<string, { path: string; method: string }>();

test.before(async () => {
  // The calls are checked for what they send and get, not for speed: type-checks of generated code
  // run beside the card renders, so the card deadline is the longest the configuration allows.
  gateway = await startTestGateway({ render: true, env: { RENDER_TIMEOUT_MS: '120000' } });
  const text = await (await fetch(`${gateway.url}/v1/openapi.json`)).text();
  contract = new OpenApiContract(JSON.parse(text) as Record<string, unknown>);
  documentFile = join(mkdtempSync(join(tmpdir(), 'generated-clients-')), 'openapi.json');
  writeFileSync(documentFile, text);
  for (const [path, item] of Object.entries(contract.document.paths as Record<string, Record<string, { operationId: string }>>)) {
    for (const [method, operation] of Object.entries(item)) operations.set(operation.operationId, { path, method: method.toUpperCase() });
  }
});

test.after.always(async () => {
  await gateway?.close();
});

/** Every call answered with a documented 2xx whose JSON matches the document, and every operation called. */
function checkCalls(t: ExecutionContext, calls: readonly Call[]) {
  t.deepEqual(calls.map((call) => call.operationId).sort(), [...operations.keys()].sort(), 'every operation of the document is called');
  for (const call of calls) {
    const operation = operations.get(call.operationId)!;
    t.true(call.status >= 200 && call.status < 300, `${call.operationId}: ${call.status} ${JSON.stringify(call.body)}`);
    t.truthy(call.headers.get('x-request-id'), `${call.operationId} has X-Request-Id`);
    if (call.operationId === 'getCardLink') t.is(call.headers.get('content-type'), 'image/png', 'a card link answers the image');
    if (operation.method === 'HEAD' || call.body === undefined) continue;
    t.deepEqual(contract.check(operation.path, operation.method, call.status, call.body), [], `${call.operationId} answer matches the document`);
  }
}

/** How each generator turns the served document into a client in `tests/support/clients/<generator>/generated/`. */
const GENERATORS: Record<string, (document: string, output: string, baseUrl: string) => Promise<unknown>> = {
  'openapi-fetch': (document, output) => run(bin('openapi-typescript'), [document, '--output', join(output, 'schema.ts')], { cwd: ROOT }),
  'hey-api': (document, output) => {
    // Imports written `.ts`, so Node runs the generated files as they are; no log files in the tree.
    const config = join(output, 'openapi-ts.config.mjs');
    writeFileSync(config, `export default ${JSON.stringify({ input: document, output: { path: output, importFileExtension: '.ts' } })};\n`);
    return run(bin('openapi-ts'), ['--file', config, '--silent', '--no-log-file'], { cwd: ROOT });
  },
  orval: async (document, output, baseUrl) => {
    const config = join(output, 'orval.config.mjs');
    const settings = {
      api: {
        input: document,
        output: { target: join(output, 'api.ts'), client: 'fetch', baseUrl, override: { contentType: { include: ['application/json'] } } },
      },
    };
    writeFileSync(config, `export default ${JSON.stringify(settings)};\n`);
    return run(bin('orval'), ['--config', config], { cwd: ROOT });
  },
};

for (const [generator, generate] of Object.entries(GENERATORS)) {
  // One generator at a time: each runs tsc over its generated code, which is heavy on a shared machine.
  test.serial(`${generator}: the generated client type-checks a call of every operation, and each answers as documented`, async (t) => {
    const folder = join(ROOT, 'tests/support/clients', generator);
    const output = join(folder, 'generated');
    rmSync(output, { recursive: true, force: true });
    mkdirSync(output, { recursive: true });
    await generate(documentFile, output, gateway.url);
    const typecheck = await run(bin('tsc'), ['-p', join(folder, 'tsconfig.json'), '--noEmit'], { cwd: ROOT }).then(
      () => '',
      (error: { stdout?: string; message?: string }) => error.stdout ?? error.message ?? 'tsc failed',
    );
    t.is(typecheck, '', 'the calls type-check against the generated client');
    const { callEveryOperation } = (await import(pathToFileURL(join(folder, 'call-every-operation.ts')).href)) as { callEveryOperation: CallEveryOperation };
    const calls = await callEveryOperation(gateway.url, TEST_API_KEY);
    checkCalls(t, calls);
    // The account call comes last: it sees every call before it counted (this key, today), itself too.
    const account = calls.find((call) => call.operationId === 'getAccount')!.body as { key: { today: { requests: number } } };
    t.true(account.key.today.requests >= calls.length, `${account.key.today.requests} requests counted, ${calls.length} made`);
    const card = calls.find((call) => call.operationId === 'createProfileImage')!.body as { url: string };
    const image = await fetch(card.url);
    t.is(image.headers.get('content-type'), 'image/png');
  });
}
