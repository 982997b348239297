/**
 * The document is as strict and as loose as the server: for the query values whose rules are a
 * pattern or a range, every sample is accepted by the documented schema exactly when the server
 * answers it 200. Patterns are compiled as validating proxies and generated clients do (ECMA regex
 * with the `u` flag; JSON Schema has no case-insensitive flag).
 */
import { cardOptionsSchema, isSupportedDateLocale } from '@utility-api/render-jobs';
import test, { type ExecutionContext } from 'ava';
import { UNIX_RANGE } from '../../../services/gateway/src/utilities/time/endpoint.ts';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';

let gateway: TestGateway;
let parameters: Map<string, { schema: { pattern?: string; enum?: unknown; minimum?: number; maximum?: number } }>;

test.before(async () => {
  gateway = await startTestGateway({ env: { RATE_LIMITS: 'off' } });
  const document = (await gateway.json('/v1/openapi.json')).body as {
    paths: Record<string, Record<string, { parameters?: { name: string; schema: object }[] }>>;
  };
  parameters = new Map();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item)) for (const parameter of operation.parameters ?? []) parameters.set(`${path} ${parameter.name}`, parameter);
  }
});
test.after.always(async () => {
  await gateway?.close();
});

function documented(key: string): RegExp {
  const pattern = parameters.get(key)?.schema.pattern;
  if (pattern === undefined) throw new Error(`${key} has no pattern in the document`);
  return new RegExp(pattern, 'u');
}

async function agree(t: ExecutionContext, key: string, path: (value: string) => string, samples: readonly string[]) {
  const pattern = documented(key);
  for (const sample of samples) {
    const { status } = await gateway.json(path(encodeURIComponent(sample)));
    t.is(status === 200, pattern.test(sample), `${key} = ${JSON.stringify(sample)}: server ${status}, document ${pattern.test(sample) ? 'accepts' : 'refuses'}`);
  }
}

test('hex: any letter case, with or without #, as the server takes it', async (t) => {
  await agree(t, '/v1/hex-to-rgb hex', (value) => `/v1/hex-to-rgb?hex=${value}`, ['FF5733', '#ff5733', '#F53', 'aBc', '#GG0000', '#12345', '', 'ff57331']);
});

test('timezone: a pattern of the labels in any case, not an upper-case enum', async (t) => {
  t.is(parameters.get('/v1/time timezone')?.schema.enum, undefined);
  await agree(t, '/v1/time timezone', (value) => `/v1/time?timezone=${value}`, ['EST', 'est', 'Cet', 'pSt', 'UTC', 'ESTX', '']);
});

test('sort: a pattern of high and low in any case', async (t) => {
  const pattern = documented('/v1/sort-array sort');
  for (const [value, accepted] of [['HIGH', true], ['low', true], ['Low', true], ['up', false]] as const) t.is(pattern.test(value), accepted, value);
});

test('category: every name and slug in any case, with spaces around, as findCategory takes them', async (t) => {
  await agree(t, '/v1/random-emoji category', (value) => `/v1/random-emoji?category=${value}`, [
    'Food & Drink',
    'food & drink',
    ' FOOD-DRINK ',
    'smileys-emotion',
    'Flags',
    'Food',
    'food_drink',
    'Smileys&Emotion',
  ]);
});

test('unix: the documented range is the one the server checks', async (t) => {
  const schema = parameters.get('/v1/time unix')?.schema;
  t.is(schema?.minimum, UNIX_RANGE.min);
  t.is(schema?.maximum, UNIX_RANGE.max);
  for (const [unix, status] of [[UNIX_RANGE.min, 200], [UNIX_RANGE.max, 200], [UNIX_RANGE.min - 1, 400], [UNIX_RANGE.max + 1, 400]] as const) {
    t.is((await gateway.json(`/v1/time?unix=${unix}`)).status, status, String(unix));
  }
});

test('colour fields of the card body carry the colour pattern, any case', (t) => {
  // The same conversion the document builder makes of a request body (openapi-document.ts).
  const schema = cardOptionsSchema.toJSONSchema({ target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { pattern?: string }> };
  for (const field of ['usernameColor', 'tagColor', 'borderColor']) {
    const pattern = new RegExp(schema.properties[field]?.pattern ?? '(?!)', 'u');
    for (const [value, accepted] of [['#FF5733', true], ['ff5733', true], ['#f53', true], ['red', false], ['#12345', false]] as const) {
      t.is(pattern.test(value), accepted, `${field} ${value}`);
      t.is(cardOptionsSchema.safeParse({ [field]: value }).success, accepted, `${field} ${value} on the server`);
    }
  }
});

test('localDateType: the documented pattern takes exactly the locales the server takes', (t) => {
  const schema = cardOptionsSchema.toJSONSchema({ target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { pattern?: string }> };
  const pattern = new RegExp(schema.properties.localDateType?.pattern ?? '(?!)', 'u');
  const samples = ['en', 'EN', 'es', 'pt-BR', 'pt-br', 'zh-Hant-TW', 'sr-Latn', 'iw', 'afr', 'ast-ES', 'en-419', 'en-ZZ',
    'xx', 'qq-US', 'en-', 'english', '', 'en_US', '../etc', 'en-Latn-US-x', 'e', 'en-1', 'zzz', 'de-DE ', ' de'];
  for (const sample of samples) {
    const accepted = cardOptionsSchema.safeParse({ localDateType: sample }).success;
    t.is(pattern.test(sample), accepted, `${JSON.stringify(sample)}: document ${pattern.test(sample)}, server ${accepted}`);
  }
  t.true(isSupportedDateLocale('pt-BR'));
  t.false(isSupportedDateLocale('xx'));
});
