/**
 * Every operation of the API called the way a developer would with a client generated from the
 * served document: openapi-typescript's `paths` types and openapi-fetch. The test generates
 * `generated/schema.ts` from a running gateway, type-checks this file against it (so a document
 * that lost a parameter or changed a type fails here) and runs it. Not part of the root typecheck:
 * the types exist only once the test has generated them.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/schema.ts';
import { cardLinkQuery, RANK_DATA, TEMPLATE_FIELDS, USER_ID, type Call } from '../client-call.ts';

export async function callEveryOperation(baseUrl: string, key: string): Promise<Call[]> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: key } });
  const calls: Call[] = [];
  const record = async (operationId: string, pending: Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
    const { data, error, response } = await pending;
    calls.push({ operationId, status: response.status, body: data ?? error, headers: response.headers });
  };

  const card = {
    customTag: 'Welcome!',
    presenceStatus: 'online',
    rankData: RANK_DATA,
  } as const;
  await record('createProfileImage', client.POST('/v1/profile-image', { params: { query: { userId: USER_ID } }, body: card }));
  await record('createProfileImageBatch', client.POST('/v1/profile-image/batch', { body: { cards: [{ userId: USER_ID, customTag: 'Batch' }, { userId: 'not-a-user' }] } }));
  await record('createLeaderboardImage', client.POST('/v1/leaderboard-image', { body: { title: 'Top chatters', rows: [{ rank: 1, name: 'Ada', userId: USER_ID, level: 42, score: 98765 }, { rank: 2, name: 'Kai', level: 39, score: 90642 }] } }));
  await record('createProfileImageForUser', client.POST('/v1/profile-image/{userId}', { params: { path: { userId: USER_ID } }, body: { layout: 'welcome', format: 'webp' } }));
  await record('jsonValidator', client.POST('/v1/json-validator', { body: { json: { name: 'Ada', roles: ['admin'] } } }));
  await record('randomEmoji', client.GET('/v1/random-emoji', { params: { query: { category: 'Food & Drink', count: 3, isSymbol: false } } }));
  await record('time', client.GET('/v1/time', { params: { query: { unix: 1700000000, timezone: 'PST' } } }));
  await record('hexToRgb', client.GET('/v1/hex-to-rgb', { params: { query: { hex: '#FF5733' } } }));
  await record('statusGet', client.GET('/v1/status', {}));
  await record('statusHead', client.HEAD('/v1/status', {}));
  await record('statusPost', client.POST('/v1/status', { body: { hello: 'world' } }));
  await record('statusPut', client.PUT('/v1/status', { body: { replaced: true } }));
  await record('statusPatch', client.PATCH('/v1/status', { body: { patched: 1 } }));
  await record('statusDelete', client.DELETE('/v1/status', {}));
  await record('statusOptions', client.OPTIONS('/v1/status', {}));
  await record('ageCalculator', client.GET('/v1/age-calculator', { params: { query: { dob: '1990-05-17' } } }));
  await record('coinFlip', client.GET('/v1/coin-flip', { params: { query: { heads: 70, tails: 30 } } }));
  await record('sortArray', client.POST('/v1/sort-array', { params: { query: { sort: 'low' } }, body: { array: [5, 3, 9, 1] } }));
  await record('scramble', client.GET('/v1/scramble', { params: { query: { word: 'javascript' } } }));
  await record('numberAnalyzer', client.GET('/v1/number-analyzer', { params: { query: { integer: 153 } } }));
  const created = await client.POST('/v1/templates', { body: { name: 'Generated client', fields: TEMPLATE_FIELDS } });
  calls.push({ operationId: 'createTemplate', status: created.response.status, body: created.data ?? created.error, headers: created.response.headers });
  const id = created.data?.id ?? 'tpl_000000000000';
  await record('listTemplates', client.GET('/v1/templates', {}));
  await record('getTemplate', client.GET('/v1/templates/{id}', { params: { path: { id } } }));
  await record('updateTemplate', client.PUT('/v1/templates/{id}', { params: { path: { id } }, body: { name: 'Generated client, again', fields: { ...TEMPLATE_FIELDS, headline: 'Hello' } } }));
  // The answer is the image itself: read as bytes, not checked against a JSON schema.
  const link = await client.GET('/v1/card-link', { params: { query: cardLinkQuery(key, { template: id, customUsername: 'Ada' }) }, parseAs: 'arrayBuffer' });
  calls.push({ operationId: 'getCardLink', status: link.response.status, body: link.response.ok ? undefined : link.error, headers: link.response.headers });
  await record('deleteTemplate', client.DELETE('/v1/templates/{id}', { params: { path: { id } } }));
  // Last: it sees every call before it counted (this key, today).
  await record('getAccount', client.GET('/v1/account', {}));
  return calls;
}

/**
 * Requests the server refuses must not compile either: each line below is an error the generated
 * types have to report (`@ts-expect-error` fails the type-check when the error is gone). Unknown
 * body fields are not among them: openapi-fetch infers the request object generically, which
 * turns off TypeScript's excess-property check (the server answers them 400 `is not a known field`).
 */
export function refusedRequestsDoNotCompile(client: ReturnType<typeof createClient<paths>>): void {
  // @ts-expect-error `hex` is required
  void client.GET('/v1/hex-to-rgb', { params: { query: {} } });
  // @ts-expect-error `integer` is an integer, not text
  void client.GET('/v1/number-analyzer', { params: { query: { integer: 'many' } } });
  // @ts-expect-error `array` is required in the body
  void client.POST('/v1/sort-array', { body: {} });
  // @ts-expect-error `json` is required in the body
  void client.POST('/v1/json-validator', { body: {} });
  // @ts-expect-error `layout` is `profile` or `welcome`
  void client.POST('/v1/profile-image', { params: { query: { userId: USER_ID } }, body: { layout: 'banner' } });
  // @ts-expect-error `userId` is required
  void client.POST('/v1/profile-image', { params: { query: {} }, body: {} });
}
