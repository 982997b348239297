import fc from 'fast-check';

/**
 * Generators of hostile HTTP input. Everything stays within what Node's HTTP parser accepts (ASCII
 * request targets under its 16 KB header limit, latin1 header values): past that Node answers
 * before the gateway sees the request, which is not what these tests are about.
 */

const utf8 = new TextEncoder();

/** Every byte outside unreserved characters percent-encoded; lone surrogates become U+FFFD. */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const byte of utf8.encode(text)) {
    const character = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Printable ASCII left raw (`&`, `=`, `%`, `#`, `+` included), the rest percent-encoded. */
export function looseEncode(text: string): string {
  let encoded = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    encoded += code >= 0x21 && code <= 0x7e ? character : percentEncode(character);
  }
  return encoded;
}

/** Broken escapes: `%` alone, `%Z`, truncated UTF-8 sequences, overlong encodings, NUL. */
export const percentGarbage = fc.oneof(
  fc.constantFrom('%', '%%', '%Z', '%ZZ', '%E0%A4%A', '%E0%A4', '%FF', '%C0%AF', '%ED%A0%80', '%00', '%uFFFF', '%2', '%%41'),
  fc.tuple(fc.constantFrom('%'), fc.string({ unit: fc.constantFrom(...'0123456789abcdefxyzXYZ%'), maxLength: 3 })).map(([a, b]) => a + b),
);

/** Values chosen to sit on parsers' edges: numbers, dates, booleans, colours, names, scripts. */
export const edgeValue = fc.constantFrom(
  '', ' ', '+', '-', '.', '0', '-0', '+0', '00', '1.', '.5', '1e3', '1E+2', '1e309', '-1e309', '1e-400', '0x1F', '0b1', '0o7',
  'NaN', '-NaN', 'Infinity', '-Infinity', '9007199254740991', '9007199254740993', '-9007199254740993', '1'.repeat(400),
  '٣', '١٢٣', '𝟙𝟚', '１２', 'true', 'TRUE', 'false', 'null', 'undefined', '[]', '{}', '[object Object]',
  '#fff', '#FF5733', 'FF5733', '#ff573380', 'GGG', 'EST', 'est', 'PST', 'cet', 'UTC', 'Food & Drink', 'food-drink', 'Symbols',
  'high', 'LOW', 'High', '2000-02-29', '2001-02-29', '2000-2-30', '0000-01-01', '0001-01-01', '9999-12-31', '2024-06-15',
  '2024-06-16', '1900-01-01', '-2208988800', '32503680000', '32503680001', '1700000000000', '100', '100.0', '50.5', '101',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  '👩‍👩‍👧', 'a\u0301', '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', '\u202e', '\u200b', '\u00ad', '\u0000', '\t', '\r\n',
  'ﷺ', 'ß', 'İ', '\ud800', '\udfff', 'aaa', 'ab', 'Zürich',
);

const numericText = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.integer({ min: -100, max: 200 }).map(String),
);

/** Long values: ASCII up to 6000 characters, multi-byte ones shorter so the URL stays under Node's limit. */
const longValue = fc.oneof(
  fc.tuple(fc.constantFrom('a', '9', 'A', '-'), fc.integer({ min: 65, max: 6000 })).map(([unit, count]) => unit.repeat(count)),
  fc.tuple(fc.constantFrom('é', '👍', '👩‍👩‍👧', 'a\u0301'), fc.integer({ min: 10, max: 120 })).map(([unit, count]) => unit.repeat(count)),
);

export const queryValue = fc.oneof(
  { weight: 4, arbitrary: edgeValue },
  { weight: 3, arbitrary: numericText },
  { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: longValue },
);

const queryName = (knownNames: readonly string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: knownNames.length > 0 ? fc.constantFrom(...knownNames) : fc.constant('x') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'key', 'apiKey', 'api_key', 'authorization', '', 'a[b]', 'a[]') },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );

/** One `name=value` pair as it may appear on the wire, encoded properly or not. */
const queryPair = (knownNames: readonly string[]) =>
  fc
    .record({
      name: queryName(knownNames),
      value: queryValue,
      encoding: fc.constantFrom('strict', 'strict', 'loose', 'garbage', 'bare'),
      garbage: percentGarbage,
    })
    .map(({ name, value, encoding, garbage }) => {
      const encodedName = percentEncode(name);
      switch (encoding) {
        case 'strict':
          return `${encodedName}=${percentEncode(value)}`;
        case 'loose':
          return `${encodedName}=${looseEncode(value)}`;
        case 'garbage':
          return `${encodedName}=${percentEncode(value)}${garbage}`;
        default:
          return encodedName;
      }
    });

/** Node refuses request lines and headers past 16 KB with its own 431; queries stay under half. */
const MAX_QUERY_LENGTH = 8_000;

/** The first parts whose joined length fits: at least one part is dropped rather than cut. */
function keepWithin(parts: readonly string[], limit: number): string[] {
  const kept: string[] = [];
  let length = 0;
  for (const part of parts) {
    if (length + part.length + 1 > limit) break;
    kept.push(part);
    length += part.length + 1;
  }
  return kept;
}

/**
 * A query string (with its `?`, or empty) for an endpoint reading `knownNames`: mostly its own
 * parameters, repeated at times, with unknown ones, garbage escapes and unicode mixed in.
 */
export function queryString(knownNames: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(queryPair(knownNames), { maxLength: 6 }), fc.constantFrom('&', '&', '&', '&&', ';'), fc.boolean())
    .map(([pairs, separator, trailing]) => {
      const kept = keepWithin(pairs, MAX_QUERY_LENGTH);
      return kept.length === 0 ? (trailing ? '?' : '') : `?${kept.join(separator)}${trailing ? separator : ''}`;
    });
}

/** Object keys that have broken JavaScript services before. */
export const hostileKey = fc.constantFrom(
  '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'then', 'length', '', ' ', '0',
);

const jsonKey = fc.oneof(
  { weight: 2, arbitrary: hostileKey },
  { weight: 3, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);

/** Number literals JSON allows but JavaScript bends: overflow to Infinity, -0, beyond 2^53, tiny. */
const numberLiteral = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.integer().map(String),
  fc.constantFrom('1e400', '-1e400', '1e-400', '-0', '0.0', '-0.0e0', '1E+308', '4.9e-324', '123456789012345678901234567890', '9007199254740993', '0e0'),
);

const stringLiteral = fc
  .oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 10 }),
    edgeValue,
    fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', ' 1 ', '{"a":1}', '[1,2', '"'),
  )
  .map((text) => JSON.stringify(text));

const scalarLiteral = fc.oneof(numberLiteral, stringLiteral, fc.constantFrom('true', 'false', 'null'));

/**
 * JSON text built as text, so it can hold what JSON.stringify never writes: duplicate keys,
 * `__proto__` keys, numbers that overflow, `-0`.
 */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalarLiteral, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(jsonKey, tie('value')), { maxLength: 6 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
})).value;

/** An array or object nested `depth` levels, around the documented limit of 32 and far past it. */
export const deepJsonText = fc
  .tuple(fc.oneof(fc.integer({ min: 28, max: 36 }), fc.integer({ min: 1, max: 3000 })), fc.constantFrom('array', 'object', 'mixed'), fc.constantFrom('', '1', '"x"', 'null'))
  .map(([depth, shape, inner]) => {
    if (shape === 'array') return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
    if (shape === 'object') return `${'{"a":'.repeat(depth)}${inner || 'null'}${'}'.repeat(depth)}`;
    const open = Array.from({ length: depth }, (_, index) => (index % 2 === 0 ? '[' : '{"k":'));
    const close = open.map((token) => (token === '[' ? ']' : '}')).reverse();
    return `${open.join('')}${inner || 'null'}${close.join('')}`;
  });

/** Arrays with many elements: around the 10 000-number cap of sort-array, and mixed. */
export const wideJsonText = fc
  .tuple(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 9_990, max: 10_010 }), fc.integer({ min: 0, max: 30_000 })), numberLiteral)
  .map(([count, element]) => `[${Array.from({ length: count }, () => element).join(',')}]`);

/** Text that is not JSON: truncated, commented, single-quoted, a BOM, bare words, binary. */
export const brokenJsonText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  jsonText.map((text) => text.slice(0, Math.max(0, text.length - 1))),
  jsonText.map((text) => `\uFEFF${text}`),
  jsonText.map((text) => `${text} trailing`),
  fc.constantFrom('', ' ', 'NaN', 'Infinity', '{a:1}', "{'a':1}", '{"a":1,}', '[1,]', '{"a":1} // c', '/* c */ {}', '{"a":"\\x41"}', '"\\ud800"', '{"a":1}{"b":2}', '\u0000'),
);

/** A body of just over 1 MB. */
export const oversizedJsonText = fc.constantFrom('array', 'string').map((shape) =>
  shape === 'array' ? `[${'1,'.repeat(524_300)}1]` : JSON.stringify({ x: 'x'.repeat(1024 * 1024) }),
);

/**
 * An object text for an endpoint whose body has `fieldNames`: its own fields with arbitrary values,
 * plus hostile and unknown keys now and then.
 */
export function bodyText(fieldNames: readonly string[], fieldValue: fc.Arbitrary<string> = jsonText): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fieldNames) }, { weight: 1, arbitrary: jsonKey });
  return fc
    .array(fc.tuple(key, fc.oneof(fieldValue, deepJsonText, wideJsonText)), { maxLength: 4 })
    .map((entries) => `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`);
}

/** Any body at all, weighted towards plausible objects. */
export function anyBody(fieldNames: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: bodyText(fieldNames) },
    { weight: 2, arbitrary: jsonText },
    { weight: 1, arbitrary: deepJsonText },
    { weight: 1, arbitrary: wideJsonText },
    { weight: 2, arbitrary: brokenJsonText },
    { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":1}}', '{"a":{"__proto__":{"polluted":1}}}', '{"constructor":{"prototype":{"polluted":1}}}', '[{"__proto__":[]}]') },
  );
}

/** Content types: JSON in its spellings, near misses, other types, garbage, none. */
export const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json;charset=UTF-8',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset=bogus',
    'application/vnd.api+json',
    'application/ld+json',
    'application/json, text/plain',
    'text/json',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    'application/xml',
    '*/*',
    'application/*',
    'json',
    ';;;',
    '',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
);

/** Drops what node:http refuses in a header value: controls other than tab, and DEL. */
function withoutControlCharacters(text: string): string {
  return [...text].filter((character) => character === '\t' || (character >= ' ' && character !== '\x7f')).join('');
}

/** Keys of the caller and near misses, in every way the header can be written. */
export function authorizationValue(validKey: string): fc.Arbitrary<string | string[]> {
  const single = fc.oneof(
    fc.constantFrom(
      validKey,
      `Bearer ${validKey}`,
      `bearer ${validKey}`,
      `BEARER\t${validKey}`,
      `Bearer  ${validKey}`,
      `  ${validKey}  `,
      `Bearer ${validKey} extra`,
      `Basic ${Buffer.from(`user:${validKey}`).toString('base64')}`,
      `Token ${validKey}`,
      `${validKey}x`,
      validKey.slice(0, -1),
      validKey.toUpperCase(),
      'Bearer',
      'Bearer ',
      '',
      ' ',
      `${validKey},${validKey}`,
      `${validKey}\u00e9`,
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
    fc.string({ unit: 'binary-ascii', maxLength: 20 }).map(withoutControlCharacters),
    fc.integer({ min: 200, max: 8_000 }).map((length) => 'k'.repeat(length)),
  );
  return fc.oneof({ weight: 4, arbitrary: single }, { weight: 1, arbitrary: fc.array(single, { minLength: 2, maxLength: 3 }) });
}

/** Other headers: names the gateway reads or echoes, with odd, repeated and large values. */
export const extraHeaders = fc.dictionary(
  fc.constantFrom('x-request-id', 'accept', 'accept-encoding', 'cookie', 'x-api-key', 'proxy-authorization', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'origin', 'referer', 'user-agent', 'if-none-match', 'range', 'x-custom'),
  fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
    fc.constantFrom('', '*', 'gzip, br', 'bytes=0-10', 'https', 'https, http', '1.2.3.4, 5.6.7.8', 'null', 'a b<script>', 'x'.repeat(64), 'x'.repeat(65)),
    fc.integer({ min: 1000, max: 4000 }).map((length) => 'h'.repeat(length)),
    fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), { minLength: 2, maxLength: 3 }),
  ),
  { maxKeys: 4 },
);

/** Node answers a request line plus headers past 16 KB itself (431); stay well inside it. */
const MAX_HEAD_BYTES = 14_000;

/**
 * Whether node:http will send these headers (it refuses control characters) and Node's server
 * will pass the request on to the gateway (the size limit).
 */
export function sendable(path: string, headers: Record<string, string | string[]>): boolean {
  let bytes = path.length;
  for (const [name, value] of Object.entries(headers)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (withoutControlCharacters(part) !== part || [...part].some((character) => character > '\xff')) return false;
      bytes += name.length + part.length + 4;
    }
  }
  return bytes < MAX_HEAD_BYTES;
}
