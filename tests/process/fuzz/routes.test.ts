import test from 'ava';
import fc from 'fast-check';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { extraHeaders, looseEncode, percentEncode, percentGarbage, queryString, sendable } from '../../support/fuzz/support/arbitraries.ts';
import { fuzzParameters, startFuzzTarget, type FuzzTarget } from '../../support/fuzz/support/fuzz-target.ts';
import { documentedMethods } from '../../support/fuzz/support/operations.ts';

let target: FuzzTarget;
/** A card rendered once, so conditional and odd requests can be thrown at a real image. */
let mediaPath: string;
let mediaEtag: string;
let mediaLength: number;
test.before(async () => {
  target = await startFuzzTarget({ RENDER_WORKERS: '1' }, { render: true });
  const rendered = await target.client.send({
    method: 'POST',
    path: '/v1/profile-image?userId=302050872383242240',
    headers: { authorization: TEST_API_KEY, 'content-type': 'application/json' },
    body: '{"customTag":"fuzz"}',
  });
  const { url } = JSON.parse(rendered.body.toString('utf8')) as { url: string };
  mediaPath = new URL(url).pathname;
  const image = await target.client.send({ method: 'GET', path: mediaPath });
  mediaEtag = String(image.headers.etag);
  mediaLength = image.body.length;
});
test.after.always(async () => {
  await target?.close();
});

/** Methods Node's parser knows, the router's seven and WebDAV's and others it does not route. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'MKCOL', 'LOCK', 'SEARCH', 'COPY', 'MOVE', 'REPORT'] as const;
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const authorization = fc.constantFrom<Record<string, string>>({}, { authorization: TEST_API_KEY }, { authorization: 'not-a-key-at-all-0000' });

const segment = fc.oneof(
  fc.string({ maxLength: 12 }).map(percentEncode),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map(looseEncode),
  percentGarbage,
  fc.constantFrom('..', '.', '%2e%2e', '%2F', '%5C', 'v1', 'time', 'docs', 'media', '', 'openapi.json', 'profile-image', '302050872383242240', '%00', ';x=1'),
);

/**
 * Paths no route serves: a first segment starting `zz` under prefixes that look like real ones
 * (`/v1/time/`, `/media/a/`, `/V1/`), then arbitrary segments, dot segments and escapes.
 */
const unknownPath = fc
  .tuple(
    fc.constantFrom('/', '/v1/', '/v2/', '/V1/', '/api/', '/v1/time/', '/v1/status/', '/v1/sort-array/', '/v1/profile-image/302050872383242240/', '/docs/', '/media/a/', '/v1/openapi.json/'),
    segment,
    fc.array(segment, { maxLength: 3 }),
    queryString(['userId', 'hex', 'word']),
  )
  .map(([prefix, first, rest, query]) => `${prefix}zz${first}${rest.map((part) => `/${part}`).join('')}${query}`);

test('unknown paths are a JSON 404 with the security headers, for every method', async (t) => {
  await fc.assert(
    fc.asyncProperty(unknownPath, fc.constantFrom(...METHODS), authorization, async (path, method, auth) => {
      await target.exchange({ method, path, headers: auth }, { kind: 'api', statuses: [404] });
    }),
    fuzzParameters(t, 300),
  );
  t.pass();
});

/** Concrete paths of every route: the documented operations, the docs, a media name. */
function knownPaths(): { path: string; template: string }[] {
  const documented = Object.keys(target.contract.document.paths).map((template) => ({
    template,
    path: template.replace('{userId}', '302050872383242240').replace('{id}', 'tpl_000000000000'),
  }));
  return [...documented, { template: '/docs', path: '/docs' }, { template: '/v1/openapi.json', path: '/v1/openapi.json' }, { template: '/media/{file}', path: mediaPath }];
}

function allowedMethods(template: string): string[] {
  const methods = template.startsWith('/v1/') && template !== '/v1/openapi.json' ? documentedMethods(target.contract, template) : ['GET'];
  return methods.includes('GET') ? [...new Set([...methods, 'HEAD'])] : methods;
}

test('a wrong method on a real path is a JSON 405 listing the allowed methods in Allow', async (t) => {
  const wrongMethod = fc
    .tuple(fc.constantFrom(...knownPaths()), fc.constantFrom(...METHODS), authorization, fc.boolean())
    .filter(([route, method]) => !allowedMethods(route.template).includes(method));
  await fc.assert(
    fc.asyncProperty(wrongMethod, async ([route, method, auth, withBody]) => {
      const body = withBody && method !== 'TRACE' ? '{"array":[1]}' : undefined;
      // OPTIONS on a path without it: on a keyed path it needs the key (401 without it, 204 with
      // Allow); on a public path the router answers 200 with Allow. A wrong key may also be a 429 once
      // the address has guessed too often.
      // A signed card link is public too: the link, not a key, is its credential.
      const keyedOptions = method === 'OPTIONS' && route.template.startsWith('/v1/') && route.template !== '/v1/openapi.json' && route.template !== '/v1/card-link';
      const statuses = method !== 'OPTIONS' ? [405] : !keyedOptions ? [200] : auth.authorization === TEST_API_KEY ? [204] : [401, 429];
      const response = await target.exchange(
        { method, path: route.path, headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body } : {}) },
        { kind: 'api', statuses },
      );
      if (response.status === 401 || response.status === 429) return;
      const allow = String(response.headers.allow ?? '').split(/,\s*/);
      for (const allowed of allowedMethods(route.template)) {
        if (!allow.includes(allowed)) throw new Error(`Allow "${String(response.headers.allow)}" lacks ${allowed} for ${route.path}`);
      }
      if (ROUTED_METHODS.has(method) && allow.includes(method) && !keyedOptions) throw new Error(`Allow lists the refused ${method}`);
    }),
    fuzzParameters(t, 200),
  );
  t.pass();
});

const uuid = fc.uuid({ version: 4 });
const mediaName = fc.oneof(
  uuid.map((id) => `${id}.png`),
  uuid.map((id) => `${id.toUpperCase()}.png`),
  uuid.map((id) => `${id}.PNG`),
  uuid.map((id) => `${id}.jpg`),
  uuid,
  uuid.map((id) => `${id}.png.png`),
  fc.string({ maxLength: 40 }).map(percentEncode),
  fc.constantFrom('..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f', '..', '.png', '%00.png', 'index.html', '*', '%', 'a%2Fb.png', '%252e%252e'),
);

test('any other /media name is a JSON 404, never cached or embeddable like an image', async (t) => {
  await fc.assert(
    fc.asyncProperty(mediaName, fc.constantFrom('GET', 'HEAD'), extraHeaders, async (name, method, others) => {
      if (!sendable(`/media/${name}`, others)) return;
      await target.exchange({ method, path: `/media/${name}`, headers: others }, { kind: 'media', statuses: [404] });
    }),
    fuzzParameters(t, 200),
  );
  t.pass();
});

test('a real image answers 200 or 304 to any conditional or odd header, with image headers', async (t) => {
  const conditional = fc.record(
    {
      'if-none-match': fc.oneof(
        fc.constantFrom(mediaEtag, `W/${mediaEtag}`, '*', `"other", ${mediaEtag}`, '"other"', '', 'garbage', mediaEtag.replaceAll('"', '')),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
      ),
      'if-modified-since': fc.oneof(fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()), fc.constantFrom('garbage', '', 'Thu, 01 Jan 1970 00:00:00 GMT')),
      range: fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=999999999-', 'lines=1-2', 'bytes=0-0,5-6'),
      accept: fc.constantFrom('image/png', 'text/html', '*/*', 'application/json', ''),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*'),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(conditional, fc.constantFrom('GET', 'HEAD'), queryString(['v', 'w']), async (headers, method, query) => {
      const response = await target.exchange({ method, path: `${mediaPath}${query}`, headers }, { kind: 'media', statuses: [200, 304] });
      if (response.status === 200 && method === 'GET') {
        if (response.body.length !== mediaLength || !response.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
          throw new Error(`the image came back with ${response.body.length} bytes`);
        }
      }
      if (response.headers.etag !== mediaEtag) throw new Error(`ETag ${String(response.headers.etag)}`);
    }),
    fuzzParameters(t, 150),
  );
  t.pass();
});

test('/docs and /v1/openapi.json answer any query and headers with their own caching and CSP', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('/docs', '/v1/openapi.json'),
      fc.constantFrom('GET', 'HEAD'),
      queryString(['v', 'format', 'url']),
      extraHeaders,
      authorization,
      async (path, method, query, others, auth) => {
        const headers = { ...others, ...auth };
        if (!sendable(`${path}${query}`, headers)) return;
        // `If-None-Match: *` matches any current representation (RFC 9110 13.1.2): a 304 is right for it.
        const statuses = (headers as Record<string, unknown>)['if-none-match'] === '*' ? [200, 304] : [200];
        await target.exchange({ method, path: `${path}${query}`, headers }, { kind: path === '/docs' ? 'docs' : 'openapi', statuses });
      },
    ),
    fuzzParameters(t, 100),
  );
  t.pass();
});
