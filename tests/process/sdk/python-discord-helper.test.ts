/**
 * The Python SDK's discord.py helper with discord.py's own Member, User and Role objects
 * (tests/support/sdk/python/discord_py_check.py): the objects it sends, its Components V2 message drawn by
 * the gateway, and that message as discord.py's HTTP client posted it to a stand-in Discord. The
 * payload is validated here against discord-api-types' types and discord.js's validating builders:
 * Debian's discord.py (2.2) predates Components V2 and has no objects for them to parse into.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { type APIMessageTopLevelComponent, ContainerBuilder, MessageFlags, type RESTPostAPIChannelMessageJSONBody } from 'discord.js';
import { startTestGateway, TEST_API_KEY, type TestGateway } from '../../helpers/test-gateway.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
/** Debian's interpreter with python3-discord (see python-sdk.test.ts). */
const PYTHON = '/usr/bin/python3';
const USER_ID = '302050872383242240';
const GUILD_ID = '613425648685547541';
const PNG_HEAD = '89504e470d0a1a0a';

interface Attachment { id: number; filename: string; description?: string }
interface MessageBody { flags: number; components: APIMessageTopLevelComponent[]; attachments: Attachment[] }
interface Report {
  memberObjects: Record<string, unknown>;
  userObjects: Record<string, unknown>;
  interactionObjects: Record<string, unknown>;
  newerUser: Record<string, unknown>;
  topRole: string;
  message: MessageBody;
  expected: { altText: string; accentColor: number | null };
  files: { own: Attachment; told: Attachment };
  posted: { received: { channel: string; payload: MessageBody; files: Record<string, { filename: string; head: string }> }[]; answerId: string };
}

let gateway: TestGateway;
let folder: string;

test.before(async () => {
  gateway = await startTestGateway({ render: true, env: { RENDER_TIMEOUT_MS: '120000' } });
  folder = mkdtempSync(join(tmpdir(), 'python-discord-helper-'));
});

test.after.always(async () => {
  await gateway?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The message is one Discord takes: discord-api-types' body type, discord.js's builders accept every component. */
function validate(body: MessageBody) {
  const typed: RESTPostAPIChannelMessageJSONBody = { flags: body.flags, components: body.components, attachments: body.attachments.map(({ id, filename, description }) => ({ id, filename, ...(description === undefined ? {} : { description }) })) };
  return { typed, built: body.components.map((component) => new ContainerBuilder(component as never).toJSON()) };
}

test("discord.py's member, user and interaction send their own objects; the Components V2 message is valid and is what discord.py posts", async (t) => {
  const source = join(folder, 'src');
  cpSync(join(ROOT, 'sdk/python'), source, { recursive: true, filter: (path) => !['build', '__pycache__'].includes(basename(path)) && !path.endsWith('.egg-info') });
  const site = join(folder, 'site');
  await run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-index', '--no-deps', '--target', site, source], { env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_ROOT_USER_ACTION: 'ignore' } });
  const { stdout } = await run(PYTHON, [join(ROOT, 'tests/support/sdk/python/discord_py_check.py')], {
    env: { ...process.env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: '1', UTILITY_API_URL: gateway.url, UTILITY_API_KEY: TEST_API_KEY },
    maxBuffer: 16 * 1024 * 1024,
  });
  const report = JSON.parse(stdout) as Report;

  // The API's snake_case objects, built from discord.py's attributes (Debian's 2.2 has no global_name).
  const user = { id: USER_ID, username: 'ada.codes', avatar: 'a_1f2e3d4c5b6a79881f2e3d4c5b6a7988', accent_color: 16711680, public_flags: 64, bot: false };
  t.deepEqual(report.memberObjects, {
    discordUser: user,
    discordMember: { nick: 'Countess of Lovelace', avatar: '9f8e7d6c5b4a39281f2e3d4c5b6a7988', guild_id: GUILD_ID },
    // The highest role with a colour (the top role, "plain", has none), as Discord colours the name.
    discordRoleColors: { primary_color: 0xf1c40f, secondary_color: null, tertiary_color: null },
  });
  t.is(report.topRole, 'plain');
  t.deepEqual(report.userObjects, { discordUser: user });
  t.deepEqual(report.interactionObjects, report.memberObjects, "an interaction's user is its member");
  // Attributes of later discord.py versions, by their names there.
  t.deepEqual(report.newerUser, {
    id: USER_ID, username: 'ada.codes', global_name: 'Ada', avatar: 'abc', public_flags: 0, bot: false,
    avatar_decoration_data: { asset: 'a_deco', sku_id: '1144058844004233369' },
    primary_guild: { identity_guild_id: GUILD_ID, identity_enabled: true, tag: 'ADA', badge: 'badge' },
    collectibles: { nameplate: { asset: 'nameplates/nameplates/twilight/', palette: 'cobalt', label: 'Twilight', sku_id: '1349849614353829990' } },
  });

  // The Components V2 message: flag, container tinted with X-Card-Accent, the card with its alt text, the attachment it names.
  const { message, expected } = report;
  t.is(message.flags, MessageFlags.IsComponentsV2);
  t.true(expected.accentColor !== null);
  const { built } = validate(message);
  t.deepEqual(built, [{
    type: 17,
    accent_color: expected.accentColor!,
    components: [{ type: 10, content: `Hi <@${USER_ID}>!` }, { type: 12, items: [{ media: { url: 'attachment://card.png' }, description: expected.altText }] }],
  }]);
  t.deepEqual(message.attachments, [{ id: 0, filename: 'card.png', description: expected.altText }]);
  t.regex(expected.altText, /Countess of Lovelace/, "the member's nickname is drawn");
  t.regex(report.files.own.description ?? '', /Countess of Lovelace/);
  t.regex(report.files.told.description ?? '', /card for Ada\b/, 'an explicit customUsername wins');

  // What discord.py's HTTP client sent: the same body as payload_json, the card as files[0].
  const [posted] = report.posted.received;
  t.is(report.posted.received.length, 1);
  t.is(posted!.channel, '123456789012345678');
  validate(posted!.payload);
  t.is(posted!.payload.flags, MessageFlags.IsComponentsV2);
  t.deepEqual(posted!.files, { 'files[0]': { filename: 'card.png', head: PNG_HEAD } });
  t.is(report.posted.answerId, '1');
});
