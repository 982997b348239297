import { Validator } from '@seriousme/openapi-schema-validator';
import { CARD_LIMITS, LEADERBOARD_LIMITS } from '@utility-api/render-jobs';
import test from 'ava';
import { LIGHT_PATHS } from '../../helpers/light-paths.ts';
import { loadContract, type OpenApiContract } from '../../helpers/openapi-contract.ts';
import { postJson, readJson, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
let contract: OpenApiContract;
test.before(async () => {
  gateway = await startTestGateway({ render: true });
  contract = await loadContract(gateway.url);
});
test.after.always(async () => {
  await gateway?.close();
});

const DOCUMENTED_PATHS = ['/v1/profile-image', '/v1/profile-image/{userId}', '/v1/profile-image/batch', '/v1/leaderboard-image', '/v1/card-link', ...LIGHT_PATHS, '/v1/templates', '/v1/templates/{id}', '/v1/account'];

test('200 serves a valid OpenAPI 3.1 document without a key', async (t) => {
  const response = await fetch(`${gateway.url}/v1/openapi.json`);
  t.is(response.status, 200);
  const document = await readJson(response);
  t.is(document.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(document);
  t.true(result.valid, JSON.stringify(result.errors, null, 2));
  t.deepEqual(Object.keys(document.paths).sort(), [...DOCUMENTED_PATHS].sort());
  t.deepEqual(document.components.securitySchemes.apiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: document.components.securitySchemes.apiKey.description,
  });
});

test('the document describes query parameters with types and required flags', (t) => {
  const time = contract.document.paths['/v1/time'].get;
  const unix = time.parameters.find((parameter: any) => parameter.name === 'unix');
  t.is(unix.in, 'query');
  t.false(unix.required);
  t.is(unix.schema.type, 'integer');
  const hex = contract.document.paths['/v1/hex-to-rgb'].get.parameters[0];
  t.true(hex.required);
  const emoji = contract.document.paths['/v1/random-emoji'].get;
  t.is(emoji.parameters.find((parameter: any) => parameter.name === 'isSymbol').schema.type, 'boolean');
});

test('the profile-image body documents the welcome layout fields: the layout values, text limits and where each is drawn', (t) => {
  for (const path of ['/v1/profile-image', '/v1/profile-image/{userId}']) {
    const properties = contract.document.paths[path].post.requestBody.content['application/json'].schema.properties;
    t.deepEqual(properties.layout.enum, ['profile', 'welcome', 'levelup', 'welcome-tall'], path);
    t.regex(properties.layout.description, /`welcome-tall`: the welcome card as a 16:9 image, 960x540/);
    t.is(properties.layout.type, 'string');
    t.regex(properties.layout.description, /`profile` \(default\)/);
    t.regex(properties.layout.description, /does not show `rankData`/);
    t.deepEqual([properties.headline.type, properties.headline.maxLength], ['string', CARD_LIMITS.maxHeadlineLength]);
    t.regex(properties.headline.description, /Default `Welcome`.*Only drawn when `layout` is `welcome`/);
    t.deepEqual([properties.message.type, properties.message.maxLength], ['string', CARD_LIMITS.maxMessageLength]);
    t.regex(properties.message.description, /Only drawn when `layout` is `welcome`/);
    t.regex(properties.rankData.description, /drawn in the profile layout; the `levelup` layout draws its `previousLevel → level`/);
    t.regex(properties.layout.description, /`levelup` \(extension\)/);
    const previousLevel = properties.rankData.properties.previousLevel;
    t.deepEqual([previousLevel.type, previousLevel.minimum], ['integer', 0]);
    t.regex(previousLevel.description, /default `level − 1`/);
    t.false(properties.rankData.required.includes('previousLevel'), 'the extension is optional: the spec\'s rankData shape still validates');
  }
});

test('the leaderboard-image body documents its rows, the highlighted member and format, from the schema the server validates with', (t) => {
  const operation = contract.document.paths['/v1/leaderboard-image'].post;
  const body = operation.requestBody.content['application/json'].schema;
  t.deepEqual(body.required, ['rows']);
  t.deepEqual([body.properties.rows.minItems, body.properties.rows.maxItems], [1, 10]);
  const row = body.properties.rows.items;
  t.deepEqual(row.required.sort(), ['name', 'rank']);
  t.deepEqual(Object.keys(row.properties).sort(), ['avatarUrl', 'discordUser', 'level', 'name', 'rank', 'score', 'userId']);
  t.is(row.properties.name.maxLength, LEADERBOARD_LIMITS.maxNameLength);
  t.regex(body.properties.highlight.description, /under the others, after a gap with an ellipsis/);
  t.deepEqual(body.properties.format.enum, ['png', 'webp', 'avif', 'gif']);
  t.deepEqual(contract.check('/v1/leaderboard-image', 'POST', 200, operation.responses['200'].content['application/json'].example), [], 'the example matches its schema');
});

test('the profile-image body documents format and the 200 answer documents altText, from the same schemas the server validates with', (t) => {
  for (const path of ['/v1/profile-image', '/v1/profile-image/{userId}']) {
    const operation = contract.document.paths[path].post;
    const properties = operation.requestBody.content['application/json'].schema.properties;
    t.deepEqual(properties.format.enum, ['png', 'webp', 'avif', 'gif'], path);
    t.is(properties.format.type, 'string');
    t.regex(properties.format.description, /`png` \(default/);
    t.false(operation.requestBody.content['application/json'].schema.required?.includes('format') ?? false);
    const answer = operation.responses['200'].content['application/json'].schema;
    t.deepEqual([answer.properties.altText.type, answer.properties.altText.maxLength], ['string', 1024]);
    t.true(answer.required.includes('altText'));
    t.regex(answer.properties.url.description, /`\.webp`/);
    t.deepEqual(contract.check(path, 'POST', 200, operation.responses['200'].content['application/json'].example), [], 'the example matches its schema');
    // The Accept answers: the image types, their headers, and the 406.
    const content = operation.responses['200'].content;
    t.deepEqual(Object.keys(content), ['application/json', 'image/png', 'image/webp', 'image/avif', 'image/gif']);
    t.deepEqual(content['image/webp'].schema, { type: 'string', contentMediaType: 'image/webp' });
    const headers = operation.responses['200'].headers;
    for (const name of ['Content-Location', 'ETag', 'X-Alt-Text', 'X-Card-Render', 'Vary', 'RateLimit-Limit']) t.truthy(headers[name], name);
    t.regex(headers['X-Alt-Text'].description, /RFC 8187/);
    t.regex(operation.responses['406'].description, /`not_acceptable`/);
    t.regex(operation.description, /Accept: image\/png/);
  }
});

test("GET /v1/account documents its answer with an example that matches it, and no 403: every key may call it", (t) => {
  const operation = contract.document.paths['/v1/account'].get;
  t.is(operation.operationId, 'getAccount');
  t.deepEqual(contract.check('/v1/account', 'GET', 200, operation.responses['200'].content['application/json'].example), [], 'the example matches its schema');
  t.is(operation.responses['403'], undefined);
  t.regex(contract.document.components.responses.TooManyRequests.description, /`quota_exceeded`/);
});

test('the status path documents all seven methods', (t) => {
  t.deepEqual(Object.keys(contract.document.paths['/v1/status']).sort(), [
    'delete',
    'get',
    'head',
    'options',
    'patch',
    'post',
    'put',
  ]);
});

const SAMPLES: { path: string; method: string; init?: RequestInit; query?: string }[] = [
  { path: '/v1/json-validator', method: 'POST', init: postJson({ json: { a: 1 } }) },
  { path: '/v1/json-validator', method: 'POST', init: postJson({}) },
  { path: '/v1/random-emoji', method: 'GET', query: '?count=10' },
  { path: '/v1/random-emoji', method: 'GET', query: '?category=Flags&count=0' },
  { path: '/v1/random-emoji', method: 'GET', query: '?category=Food%20%26%20Drink&isSymbol=true' },
  { path: '/v1/time', method: 'GET', query: '?unix=1700000000&timezone=PST' },
  { path: '/v1/time', method: 'GET', query: '?unix=4102444800' },
  { path: '/v1/time', method: 'GET', query: '?unix=1.5' },
  { path: '/v1/hex-to-rgb', method: 'GET', query: '?hex=0af' },
  { path: '/v1/status', method: 'GET', query: '?a=1&a=2' },
  { path: '/v1/status', method: 'POST', init: postJson({ hello: 'world' }) },
  { path: '/v1/age-calculator', method: 'GET', query: '?dob=2000-2-29' },
  { path: '/v1/age-calculator', method: 'GET', query: '?dob=2999-01-01' },
  { path: '/v1/coin-flip', method: 'GET', query: '?heads=1&tails=99' },
  { path: '/v1/sort-array', method: 'POST', query: '?sort=high', init: postJson({ array: [3, 1.5, -2] }) },
  { path: '/v1/sort-array', method: 'POST', init: postJson({ array: ['3'] }) },
  { path: '/v1/scramble', method: 'GET', query: '?word=example' },
  { path: '/v1/number-analyzer', method: 'GET', query: '?integer=-1234567' },
  { path: '/v1/number-analyzer', method: 'GET', query: '?integer=1e3' },
  { path: '/v1/account', method: 'GET' },
];

for (const [index, sample] of SAMPLES.entries()) {
  test(`responses match the document #${index + 1}: ${sample.method} ${sample.path}${sample.query ?? ''}`, async (t) => {
    const { status, body } = await gateway.json(`${sample.path}${sample.query ?? ''}`, {
      method: sample.method,
      ...sample.init,
    });
    t.true(status < 500);
    t.deepEqual(contract.check(sample.path, sample.method, status, body), [], `status ${status}: ${JSON.stringify(body)}`);
  });
}

test('401 responses match the shared error schema on every path that takes a key', async (t) => {
  // A signed card link reads no Authorization header: its refusals are its own 403s (tests/card-links).
  for (const path of DOCUMENTED_PATHS.filter((documented) => documented !== '/v1/card-link')) {
    const method = Object.keys(contract.document.paths[path])[0]!.toUpperCase();
    const { status, body } = await gateway.json(path, { method, headers: { authorization: 'not-a-valid-key-at-all' } });
    t.is(status, 401, path);
    t.deepEqual(contract.check(path, method, 401, body), [], path);
  }
});
