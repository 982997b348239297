/**
 * Every operation called through the SDK @hey-api/openapi-ts generates from the served document
 * (its fetch client). The test generates `generated/`, type-checks this file against it and runs it.
 */
import { client } from './generated/client.gen.ts';
import * as api from './generated/sdk.gen.ts';
import { cardLinkQuery, RANK_DATA, TEMPLATE_FIELDS, USER_ID, type Call } from '../client-call.ts';

export async function callEveryOperation(baseUrl: string, key: string): Promise<Call[]> {
  // The document's security scheme is an API key in `Authorization`: the SDK asks `auth` for it.
  client.setConfig({ baseUrl, auth: () => key });
  const calls: Call[] = [];
  const record = async (operationId: string, pending: Promise<{ data?: unknown; error?: unknown; response?: Response }>) => {
    const { data, error, response } = await pending;
    if (!response) throw new Error(`${operationId}: no response`);
    calls.push({ operationId, status: response.status, body: data ?? error, headers: response.headers });
  };
  const responseOf = (answer: { response?: Response }) => {
    if (!answer.response) throw new Error('no response');
    return answer.response;
  };
  await record('createProfileImage', api.createProfileImage({ query: { userId: USER_ID }, body: { customTag: 'Welcome!', presenceStatus: 'online', rankData: RANK_DATA } }));
  await record('createProfileImageBatch', api.createProfileImageBatch({ body: { cards: [{ userId: USER_ID, customTag: 'Batch' }, { userId: 'not-a-user' }] } }));
  await record('createLeaderboardImage', api.createLeaderboardImage({ body: { title: 'Top chatters', rows: [{ rank: 1, name: 'Ada', userId: USER_ID, level: 42, score: 98765 }, { rank: 2, name: 'Kai', level: 39, score: 90642 }] } }));
  await record('createProfileImageForUser', api.createProfileImageForUser({ path: { userId: USER_ID }, body: { layout: 'welcome', format: 'webp' } }));
  await record('jsonValidator', api.jsonValidator({ body: { json: { name: 'Ada', roles: ['admin'] } } }));
  await record('randomEmoji', api.randomEmoji({ query: { category: 'Food & Drink', count: 3, isSymbol: false } }));
  await record('time', api.time({ query: { unix: 1700000000, timezone: 'PST' } }));
  await record('hexToRgb', api.hexToRgb({ query: { hex: '#FF5733' } }));
  await record('statusGet', api.statusGet());
  await record('statusHead', api.statusHead());
  await record('statusPost', api.statusPost({ body: { hello: 'world' } }));
  await record('statusPut', api.statusPut({ body: { replaced: true } }));
  await record('statusPatch', api.statusPatch({ body: { patched: 1 } }));
  await record('statusDelete', api.statusDelete());
  await record('statusOptions', api.statusOptions());
  await record('ageCalculator', api.ageCalculator({ query: { dob: '1990-05-17' } }));
  await record('coinFlip', api.coinFlip({ query: { heads: 70, tails: 30 } }));
  await record('sortArray', api.sortArray({ query: { sort: 'low' }, body: { array: [5, 3, 9, 1] } }));
  await record('scramble', api.scramble({ query: { word: 'javascript' } }));
  await record('numberAnalyzer', api.numberAnalyzer({ query: { integer: 153 } }));
  const created = await api.createTemplate({ body: { name: 'Generated client', fields: TEMPLATE_FIELDS } });
  calls.push({ operationId: 'createTemplate', status: responseOf(created).status, body: created.data ?? created.error, headers: responseOf(created).headers });
  const id = created.data?.id ?? 'tpl_000000000000';
  await record('listTemplates', api.listTemplates());
  await record('getTemplate', api.getTemplate({ path: { id } }));
  await record('updateTemplate', api.updateTemplate({ path: { id }, body: { name: 'Generated client, again', fields: { ...TEMPLATE_FIELDS, headline: 'Hello' } } }));
  // The answer is the image itself: read as bytes, not checked against a JSON schema.
  const link = await api.getCardLink({ query: cardLinkQuery(key, { template: id, customUsername: 'Ada' }), parseAs: 'blob' });
  calls.push({ operationId: 'getCardLink', status: responseOf(link).status, body: responseOf(link).ok ? undefined : link.error, headers: responseOf(link).headers });
  // 204: no body, whatever the client makes of it.
  const deleted = await api.deleteTemplate({ path: { id } });
  calls.push({ operationId: 'deleteTemplate', status: responseOf(deleted).status, body: responseOf(deleted).ok ? undefined : deleted.error, headers: responseOf(deleted).headers });
  // Last: it sees every call before it counted (this key, today).
  await record('getAccount', api.getAccount());
  return calls;
}
