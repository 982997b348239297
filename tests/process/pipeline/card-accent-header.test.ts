/**
 * `X-Card-Accent`: the card's accent as `#rrggbb` on JSON and image answers, the colour the card's
 * border is drawn from (what the SDKs' Components V2 helpers tint their container with).
 */
import { parseHexColor } from '@utility-api/render-jobs';
import test from 'ava';
import { lighten } from '../../../packages/card/src/color/color.ts';
import { BORDER, CARD } from '../../../packages/card/src/layout/card-layout.ts';
import { solidPng } from '../../fixtures/images.ts';
import { postJson, startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { png, startImageServer, type ImageServer } from '../../support/pipeline/image-server.ts';
import { decodePng } from '../../support/pipeline/png-pixels.ts';
import { SUITE_ENV, USER_ID } from '../../support/pipeline/profile-image-suite.ts';

let gateway: TestGateway;
let images: ImageServer;

test.before(async () => {
  images = await startImageServer({ '/red.png': png(solidPng(128, 128, '#d0312d')), '/blue.png': png(solidPng(128, 128, '#1f5fd6')) });
  gateway = await startTestGateway({ render: true, env: { ...SUITE_ENV, FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
});

test.after.always(async () => {
  await gateway?.close();
  await images?.close();
});

async function card(body: unknown, accept?: string) {
  const response = await gateway.request(`/v1/profile-image/${USER_ID}`, postJson(body, { headers: accept === undefined ? {} : { accept } }));
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, accent: response.headers.get('x-card-accent'), bytes };
}

test('JSON and image answers carry the accent the border is drawn from, per avatar, and a reused card carries it too', async (t) => {
  const accents = new Set<string>();
  for (const avatar of ['red', 'blue']) {
    const body = { customTag: 'accent', customAvatar: `${images.url}/${avatar}.png` };
    const image = await card(body, 'image/png');
    t.is(image.status, 200);
    t.regex(image.accent ?? '', /^#[0-9a-f]{6}$/);
    // The border's straight top edge, mid-card: the accent lightened by 0.15 (scene.ts), no anti-aliasing there.
    const border = decodePng(image.bytes).at(CARD.width / 2, Math.floor(BORDER.width / 2));
    const expected = lighten(parseHexColor(image.accent!), 0.15);
    for (const channel of ['r', 'g', 'b'] as const) t.true(Math.abs(border[channel] - expected[channel]) <= 2, `${avatar} ${channel}: drawn ${border[channel]}, from the header ${expected[channel]}`);
    const json = await card(body);
    t.is(json.status, 200);
    t.is(json.accent, image.accent, 'the JSON answer says the same');
    const reused = await card(body, 'image/png');
    t.is(reused.accent, image.accent, 'a reused render says the same');
    accents.add(image.accent!);
  }
  t.is(accents.size, 2, 'two avatars give two colours, each told');
});

test('the accent header is documented on the profile-image answer', async (t) => {
  const document = await gateway.json('/v1/openapi.json');
  const headers = (document.body as { paths: Record<string, { post: { responses: Record<string, { headers?: Record<string, { description: string; schema: { pattern?: string } }> }> } }> }).paths['/v1/profile-image']!.post.responses['200']!.headers!;
  t.regex(headers['X-Card-Accent']!.description, /accent_color/);
  t.is(headers['X-Card-Accent']!.schema.pattern, '^#[0-9a-f]{6}$');
});
