import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import test from 'ava';
import { cardUrl } from '@utility-api/client';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

/**
 * Templates have a kind: a leaderboard design (title, score label, colours, format) drives
 * `POST /v1/leaderboard-image` as a profile design drives profile cards, and a template named by a
 * request of the other kind is a 422 naming the field, wherever the request comes from (POST,
 * signed link, batch item). Through a whole gateway: only a drawn board proves a template usable.
 */
let gateway: TestGateway;
const USER_ID = '302050872383242240';
const ROWS = [
  { rank: 1, name: 'Ada', level: 42, score: 98765 },
  { rank: 2, name: 'Kai', level: 39, score: 90642 },
];
const BOARD_DESIGN = { title: 'Top chatters', scoreLabel: 'pts', autoColorRank: true, accentColor: '#ED4245' };

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RENDER_WORKERS: '1' } });
});

test.after.always(async () => {
  await gateway?.close();
});

const create = (body: unknown) => gateway.json('/v1/templates', postJson(body));

test.serial('a leaderboard template is saved with its kind, listed with it, and holds only the board\'s design', async (t) => {
  const created = await create({ name: 'Board, red', kind: 'leaderboard', fields: BOARD_DESIGN });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body, { name: 'Board, red', kind: 'leaderboard', fields: { ...BOARD_DESIGN, accentColor: '#ed4245' } });
  const profile = await create({ name: 'Welcome', fields: { layout: 'welcome' } });
  t.is(profile.status, 201);
  t.is(profile.body.kind, 'profile', 'a body without kind is a profile design, as every template was before kinds');
  const listed = await gateway.json('/v1/templates');
  t.deepEqual(
    listed.body.templates.filter((template: { id: string }) => [created.body.id, profile.body.id].includes(template.id)).map((template: { kind: string }) => template.kind),
    ['leaderboard', 'profile'],
  );
  t.deepEqual((await gateway.json(`/v1/templates/${created.body.id}`)).body, created.body);

  // Each kind's fields are its own endpoint's, without the member's data; anything else is the usual 400 naming it.
  const refused: [unknown, string][] = [
    [{ name: 'x', kind: 'leaderboard', fields: { rows: ROWS } }, 'fields.rows'],
    [{ name: 'x', kind: 'leaderboard', fields: { highlight: ROWS[0] } }, 'fields.highlight'],
    [{ name: 'x', kind: 'leaderboard', fields: { layout: 'welcome' } }, 'fields.layout'],
    [{ name: 'x', fields: { title: 'Top chatters' } }, 'fields.title'],
    [{ name: 'x', kind: 'rank', fields: {} }, 'kind'],
  ];
  for (const [body, field] of refused) {
    const answer = await create(body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.body.error.code, 'invalid_request');
    t.true(answer.body.error.details.some((detail: { field: string }) => detail.field === field), `${field}: ${JSON.stringify(answer.body.error)}`);
  }
});

test.serial('POST /v1/leaderboard-image names a leaderboard template: its design under the body\'s own fields, the same board as spelled out', async (t) => {
  const template = (await create({ name: 'Board', kind: 'leaderboard', fields: BOARD_DESIGN })).body;
  const drawn = await gateway.json('/v1/leaderboard-image', postJson({ template: template.id, rows: ROWS, title: 'This week' }));
  t.is(drawn.status, 200, JSON.stringify(drawn.body));
  t.like(drawn.body.options, { template: template.id, title: 'This week', scoreLabel: 'pts', autoColorRank: true, accentColor: '#ed4245' });
  t.true(drawn.body.altText.includes('“This week”'), drawn.body.altText);
  t.true(drawn.body.altText.includes('98.7K pts'), 'the template\'s score label was drawn');

  // The same board with every field written out: the same picture, so the same content-named image.
  const spelledOut = await gateway.json('/v1/leaderboard-image', postJson({ ...BOARD_DESIGN, rows: ROWS, title: 'This week' }));
  t.is(spelledOut.status, 200);
  t.is(spelledOut.body.url, drawn.body.url);

  // The template's format is the board's unless the body says otherwise.
  const webpDesign = (await create({ name: 'Board, webp', kind: 'leaderboard', fields: { ...BOARD_DESIGN, format: 'webp' } })).body;
  const webp = await gateway.request('/v1/leaderboard-image', postJson({ template: webpDesign.id, rows: ROWS }, { headers: { accept: 'image/*' } }));
  t.is(webp.status, 200);
  t.is(webp.headers.get('content-type'), 'image/webp');

  const unknown = await gateway.json('/v1/leaderboard-image', postJson({ template: 'tpl_000000000000', rows: ROWS }));
  t.is(unknown.status, 404);
  t.like(unknown.body.error, { code: 'template_not_found', details: [{ in: 'body', field: 'template' }] });
  const malformed = await gateway.json('/v1/leaderboard-image', postJson({ template: 'board', rows: ROWS }));
  t.is(malformed.status, 400);
  t.like(malformed.body.error.details[0], { in: 'body', field: 'template' });
});

test.serial('a template of the other kind is 422 template_kind_mismatch, from a POST, a link and a batch item alike', async (t) => {
  const board = (await create({ name: 'Board', kind: 'leaderboard', fields: BOARD_DESIGN })).body;
  const welcome = (await create({ name: 'Welcome', fields: { layout: 'welcome', headline: 'Hi' } })).body;

  const boardOnProfile = await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson({ template: board.id }));
  t.is(boardOnProfile.status, 422, JSON.stringify(boardOnProfile.body));
  t.like(boardOnProfile.body.error, { status: 422, code: 'template_kind_mismatch', details: [{ in: 'body', field: 'template' }] });
  t.true(boardOnProfile.body.error.message.includes('leaderboard'));

  const profileOnBoard = await gateway.json('/v1/leaderboard-image', postJson({ template: welcome.id, rows: ROWS }));
  t.is(profileOnBoard.status, 422);
  t.like(profileOnBoard.body.error, { code: 'template_kind_mismatch', details: [{ in: 'body', field: 'template' }] });

  const link = await fetch(cardUrl({ baseUrl: gateway.url, apiKey: TEST_API_KEY, userId: USER_ID, card: { template: board.id } }));
  t.is(link.status, 422);
  t.like(((await link.json()) as { error: object }).error, { code: 'template_kind_mismatch', details: [{ in: 'query', field: 'o.template' }] });

  const batch = await gateway.json('/v1/profile-image/batch', postJson({ cards: [{ userId: USER_ID, template: welcome.id }, { userId: USER_ID, template: board.id }] }));
  t.is(batch.status, 200, JSON.stringify(batch.body));
  t.like(batch.body.results[0], { success: true, options: { template: welcome.id, layout: 'welcome' } });
  t.like(batch.body.results[1].error, { status: 422, code: 'template_kind_mismatch', details: [{ in: 'body', field: 'cards.1.template' }] });
});

test.serial('PUT replaces the kind with the design: a profile template becomes a leaderboard one', async (t) => {
  const template = (await create({ name: 'Was a card', fields: { layout: 'welcome' } })).body;
  const replaced = await gateway.json(`/v1/templates/${template.id}`, postJson({ name: 'Now a board', kind: 'leaderboard', fields: { title: 'Ranks' } }, { method: 'PUT' }));
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { id: template.id, kind: 'leaderboard', fields: { title: 'Ranks' } });
  t.is((await gateway.json('/v1/leaderboard-image', postJson({ template: template.id, rows: ROWS }))).status, 200);
  t.is((await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson({ template: template.id }))).status, 422);
});

test.serial('a template stored before templates had a kind reads as a profile design and still draws profile cards', async (t) => {
  // Written as the store wrote records then: no kind in the JSON.
  const id = 'tpl_legacy000001';
  const at = '2024-06-01T00:00:00.000Z';
  const legacy = { id, accountId: OWNER_ACCOUNT_ID, name: 'Old welcome', fields: { layout: 'welcome', headline: 'Hello' }, createdAt: at, updatedAt: at };
  const db = new DatabaseSync(join(gateway.mediaDir, 'accounts.sqlite'));
  try {
    db.prepare('INSERT INTO card_templates (id, account_id, seq, record) VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM card_templates), ?)').run(id, OWNER_ACCOUNT_ID, JSON.stringify(legacy));
  } finally {
    db.close();
  }
  t.like((await gateway.json(`/v1/templates/${id}`)).body, { id, kind: 'profile', fields: legacy.fields });
  const card = await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson({ template: id }));
  t.is(card.status, 200, JSON.stringify(card.body));
  t.like(card.body.options, { template: id, layout: 'welcome', headline: 'Hello' });
  t.is((await gateway.json('/v1/leaderboard-image', postJson({ template: id, rows: ROWS }))).status, 422);
});
