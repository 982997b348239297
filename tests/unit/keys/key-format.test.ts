import test from 'ava';
import { generateKeyId, generateManagedKey, keyIdFromReference, managedKeyId, managedKeyPrefix } from '../../../services/gateway/src/auth/api-keys.ts';
import { formatRateSpec, parseRateSpec } from '../../../services/gateway/src/auth/rate-spec.ts';

test('a managed key is uk_live_<8 char id>_<32 base62>, and its id reads back', (t) => {
  const seen = new Set<string>();
  for (let index = 0; index < 200; index += 1) {
    const id = generateKeyId();
    const key = generateManagedKey(id);
    t.regex(key, /^uk_live_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
    t.true(key.startsWith(`${managedKeyPrefix(id)}_`));
    t.is(managedKeyId(key), id);
    seen.add(key);
  }
  t.is(seen.size, 200);
});

test('the secret uses the whole base62 alphabet (no folded, biased bytes)', (t) => {
  const counts = new Map<string, number>();
  for (let index = 0; index < 400; index += 1) {
    for (const character of generateManagedKey('abcd1234').slice(17)) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  t.is(counts.size, 62);
  // 12 800 characters over 62 symbols: about 206 each; a bias towards the first 8 would show as ~1.25x.
  const values = [...counts.values()];
  t.true(Math.max(...values) / Math.min(...values) < 1.6, JSON.stringify(Object.fromEntries(counts)));
});

test('keys of other shapes are not managed keys', (t) => {
  for (const key of ['', 'uk_live_abcd1234', 'uk_live_ABCD1234_' + 'a'.repeat(32), 'uk_live_abcd1234_' + 'a'.repeat(31), 'uk_test_abcd1234_' + 'a'.repeat(32), 'test-key-0123456789abcdef', 'uk_live_abcd1234_' + 'a'.repeat(31) + '!']) {
    t.is(managedKeyId(key), undefined, key);
  }
});

test('revoke accepts an id, a prefix or the whole key', (t) => {
  const key = generateManagedKey('abcd1234');
  t.is(keyIdFromReference('abcd1234'), 'abcd1234');
  t.is(keyIdFromReference('uk_live_abcd1234'), 'abcd1234');
  t.is(keyIdFromReference(key), 'abcd1234');
  for (const reference of ['abcd123', 'ABCD1234', 'uk_live_', 'key_0123456789ab', 'test-key-0123456789abcdef']) t.is(keyIdFromReference(reference), undefined, reference);
});

test('rate specs read requests per window in s, m, h or d', (t) => {
  t.deepEqual(parseRateSpec('600/60s'), { points: 600, durationSeconds: 60 });
  t.deepEqual(parseRateSpec('60/1m'), { points: 60, durationSeconds: 60 });
  t.deepEqual(parseRateSpec('100/min'), { points: 100, durationSeconds: 60 });
  t.deepEqual(parseRateSpec('5000/1h'), { points: 5000, durationSeconds: 3600 });
  t.deepEqual(parseRateSpec(' 10 / 1d '), { points: 10, durationSeconds: 86_400 });
  for (const bad of ['', '600', '600/', '0/60s', '600/0s', '600/60', '600/2d', '-1/60s', '1.5/60s', '600/60x']) t.is(parseRateSpec(bad), undefined, bad);
  t.is(formatRateSpec({ points: 60, durationSeconds: 60 }), '60/60s');
});
