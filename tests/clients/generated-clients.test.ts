import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';
import { OpenApiContract } from '../helpers/openapi-contract.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

interface Call {
  operationId: string;
  status: number;
  body: unknown;
  headers: Headers;
}

let gateway: TestGateway;
let contract: OpenApiContract;
let documentFile: string;
/** `operationId` → path and method, from the served document. */
const operations = new Map<string, { path: string; method: string }>();

test.before(async () => {
  gateway = await startTestGateway();
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
function checkCalls(t: import('ava').ExecutionContext, calls: readonly Call[]) {
  t.deepEqual(calls.map((call) => call.operationId).sort(), [...operations.keys()].sort(), 'every operation of the document is called');
  for (const call of calls) {
    const operation = operations.get(call.operationId)!;
    t.true(call.status >= 200 && call.status < 300, `${call.operationId}: ${call.status} ${JSON.stringify(call.body)}`);
    t.truthy(call.headers.get('x-request-id'), `${call.operationId} has X-Request-Id`);
    if (operation.method === 'HEAD' || call.body === undefined) continue;
    t.deepEqual(contract.check(operation.path, operation.method, call.status, call.body), [], `${call.operationId} answer matches the document`);
  }
}

test('openapi-typescript + openapi-fetch: the generated types check the calls, and every operation answers as documented', async (t) => {
  const client = join(ROOT, 'tests/clients/openapi-fetch');
  mkdirSync(join(client, 'generated'), { recursive: true });
  await run(bin('openapi-typescript'), [documentFile, '--output', join(client, 'generated/schema.ts')], { cwd: ROOT });
  const typecheck = await run(bin('tsc'), ['-p', join(client, 'tsconfig.json'), '--noEmit'], { cwd: ROOT }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  t.is(typecheck, '', 'the calls type-check against the generated types');
  const { callEveryOperation } = (await import(pathToFileURL(join(client, 'call-every-operation.ts')).href)) as { callEveryOperation: (url: string, key: string) => Promise<Call[]> };
  const calls = await callEveryOperation(gateway.url, TEST_API_KEY);
  checkCalls(t, calls);
  const card = calls.find((call) => call.operationId === 'createProfileImage')!.body as { url: string };
  const image = await fetch(card.url);
  t.is(image.headers.get('content-type'), 'image/png');
});
