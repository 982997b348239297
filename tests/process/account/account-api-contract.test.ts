import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import test from 'ava';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { OpenApiContract } from '../../helpers/openapi-contract.ts';
import { readJson, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { AccountClient, openTestStore, ownerLinkToken } from '../../support/account/account-client.ts';

/**
 * The account area's internal document (`/account/api/openapi.json`) held against the routes the
 * gateway serves, as the `/v1` contract tests hold the public one: every `/account/api` route is
 * documented and every documented operation is served, with the same methods; and every answer a
 * real request gets (the happy path, no session, another origin, no CSRF token, a bad, oversized or
 * non-JSON body, a method the path does not serve) has its status documented for that operation and
 * a body that matches the documented schema.
 */
type Json = Record<string, any>;
let gateway: TestGateway;
let store: AccountStore;
let contract: OpenApiContract;
let owner: AccountClient;

const USER_ID = '302050872383242240';
const DOCUMENT_PATH = '/account/api/openapi.json';

test.before(async () => {
  // The render path too: the playground's preview route exists only with it.
  gateway = await startTestGateway({ render: true, env: { RENDER_WORKERS: '1' } });
  store = openTestStore(join(gateway.mediaDir, 'accounts.sqlite'));
  contract = new OpenApiContract((await readJson(await fetch(`${gateway.url}${DOCUMENT_PATH}`))) as Json);
  owner = await signedInOwner();
});

test.after.always(async () => {
  await store?.close();
  await gateway?.close();
});

async function signedInOwner(): Promise<AccountClient> {
  const client = new AccountClient(gateway.url);
  const answer = await client.signInWithToken(await ownerLinkToken(store, gateway.url));
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
  return client;
}

/** Each documented operation, as `METHOD /path/{param}`. */
function documentedOperations(): { path: string; method: string; operation: Json }[] {
  return Object.entries(contract.document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
}

const changing = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

/** What was wrong with the answers seen, listed at the end. */
const problems: string[] = [];

/** Sends one request for an operation and checks its status and body against the document. */
async function call(client: AccountClient, template: string, method: string, options: { path?: string; query?: string; body?: string; headers?: Record<string, string>; documentedAs?: string } = {}) {
  const headers: Record<string, string> = {
    ...(changing(method) ? { origin: client.origin, ...(client.csrfToken ? { 'x-csrf-token': client.csrfToken } : {}) } : {}),
    ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  const answer = await client.json(`${options.path ?? template}${options.query ?? ''}`, { method, headers, ...(options.body === undefined ? {} : { body: options.body }) });
  // A method the path does not serve is answered as each of its operations documents (405).
  const documentedMethod = (options.documentedAs ?? method).toLowerCase();
  const documented = Object.keys(contract.document.paths[template]?.[documentedMethod]?.responses ?? {});
  const where = `${method} ${template} → ${answer.status}`;
  if (!documented.includes(String(answer.status))) problems.push(`${where}: status not documented (${documented.join(', ')})`);
  else if (answer.body !== undefined && (answer.response.headers.get('content-type') ?? '').startsWith('application/json')) {
    for (const problem of contract.check(template, documentedMethod, answer.status, answer.body)) problems.push(`${where}: ${problem}`);
  }
  return answer;
}

test.serial('the document is valid OpenAPI 3.1 and names the session cookie as its credential', async (t) => {
  const result = await new Validator().validate(contract.document);
  t.true(result.valid, JSON.stringify(result.errors, null, 2));
  t.deepEqual(contract.document.security, [{ session: [] }]);
  t.is(contract.document.components.securitySchemes.session.in, 'cookie');
});

test.serial('every /account/api route is documented, and every documented operation is served, with the same methods', (t) => {
  const served = new Map<string, string[]>();
  for (const route of gateway.routes) {
    if (!route.path.startsWith('/account/api/') || route.path === DOCUMENT_PATH) continue;
    // The router answers HEAD for every GET; OPTIONS is not offered in the area.
    const methods = route.methods.filter((method) => method !== 'HEAD' && method !== 'OPTIONS').map((method) => method.toLowerCase());
    served.set(route.path.replace(/:(\w+)/g, '{$1}'), methods.sort());
  }
  const documented = new Map(Object.entries(contract.document.paths as Record<string, Json>).map(([path, item]) => [path, Object.keys(item).sort()]));
  t.deepEqual([...served].sort(), [...documented].sort());
  t.true(documented.has('/account/api/preview/profile-image') && documented.has('/account/api/templates/{id}'), 'the /v1 operations the area runs with the session are listed too');
});

test.serial('every answer of every operation has a documented status and a body that matches it: happy path, no session, another origin, no CSRF token, bad bodies, a wrong method', async (t) => {
  problems.length = 0;
  const operations = documentedOperations();
  const stranger = new AccountClient(gateway.url);
  const noToken = Object.assign(await signedInOwner(), { csrfToken: undefined });
  for (const { path, method, operation } of operations) {
    const required = (operation.security ?? contract.document.security).length > 0;
    const concrete = path.replace('{id}', 'abcd1234');
    const signedOut = await call(stranger, path, method, { path: concrete, ...(operation.requestBody ? { body: '{}' } : {}) });
    if (required) t.is(signedOut.status, 401, `${method} ${path} without a session`);
    if (changing(method)) {
      t.is((await call(owner, path, method, { path: concrete, headers: { origin: 'https://elsewhere.example' } })).status, 403, `${method} ${path} from another origin`);
      if (required) t.is((await call(noToken, path, method, { path: concrete })).status, 403, `${method} ${path} without the CSRF token`);
    }
    if (operation.requestBody) {
      const unknownField = await call(owner, path, method, { path: concrete, body: '{"unknownField":1}' });
      t.is(unknownField.status, 400, `${method} ${path} with an unknown field`);
      if (unknownField.body.error.code === 'invalid_request') t.true(unknownField.body.error.details?.length > 0, `${method} ${path}: the catalogue's body names the field in details`);
      t.is((await call(owner, path, method, { path: concrete, body: JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }) })).status, 413, `${method} ${path} with a body over its limit`);
      t.is((await call(owner, path, method, { path: concrete, headers: { 'content-type': 'text/plain' }, body: 'hello' })).status, 415, `${method} ${path} with a text body`);
    }
    // No path of the area serves PATCH.
    t.is((await call(owner, path, 'PATCH', { path: concrete, documentedAs: method })).status, 405, `${path} by a method it does not serve`);
  }

  // The happy path of each, in an order that gives the later ones what they name.
  const happy = new Map<string, number>();
  const ok = async (client: AccountClient, template: string, method: string, options: Parameters<typeof call>[3] = {}) => {
    const answer = await call(client, template, method, options);
    happy.set(`${method} ${template}`, answer.status);
    return answer;
  };
  await ok(stranger, '/account/api/sign-in-options', 'GET');
  const newcomer = new AccountClient(gateway.url);
  await ok(newcomer, '/account/api/sign-in/link', 'POST', { body: JSON.stringify({ token: await ownerLinkToken(store, gateway.url) }) });
  await newcomer.refreshCsrf();
  await ok(owner, '/account/api/me', 'GET');
  const key = await ok(owner, '/account/api/keys', 'POST', { body: JSON.stringify({ name: 'contract', scopes: ['utility'] }) });
  await ok(owner, '/account/api/keys', 'GET');
  await ok(owner, '/account/api/keys/{id}/roll', 'POST', { path: `/account/api/keys/${key.body.id}/roll` });
  await ok(owner, '/account/api/keys/{id}/revoke', 'POST', { path: `/account/api/keys/${key.body.id}/revoke` });
  await ok(owner, '/account/api/usage', 'GET', { query: `?key=${key.body.prefix}` });
  await ok(owner, '/account/api/audit', 'GET');
  await ok(owner, '/account/api/preview/profile-image', 'POST', { query: `?userId=${USER_ID}`, body: JSON.stringify({ customTag: 'contract' }) });
  const template = await ok(owner, '/account/api/templates', 'POST', { body: JSON.stringify({ name: 'Contract', fields: { layout: 'welcome' } }) });
  await ok(owner, '/account/api/templates', 'GET');
  await ok(owner, '/account/api/templates/{id}', 'PUT', { path: `/account/api/templates/${template.body.id}`, body: JSON.stringify({ name: 'Contract 2', fields: { layout: 'welcome' } }) });
  await ok(owner, '/account/api/templates/{id}', 'DELETE', { path: `/account/api/templates/${template.body.id}` });
  await ok(newcomer, '/account/api/sign-out', 'POST');
  await ok(owner, '/account/api/sign-out-everywhere', 'POST');

  for (const { path, method } of operations) {
    const status = happy.get(`${method} ${path}`);
    t.true(status !== undefined && status >= 200 && status < 300, `${method} ${path}: the happy path answered ${status} (a new operation needs its sample here)`);
  }
  t.deepEqual(problems, []);
});
