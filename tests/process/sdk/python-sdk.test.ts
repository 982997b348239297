import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { postJson, startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
/**
 * Debian's interpreter, which has the python3-discord, python3-setuptools and python3-pip that
 * `scripts/setup.sh --test` installs; a `python3` earlier on PATH (pyenv, a venv) may have none of them.
 */
const PYTHON = '/usr/bin/python3';
const USER_ID = '302050872383242240';
/** The light endpoints' budget on the limited gateway: one request per window (sdk_check.py's retries wait it out). */
const WINDOW_SECONDS = 2;

let gateway: TestGateway;
let limited: TestGateway;
let folder: string;

test.before(async () => {
  // Cards are checked for what they carry, not for speed: other tests render beside them.
  gateway = await startTestGateway({ render: true, env: { RENDER_TIMEOUT_MS: '120000' } });
  limited = await startTestGateway({ env: { RATE_LIMIT_DEFAULT: `1/${WINDOW_SECONDS}s` } });
  folder = mkdtempSync(join(tmpdir(), 'python-sdk-'));
});

test.after.always(async () => {
  await gateway?.close();
  await limited?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** What sdk_check.py prints: see that file for each part. */
interface Report {
  light: Record<string, any>;
  cards: { json: { url: string; altText: string }; webpUrl: string; bytes: { contentType: string; head: string; altText: string; url: string; frames: number | null } };
  boards: Record<string, any>;
  batch: { template: string; results: Record<string, any>[] };
  links: Record<string, any>;
  error: Record<string, any>;
  retries: { retried: { result: string; log: Attempt[] }; gaveUp: Record<string, any> & { log: Attempt[] }; atOnce: Record<string, any> & { log: Attempt[] } };
  transport: Record<string, any>;
  helper: { toDict: { id: number; filename: string; description: string }; head: string; expectedAltText: string; userToDict: { id: number; filename: string; description: string } };
  example: [{ token: string }, { content: string; file: { id: number; filename: string; description: string }; head: string }];
}
interface Attempt { status: number; retryAfter: string | null; sent: number; answered: number }

const PNG_HEAD = '89504e470d0a1a0a';

test('the Python package installs with pip offline and works end to end, with its discord.py helper and welcome bot', async (t) => {
  // A copy of the package is installed: pip builds in the source folder, and the tree must stay clean.
  const source = join(folder, 'src');
  cpSync(join(ROOT, 'sdk/python'), source, { recursive: true, filter: (path) => !['build', '__pycache__'].includes(basename(path)) && !path.endsWith('.egg-info') });
  const site = join(folder, 'site');
  await run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', '--no-deps', '--target', site, source], { env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_ROOT_USER_ACTION: 'ignore' } });

  // The core package never imports discord.py: with it made unimportable, only the helper fails.
  const withoutDiscord = await run(PYTHON, ['-c', [
    'import sys',
    'sys.modules["discord"] = None',
    'import utility_api',
    'print(utility_api.Client.__name__)',
    'try:\n    import utility_api.discord_py\nexcept ImportError as error:\n    print("helper needs discord.py")',
  ].join('\n')], { env: { ...process.env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: '1' } });
  t.is(withoutDiscord.stdout, 'Client\nhelper needs discord.py\n');

  const { stdout } = await run(PYTHON, [join(ROOT, 'tests/support/sdk/python/sdk_check.py')], {
    env: {
      ...process.env,
      PYTHONPATH: site,
      // No __pycache__ beside the check script in the tree.
      PYTHONDONTWRITEBYTECODE: '1',
      UTILITY_API_URL: gateway.url,
      UTILITY_API_KEY: TEST_API_KEY,
      LIMITED_URL: limited.url,
      EXAMPLE: join(ROOT, 'examples/discord-py-welcome.py'),
      DISCORD_TOKEN: 'not-a-real-token',
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  const report = JSON.parse(stdout) as Report;

  // The README's usage script, as written.
  const readme = readFileSync(join(ROOT, 'sdk/python/README.md'), 'utf8');
  const script = /```python\n(import asyncio\n[\s\S]*?)```/.exec(readme)?.[1];
  t.truthy(script, 'the README has the script');
  const usage = await run(PYTHON, ['-c', script!], { env: { ...process.env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: '1', UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY } });
  const [cardLine, imageLine, errorLine] = usage.stdout.trimEnd().split('\n');
  t.regex(cardLine!, /^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]+\.png Welcome card for /);
  t.regex(imageLine!, /^image\/webp \d+ Profile card for /);
  t.regex(errorLine!, /^400 invalid_request \[\{'in': 'query', 'field': 'hex'/);

  // Light endpoints.
  const { light } = report;
  t.is(light.hexToRgb, '255, 87, 51');
  t.deepEqual(light.sortArray, [1, 3, 5, 9]);
  t.is(light.jsonValid, 'valid');
  t.like(light.jsonInvalid, { status: 'invalid', jsonType: 'N/A' }, "the validator's own 400 is an answer, not an error");
  t.is(light.randomEmoji, 3);
  t.is(light.time, 1700000000);
  t.is(light.ageCalculator.slice(0, 10), '1990-05-17');
  t.true(['Heads', 'Tails'].includes(light.coinFlip));
  t.is(light.scramble, 'javascript');
  t.true(light.numberAnalyzer);
  t.is(light.account, 'acct_owner', 'GET /v1/account: a bootstrap key belongs to the local owner');
  for (const method of ['GET', 'DELETE', 'OPTIONS']) t.like(light.status[method], { method }, method);
  for (const method of ['POST', 'PUT', 'PATCH']) t.deepEqual(light.status[method], { method, body: { hello: 'world' } }, method);
  t.truthy(light.statusHead, 'HEAD answers with its headers');

  // Cards: the JSON answer, and the bytes with the alt text decoded from X-Alt-Text.
  const card = { customUsername: 'Zoë ✨', customTag: 'Welcome!', presenceStatus: 'online' };
  const expected = await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson(card));
  t.is(report.cards.json.altText, expected.body.altText);
  t.true(report.cards.json.altText.includes('Zoë ✨'));
  t.is((await fetch(report.cards.json.url)).headers.get('content-type'), 'image/png');
  t.is((await fetch(report.cards.webpUrl)).headers.get('content-type'), 'image/webp');
  t.deepEqual(report.cards.bytes, { contentType: 'image/png', head: PNG_HEAD, altText: expected.body.altText, url: expected.body.url, frames: null });

  // Leaderboards: the board is what the API draws for the same body; a leaderboard template drives one, and is refused on a profile card.
  const { boards, batch } = report;
  const rows = [{ rank: 1, name: 'Ada', level: 42, score: 98765 }, { rank: 2, name: 'Kai', level: 39, score: 90642 }];
  const design = { title: 'Top chatters', scoreLabel: 'pts', autoColorRank: true };
  const board = await gateway.json('/v1/leaderboard-image', postJson({ rows, ...design, highlight: { rank: 27, name: 'Mika', level: 9, score: 4210 } }));
  t.deepEqual(boards.plain, { url: board.body.url, altText: board.body.altText, options: board.body.options });
  t.like(boards.template, { kind: 'leaderboard', fields: design });
  const fromTemplate = await gateway.json('/v1/leaderboard-image', postJson({ rows, ...design, title: 'This week' }));
  t.is(boards.drawn.url, fromTemplate.body.url, 'the template drew the board its fields spell out');
  t.like(boards.drawn.options, { template: boards.template.id, title: 'This week', scoreLabel: 'pts' });
  t.like(boards.mismatch, { type: 'UtilityApiError', status: 422, code: 'template_kind_mismatch', details: [{ in: 'body', field: 'template' }] });
  t.deepEqual(boards.replaced, { kind: 'leaderboard', fields: { title: 'Ranks' } });

  // A batch: each card's result in order, as a single POST answers it, or its own error.
  const single = await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson(card));
  t.deepEqual(batch.results[0], single.body);
  t.like(batch.results[1]!.error, { status: 400, code: 'invalid_request', details: [{ in: 'body', field: 'cards.1.userId' }] });
  t.like(batch.results[2]!.options, { template: batch.template, layout: 'welcome', headline: 'Hi', customUsername: 'Grace' });

  // A card link: get_card_link fetches it without the key, drawn then stored; a changed link is the typed 403.
  const { links } = report;
  t.like(links.first, { contentType: 'image/png', head: PNG_HEAD, render: 'new' });
  t.regex(links.first.etag, /^"[^"]+"$/);
  t.deepEqual(links.again, { render: 'reused', etag: links.first.etag, same: true });
  const direct = await fetch(links.link);
  t.is(direct.headers.get('etag'), links.first.etag, 'what plain HTTP gets');
  t.is(direct.headers.get('content-location'), links.first.url);
  t.like(links.refused, { type: 'UtilityApiError', status: 403, code: 'card_link_invalid', attempts: 1 });

  // A refused request is the typed error with the API's JSON error.
  t.like(report.error, { type: 'UtilityApiError', status: 400, code: 'invalid_request', attempts: 1, retry_after: null });
  t.true(report.error.details.some((detail: { in: string; field: string }) => detail.in === 'query' && detail.field === 'hex'));
  t.truthy(report.error.request_id);

  // 429: retried after Retry-After; given up after the tries, and at once past the total wait.
  const { retried, gaveUp, atOnce } = report.retries;
  t.deepEqual(retried.log.map((attempt) => attempt.status), [200, 429, 200]);
  const seconds = Number(retried.log[1]!.retryAfter);
  t.true(seconds >= 1 && seconds <= WINDOW_SECONDS, `Retry-After ${retried.log[1]!.retryAfter}`);
  t.true(retried.log[2]!.sent - retried.log[1]!.answered >= seconds, 'the retry left no sooner than Retry-After said');
  t.like(gaveUp, { type: 'UtilityApiError', status: 429, code: 'rate_limited', attempts: 2 });
  t.deepEqual(gaveUp.log.map((attempt) => attempt.status), [429, 429]);
  t.like(atOnce, { status: 429, code: 'rate_limited', attempts: 1 });
  t.true(atOnce.retry_after >= 1, 'a Retry-After beyond max_total_wait (0.5 s) is not slept');
  t.deepEqual(atOnce.log.map((attempt) => attempt.status), [429]);

  // 503s and a proxy's page, from a scripted transport (the gateway cannot be made to send them on demand).
  const { transport } = report;
  t.is(transport.retried.result, 'Heads');
  t.true(transport.retried.gap >= 1, 'a 503 is retried after its Retry-After seconds');
  t.is(transport.dated.requests, 2);
  t.true(transport.dated.doneAfter >= 0, 'a Retry-After date is waited until that (whole) second');
  t.like(transport.exhausted, { status: 503, code: 'overloaded', message: 'Busy.', request_id: 'r-503', retry_after: 1, attempts: 2, requests: 2 });
  t.like(transport.noRetryAfter, { status: 503, attempts: 1, requests: 1, retry_after: null });
  t.like(transport.proxyPage, { status: 502, code: 'http_error', request_id: 'proxy-1', attempts: 1, details: [] });
  t.regex(transport.proxyPage.message, /^HTTP 502 Bad Gateway: <html>Bad gateway/);

  // discord.py: File.to_dict carries the alt text as the attachment's description; the nickname is drawn.
  t.deepEqual(report.helper.toDict, { id: 0, filename: 'card.png', description: report.helper.expectedAltText });
  t.true(report.helper.expectedAltText.includes('Zoë ✨'));
  t.is(report.helper.head, PNG_HEAD);
  t.like(report.helper.userToDict, { id: 1, filename: 'card.webp' });
  t.truthy(report.helper.userToDict.description);

  // The welcome bot as written: it logs in with the token and sends the card to the system channel.
  const [login, sent] = report.example;
  t.deepEqual(login, { token: 'not-a-real-token' });
  t.is(sent.content, `Hi <@${USER_ID}>!`);
  t.is(sent.head, PNG_HEAD);
  t.is(sent.file.filename, 'card.png');
  // The member's own objects drew it, as this discord.py knows them: Debian's 2.2 predates global
  // names, so its username (readme-examples.test.ts checks a member's avatar and a long name).
  const welcome = await gateway.json(`/v1/profile-image?userId=${USER_ID}`, postJson({
    layout: 'welcome', headline: 'Welcome, {name}!', message: 'Member #42',
    discordUser: { id: USER_ID, username: 'ada', bot: false, public_flags: 0 }, discordMember: { guild_id: '613425648685547541' },
  }));
  t.is(sent.file.description, welcome.body.altText);
  t.regex(sent.file.description, /^Welcome card for ada \(@ada\): “Welcome, ada!”/);
});

test("the Python README's welcome bot is examples/discord-py-welcome.py as tested, at most 15 lines", (t) => {
  const bot = readFileSync(join(ROOT, 'examples/discord-py-welcome.py'), 'utf8');
  const readme = readFileSync(join(ROOT, 'sdk/python/README.md'), 'utf8');
  t.true(readme.includes(`## A discord.py welcome bot`) && readme.includes(`\`\`\`python\n${bot}\`\`\``));
  t.true(bot.trimEnd().split('\n').length <= 15);
});
