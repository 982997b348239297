import { randomUUID } from 'node:crypto';
import { isMediaKey, mediaObjectName, parseMediaName } from '@utility-api/render-jobs';
import test from 'ava';
import fc from 'fast-check';

test('accepts lowercase canonical UUIDs of any version', (t) => {
  t.true(isMediaKey('00000000-0000-0000-0000-000000000000'));
  t.true(isMediaKey('0f8fad5b-d9cb-469f-a165-70867728950e'));
  t.true(isMediaKey('6ba7b810-9dad-11d1-80b4-00c04fd430c8'));
  fc.assert(fc.property(fc.uuid(), (uuid) => isMediaKey(uuid)));
  for (let i = 0; i < 100; i += 1) t.true(isMediaKey(randomUUID()));
});

test('refuses anything else, including near misses', (t) => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  for (const text of [
    '',
    'ABC',
    uuid.toUpperCase(),
    'x.png',
    `${uuid}.png`,
    `${uuid}\n`,
    `\n${uuid}`,
    ` ${uuid}`,
    `${uuid} `,
    `{${uuid}}`,
    `urn:uuid:${uuid}`,
    uuid.replaceAll('-', ''),
    uuid.slice(0, -1),
    `${uuid}0`,
    uuid.replace('-', '_'),
    '0f8fad5b-d9cb-469f-a165-70867728950g',
    '../etc/passwd',
    `../${uuid}`,
    `${uuid.slice(0, 8)}/${uuid.slice(9)}`,
  ]) {
    t.false(isMediaKey(text), JSON.stringify(text));
  }
});

test('any string with a character outside [0-9a-f-] is refused', (t) => {
  fc.assert(
    fc.property(fc.uuid(), fc.nat(35), fc.string({ minLength: 1, maxLength: 1 }), (uuid, index, character) => {
      fc.pre(!/[0-9a-f-]/.test(character));
      return !isMediaKey(uuid.slice(0, index) + character + uuid.slice(index + 1));
    }),
  );
  t.pass();
});

test('objects are named <key>.<format>, PNG by default', (t) => {
  t.is(mediaObjectName('0f8fad5b-d9cb-469f-a165-70867728950e'), '0f8fad5b-d9cb-469f-a165-70867728950e.png');
  t.is(mediaObjectName('0f8fad5b-d9cb-469f-a165-70867728950e', 'webp'), '0f8fad5b-d9cb-469f-a165-70867728950e.webp');
});

test('a media name is <key>.<png|webp|avif|gif> and nothing else: sweeper, /media and the job result read it the same way', (t) => {
  const key = '0f8fad5b-d9cb-469f-a165-70867728950e';
  for (const format of ['png', 'webp', 'avif', 'gif'] as const) t.deepEqual(parseMediaName(mediaObjectName(key, format)), { key, format });
  for (const name of [`${key}.PNG`, `${key}.png.png`, `../${key}.png`, key, `${key.toUpperCase()}.png`, '.png', `${key}.png.tmp`, `${key}.jpg`, `${key}.WEBP`, `${key}.`, `${key}.webp.png.x`, `${key}.constructor`]) {
    t.is(parseMediaName(name), undefined, name);
  }
});
