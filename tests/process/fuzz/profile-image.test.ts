import test from 'ava';
import fc from 'fast-check';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { anyBody, contentType, percentEncode, queryString } from '../../support/fuzz/support/arbitraries.ts';
import { brokenCardOptions, invalidUserId, validCardOptions, validUserId } from '../../support/fuzz/support/card-bodies.ts';
import { fuzzParameters, startFuzzTarget, type FuzzTarget } from '../../support/fuzz/support/fuzz-target.ts';
import { documentedOperations, type Operation } from '../../support/fuzz/support/operations.ts';
import type { RawRequest } from '../../support/fuzz/support/raw-http.ts';

let target: FuzzTarget;
let cardFields: string[];
test.before(async () => {
  target = await startFuzzTarget({}, { render: true });
  const operation = documentedOperations(target.contract).find((candidate) => candidate.path === '/v1/profile-image') as Operation;
  cardFields = operation.bodyFields;
});
test.after.always(async () => {
  await target?.close();
});

/** The two spellings of one operation: `?userId=` or a path segment. */
const userIdForm = fc.constantFrom('query', 'path');

function cardRequest(form: string, userId: string, body: string | undefined, headers: Record<string, string> = {}): RawRequest & { template: string } {
  const path = form === 'query' ? `/v1/profile-image?userId=${percentEncode(userId)}` : `/v1/profile-image/${percentEncode(userId)}`;
  return {
    method: 'POST',
    path,
    template: form === 'query' ? '/v1/profile-image' : '/v1/profile-image/{userId}',
    headers: { authorization: TEST_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
  };
}

/**
 * Statuses a card request may get without Discord configured: 404 only comes from Discord, but an
 * empty path segment falls through to other routes, so it stays allowed.
 */
const CARD_STATUSES = [200, 400, 404, 413, 415, 422];

test('a body broken in one field is a 400 naming that field, in both forms, without rendering', async (t) => {
  await fc.assert(
    fc.asyncProperty(userIdForm, validUserId, brokenCardOptions, async (form, userId, { field, body }) => {
      const request = cardRequest(form, userId, JSON.stringify(body));
      const response = await target.exchange(request, { kind: 'api', operation: { path: request.template, method: 'POST' }, statuses: [400] });
      const error = JSON.parse(response.body.toString('utf8')).error;
      const named = (error.details ?? []).some((detail: { in: string; field: string }) => detail.in === 'body' && detail.field === field);
      if (error.code !== 'invalid_request' || !named) throw new Error(`expected ${field} to be named: ${JSON.stringify(error)}`);
    }),
    fuzzParameters(t, 200),
  );
  t.pass();
});

test('a bad user id is a 400 naming userId, whatever the body', async (t) => {
  await fc.assert(
    fc.asyncProperty(userIdForm, invalidUserId, fc.option(validCardOptions(false), { nil: undefined }), async (form, userId, body) => {
      const request = cardRequest(form, userId, body === undefined ? undefined : JSON.stringify(body));
      const response = await target.exchange(request, { kind: 'api', operation: { path: request.template, method: 'POST' }, statuses: [400] });
      const error = JSON.parse(response.body.toString('utf8')).error;
      if (!(error.details ?? []).some((detail: { field: string }) => detail.field === 'userId')) throw new Error(`userId not named: ${JSON.stringify(error)}`);
    }),
    fuzzParameters(t, 100),
  );
  t.pass();
});

test('arbitrary ids, queries, bodies and content types: no 5xx, documented answers', async (t) => {
  const anything = fc.record({
    form: userIdForm,
    userId: fc.oneof(validUserId, invalidUserId),
    query: queryString(['userId', 'format', 'size']),
    type: fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentType }),
    body: anyBody(cardFields),
  });
  await fc.assert(
    fc.asyncProperty(anything, async ({ form, userId, query, type, body }) => {
      const request = cardRequest(form, userId, body, type === '' ? {} : { 'content-type': type });
      // A query appended to the path form, or repeated after `?userId=`, must not change the rules.
      request.path = form === 'query' ? `${request.path}${query.replace(/^\?/, '&')}` : `${request.path}${query}`;
      await target.exchange(request, { kind: 'api', operation: { path: request.template, method: 'POST' }, statuses: CARD_STATUSES });
    }),
    fuzzParameters(t, 150),
  );
  t.pass();
});

test('valid bodies render (or name a refused image URL) and answer as the document says', async (t) => {
  await fc.assert(
    fc.asyncProperty(userIdForm, validUserId, fc.oneof(validCardOptions(false), validCardOptions(true)), async (form, userId, body) => {
      const request = cardRequest(form, userId, JSON.stringify(body));
      const response = await target.exchange(request, { kind: 'api', operation: { path: request.template, method: 'POST' }, statuses: [200, 422] });
      if (response.status !== 200) return;
      const { url } = JSON.parse(response.body.toString('utf8'));
      const media = await target.client.send({ method: 'HEAD', path: new URL(url).pathname });
      if (media.status !== 200 || !['new', 'reused'].includes(String(response.headers['x-card-render']))) {
        throw new Error(`rendered card ${url}: media ${media.status}, X-Card-Render ${String(response.headers['x-card-render'])}`);
      }
    }),
    fuzzParameters(t, 8),
  );
  t.pass();
});
