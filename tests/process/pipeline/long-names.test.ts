/**
 * The README's welcome bot sends `customUsername: member.displayName` and
 * `headline: \`Welcome, ${member.displayName}!\``: a long display name must give a card, never a 400
 * (issue 30, item 3). Through the gateway and a real render.
 */
import test from 'ava';
import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.ts';
import { SUITE_ENV, USER_ID } from '../../support/pipeline/profile-image-suite.ts';

let gateway: TestGateway;

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { ...SUITE_ENV } });
});

test.after.always(async () => {
  await gateway?.close();
});

const LONG_NAME = 'Wilhelmina Konstantinopoulou-Vanderbilt the Third of Greater Manchestershireland'.slice(0, 80);

async function postCard(body: unknown) {
  return gateway.request(`/v1/profile-image?userId=${USER_ID}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'image/png' }, body: JSON.stringify(body) });
}

for (const [label, body] of [
  ['the name written into the headline', { layout: 'welcome', customUsername: LONG_NAME, headline: `Welcome, ${LONG_NAME}!` }],
  ['the {name} placeholder', { layout: 'welcome', customUsername: LONG_NAME, headline: 'Welcome, {name}!', message: `${LONG_NAME} is member #1,234` }],
] as const) {
  test(`an 80-character display name with ${label} is a 200 PNG whose alt text names the member`, async (t) => {
    const response = await postCard(body);
    t.is(response.status, 200, await response.clone().text().catch(() => ''));
    t.is(response.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    t.true(bytes.subarray(1, 4).equals(Buffer.from('PNG')));
    const altText = decodeURIComponent((response.headers.get('x-alt-text') ?? '').replace(/^UTF-8''/, ''));
    t.true(altText.includes(`Welcome, ${LONG_NAME}!`), altText);
  });
}
