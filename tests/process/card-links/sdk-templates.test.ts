import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { createClient, UtilityApiError } from '@utility-api/client';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

/** The templates API through both SDKs, on the app without the render path (templates draw nothing). */
const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
let gateway: TestGateway;

test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(async () => {
  await gateway?.close();
});

test('TypeScript SDK: create, list, get, update and delete a template; a deleted one is a 404 UtilityApiError', async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const created = await api.createTemplate({ name: 'TS design', fields: { layout: 'welcome', headline: 'Hi' } });
  t.regex(created.id, /^tpl_[a-z0-9]{12}$/);
  t.true((await api.listTemplates()).templates.some((template) => template.id === created.id));
  t.deepEqual(await api.getTemplate(created.id), created);
  const updated = await api.updateTemplate(created.id, { name: 'TS design 2', fields: { headline: 'Hello' } });
  t.deepEqual(updated.fields, { headline: 'Hello' });
  await api.deleteTemplate(created.id);
  const error = await t.throwsAsync(api.getTemplate(created.id), { instanceOf: UtilityApiError });
  t.is(error.code, 'template_not_found');
});

test('TypeScript SDK: a leaderboard template has its kind and only a board\'s design; the kind narrows its fields', async (t) => {
  const api = createClient({ baseUrl: gateway.url, apiKey: TEST_API_KEY });
  const created = await api.createTemplate({ name: 'TS board', kind: 'leaderboard', fields: { title: 'Top chatters', scoreLabel: 'pts' } });
  t.is(created.kind, 'leaderboard');
  // The union narrows on kind: a leaderboard template's fields are a board's.
  t.is(created.kind === 'leaderboard' ? created.fields.scoreLabel : undefined, 'pts');
  t.is((await api.createTemplate({ name: 'TS card', fields: { layout: 'welcome' } })).kind, 'profile', 'kind left out: a profile design');
  const refused = await t.throwsAsync(api.createTemplate({ name: 'TS board', kind: 'leaderboard', fields: { layout: 'welcome' } as never }), { instanceOf: UtilityApiError });
  t.is(refused.status, 400);
  t.like(refused.details[0], { in: 'body', field: 'fields.layout' });
});

test('Python SDK: create, list, get, update and delete a template', async (t) => {
  const script = [
    'import asyncio, json, os',
    'from utility_api import Client, UtilityApiError',
    'async def main():',
    '    api = Client(os.environ["KEY"], os.environ["URL"])',
    '    made = await api.create_template("Py design", {"layout": "welcome", "headline": "Hi"})',
    '    listed = [template["id"] for template in (await api.list_templates())["templates"]]',
    '    got = await api.get_template(made["id"])',
    '    updated = await api.update_template(made["id"], "Py design 2", {"headline": "Hello"})',
    '    await api.delete_template(made["id"])',
    '    try:',
    '        await api.get_template(made["id"])',
    '        gone = None',
    '    except UtilityApiError as error:',
    '        gone = error.code',
    '    print(json.dumps({"id": made["id"], "listed": made["id"] in listed, "same": got == made, "fields": updated["fields"], "gone": gone}))',
    'asyncio.run(main())',
  ].join('\n');
  const { stdout } = await run(PYTHON, ['-c', script], { env: { ...process.env, PYTHONPATH: join(REPO_ROOT, 'sdk/python'), PYTHONDONTWRITEBYTECODE: '1', KEY: TEST_API_KEY, URL: gateway.url } });
  const report = JSON.parse(stdout) as { id: string; listed: boolean; same: boolean; fields: unknown; gone: string };
  t.regex(report.id, /^tpl_[a-z0-9]{12}$/);
  t.like(report, { listed: true, same: true, fields: { headline: 'Hello' }, gone: 'template_not_found' });
});
