import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { cardLinkKeyId as sdkKeyId, cardUrl, createClient } from '@utility-api/client';
import {
  buildCardLink,
  cardLinkKeyId,
  cardLinkSignatureMatches,
  cardLinkSignedText,
  cardLinkSigningKey,
  decodeCardLinkOptions,
  parseCardLinkQuery,
} from '../../../services/gateway/src/cards/card-link/card-link-signature.ts';
import { apiKeyId, hashApiKey } from '../../../services/gateway/src/auth/api-keys.ts';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { documentedVector } from '../../support/card-links/card-link-vector.ts';

const run = promisify(execFile);
const vector = documentedVector();
/** Debian's interpreter, as tests/process/sdk/python-sdk.test.ts uses; the package needs only the standard library. */
const PYTHON = '/usr/bin/python3';

test('the server builds the documented vector step by step: key id, signing key, options JSON, signed text, URL', (t) => {
  t.is(cardLinkKeyId(vector.apiKey), vector.keyId);
  t.is(cardLinkSigningKey(vector.apiKey).toString('hex'), vector.signingKey);
  t.is(JSON.stringify(vector.options), vector.optionsJson);
  const parts = { keyId: vector.keyId, userId: vector.userId, options: vector.options, expiresAt: vector.expiresAt };
  t.is(cardLinkSignedText(parts), vector.signedText);
  t.is(buildCardLink(vector.baseUrl, vector.apiKey, parts), vector.url);
});

test('the documented URL verifies, and every single changed, dropped or added character of its query is refused', (t) => {
  const query = vector.url.split('?')[1]!;
  const signingKeys = [cardLinkSigningKey(vector.apiKey)];
  const accepted = (text: string) => {
    const link = parseCardLinkQuery(text);
    return link !== undefined && cardLinkSignatureMatches(link, signingKeys);
  };
  t.true(accepted(query));
  const parsed = parseCardLinkQuery(query)!;
  t.deepEqual(decodeCardLinkOptions(parsed.encodedOptions!), vector.options);
  t.is(parsed.expiresAt, vector.expiresAt);
  const survivors: string[] = [];
  for (let index = 0; index < query.length; index += 1) {
    const original = query[index]!;
    // A different character of the same class, so the link stays well-formed where it can.
    const replacement = /\d/.test(original) ? String((Number(original) + 1) % 10) : /[a-z]/.test(original) ? (original === 'a' ? 'b' : 'a') : /[A-Z]/.test(original) ? (original === 'A' ? 'B' : 'A') : 'x';
    for (const changed of [query.slice(0, index) + replacement + query.slice(index + 1), query.slice(0, index) + query.slice(index + 1), `${query.slice(0, index)}0${query.slice(index)}`]) {
      if (changed !== query && accepted(changed)) survivors.push(changed);
    }
  }
  t.deepEqual(survivors, []);
  t.false(accepted(`${query}&x=1`), 'an extra parameter');
  t.false(accepted(query.replace('&e=1893456000', '')), 'the expiry removed');
  t.false(accepted(query.replace('v=1', 'v=2')), 'another version');
  // Another key's signature over the same text.
  t.false(cardLinkSignatureMatches(parsed, [cardLinkSigningKey(`${vector.apiKey}x`)]));
});

test('a bootstrap key (API_KEYS) is named by the id GET /v1/account shows for it: key_ and 12 hex digits of its SHA-256', (t) => {
  const key = 'test-key-0123456789abcdef';
  t.is(cardLinkKeyId(key), apiKeyId(hashApiKey(key)));
  t.is(sdkKeyId(key), apiKeyId(hashApiKey(key)));
  t.regex(cardLinkKeyId(key), /^key_[0-9a-f]{12}$/);
});

test('the TypeScript SDK builds the documented URL, standalone and from a client', (t) => {
  t.is(sdkKeyId(vector.apiKey), vector.keyId);
  t.is(cardUrl({ baseUrl: vector.baseUrl, apiKey: vector.apiKey, userId: vector.userId, card: vector.options, expiresAt: vector.expiresAt }), vector.url);
  const api = createClient({ baseUrl: `${vector.baseUrl}/`, apiKey: vector.apiKey });
  t.is(api.cardUrl(vector.userId, vector.options, { expiresAt: new Date(vector.expiresAt * 1000 + 999) }), vector.url, 'a Date is taken to its whole second');
});

test('the Python SDK builds the documented URL, standalone and from a client', async (t) => {
  const script = [
    'import datetime, json, sys',
    'from utility_api import Client, card_link_key_id, card_url',
    'v = json.loads(sys.argv[1])',
    'print(card_link_key_id(v["apiKey"]))',
    'print(card_url(v["baseUrl"], v["apiKey"], v["userId"], v["options"], expires_at=v["expiresAt"]))',
    'print(Client(v["apiKey"], v["baseUrl"] + "/").card_url(v["userId"], v["options"], expires_at=datetime.datetime.fromtimestamp(v["expiresAt"] + 0.5, datetime.timezone.utc)))',
  ].join('\n');
  const { stdout } = await run(PYTHON, ['-c', script, JSON.stringify(vector)], { env: { ...process.env, PYTHONPATH: join(REPO_ROOT, 'sdk/python'), PYTHONDONTWRITEBYTECODE: '1' } });
  t.deepEqual(stdout.trimEnd().split('\n'), [vector.keyId, vector.url, vector.url]);
});
