/**
 * Every operation called through the fetch client orval generates from the served document. The
 * test generates `generated/api.ts` (configured as an orval user would: `baseUrl`, and JSON as the
 * one body type of `/v1/status`, whose bodies may also be forms: orval sends a body offered in two
 * types with no Content-Type at all), type-checks this file against it and runs it.
 */
import * as api from './generated/api.ts';
import { cardLinkQuery, RANK_DATA, TEMPLATE_FIELDS, USER_ID, type Call } from '../client-call.ts';

export async function callEveryOperation(_baseUrl: string, key: string): Promise<Call[]> {
  const init = { headers: { Authorization: key } };
  const calls: Call[] = [];
  const record = async (operationId: string, pending: Promise<{ data: unknown; status: number; headers: Headers }>) => {
    const { data, status, headers } = await pending;
    calls.push({ operationId, status, body: data, headers });
  };
  await record('createProfileImage', api.createProfileImage({ userId: USER_ID }, { customTag: 'Welcome!', presenceStatus: 'online', rankData: RANK_DATA }, init));
  await record('createProfileImageBatch', api.createProfileImageBatch({ cards: [{ userId: USER_ID, customTag: 'Batch' }, { userId: 'not-a-user' }] }, init));
  await record('createLeaderboardImage', api.createLeaderboardImage({ title: 'Top chatters', rows: [{ rank: 1, name: 'Ada', userId: USER_ID, level: 42, score: 98765 }, { rank: 2, name: 'Kai', level: 39, score: 90642 }] }, init));
  await record('createProfileImageForUser', api.createProfileImageForUser(USER_ID, { layout: 'welcome', format: 'webp' }, init));
  await record('jsonValidator', api.jsonValidator({ json: { name: 'Ada', roles: ['admin'] } }, init));
  await record('randomEmoji', api.randomEmoji({ category: 'Food & Drink', count: 3, isSymbol: false }, init));
  await record('time', api.time({ unix: 1700000000, timezone: 'PST' }, init));
  await record('hexToRgb', api.hexToRgb({ hex: '#FF5733' }, init));
  await record('statusGet', api.statusGet(init));
  await record('statusHead', api.statusHead(init));
  await record('statusPost', api.statusPost({ hello: 'world' }, init));
  await record('statusPut', api.statusPut({ replaced: true }, init));
  await record('statusPatch', api.statusPatch({ patched: 1 }, init));
  await record('statusDelete', api.statusDelete(undefined, init));
  await record('statusOptions', api.statusOptions(init));
  await record('ageCalculator', api.ageCalculator({ dob: '1990-05-17' }, init));
  await record('coinFlip', api.coinFlip({ heads: 70, tails: 30 }, init));
  await record('sortArray', api.sortArray({ array: [5, 3, 9, 1] }, { sort: 'low' }, init));
  await record('scramble', api.scramble({ word: 'javascript' }, init));
  await record('numberAnalyzer', api.numberAnalyzer({ integer: 153 }, init));
  const created = await api.createTemplate({ name: 'Generated client', fields: TEMPLATE_FIELDS }, init);
  calls.push({ operationId: 'createTemplate', status: created.status, body: created.data, headers: created.headers });
  const id = created.status === 201 ? created.data.id : 'tpl_000000000000';
  await record('listTemplates', api.listTemplates(init));
  await record('getTemplate', api.getTemplate(id, init));
  await record('updateTemplate', api.updateTemplate(id, { name: 'Generated client, again', fields: { ...TEMPLATE_FIELDS, headline: 'Hello' } }, init));
  // orval's fetch client reads every answer as JSON; an image answer is fetched from the URL it builds, as a developer would.
  const link = await fetch(api.getGetCardLinkUrl(cardLinkQuery(key, { template: id, customUsername: 'Ada' })));
  calls.push({ operationId: 'getCardLink', status: link.status, body: link.ok ? undefined : await link.json(), headers: link.headers });
  const deleted = await api.deleteTemplate(id, init);
  calls.push({ operationId: 'deleteTemplate', status: deleted.status, body: deleted.status === 204 ? undefined : deleted.data, headers: deleted.headers });
  // Last: it sees every call before it counted (this key, today).
  await record('getAccount', api.getAccount(init));
  return calls;
}
