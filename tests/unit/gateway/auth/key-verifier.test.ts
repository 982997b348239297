import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import test from 'ava';
import { createLogger } from '@utility-api/infra';
import { openSqliteAccountStore } from '../../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { ApiKeyVerifier, presentedApiKey } from '../../../../services/gateway/src/auth/key-verifier.ts';

const KEYS = ['alpha-key-0123456789', 'beta-key-0123456789'];

/** A verifier with only bootstrap keys: its database is new, so it holds no managed key. */
async function bootstrapOnly(keys: readonly string[]): Promise<ApiKeyVerifier> {
  const records = openSqliteAccountStore({ path: join(mkdtempSync(join(tmpdir(), 'verifier-')), 'accounts.sqlite') });
  const verifier = await ApiKeyVerifier.open({ bootstrapKeys: keys, records, logger: createLogger({ service: 'test', level: 'silent' }) });
  verifier.close();
  return verifier;
}

test('verifies each configured key and names it without revealing it', async (t) => {
  const store = await bootstrapOnly(KEYS);
  const alpha = await store.verify(KEYS[0]!);
  const beta = await store.verify(KEYS[1]!);
  t.truthy(alpha);
  t.truthy(beta);
  t.not(alpha!.id, beta!.id);
  t.regex(alpha!.id, /^key_[0-9a-f]{12}$/);
  t.false(JSON.stringify(alpha).includes(KEYS[0]!));
});

test('refuses unknown keys, prefixes, extensions and case changes', async (t) => {
  const store = await bootstrapOnly(KEYS);
  for (const attempt of ['', 'alpha-key', 'alpha-key-01234567890', 'ALPHA-KEY-0123456789', ' alpha-key-0123456789']) {
    t.is(await store.verify(attempt), undefined, attempt);
  }
});

test('an empty store accepts nothing', async (t) => {
  t.is(await (await bootstrapOnly([])).verify('anything-at-all-here'), undefined);
});

test('reads the raw key or a Bearer key from the header value, nothing else', (t) => {
  t.is(presentedApiKey('abc'), 'abc');
  t.is(presentedApiKey('  abc  '), 'abc');
  t.is(presentedApiKey('Bearer abc'), 'abc');
  t.is(presentedApiKey('bearer   abc'), 'abc');
  t.is(presentedApiKey('Basic abc'), undefined);
  t.is(presentedApiKey('Bearer'), 'Bearer');
  t.is(presentedApiKey('a b c'), undefined);
  t.is(presentedApiKey(''), undefined);
});
