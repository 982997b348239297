// Ready-to-paste code for the card the form describes. The key is never written into a snippet:
// each reads it from the environment (UTILITY_API_KEY), so a copied snippet can be shared safely.

/**
 * @typedef {{ serverUrl: string, path: string, parameters: Record<string, string>, body: Record<string, unknown> }} CardCall
 */

/** The image type the preview and the snippets ask for: `format` if given; animated cards move as WebP. */
export function imageTypeFor(/** @type {Record<string, unknown>} */ body) {
  if (typeof body.format === 'string' && body.format !== '') return `image/${body.format}`;
  return body.animated === true ? 'image/webp' : 'image/png';
}

const extensionOf = (/** @type {Record<string, unknown>} */ body) => imageTypeFor(body).slice('image/'.length);

/** A word bash passes through unchanged: single quotes, each inner quote closed, escaped and reopened. */
function shellQuote(/** @type {string} */ text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A JavaScript string literal in single quotes. */
function jsString(/** @type {string} */ text) {
  return `'${JSON.stringify(text).slice(1, -1).replaceAll("\\\"", '"').replaceAll("'", "\\'")}'`;
}

/**
 * A Python literal for a JSON value. JSON's string escapes (\n, \", \\, \uXXXX) mean the same in
 * Python, so strings are JSON's; only true/false/null are spelled differently.
 * @param {unknown} value
 * @param {string} indent
 * @returns {string}
 */
function pythonLiteral(value, indent = '') {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(/** @type {Record<string, unknown>} */ (value));
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

/** @param {CardCall} call */
function curl(call) {
  const query = new URLSearchParams(call.parameters).toString();
  const extension = extensionOf(call.body);
  // A quoted heredoc passes the JSON byte for byte: no quoting of the user's texts can go wrong.
  return [
    '# bash or zsh; your key from the environment: export UTILITY_API_KEY=...',
    `curl -sS --fail-with-body -X POST ${shellQuote(`${call.serverUrl}${call.path}${query ? `?${query}` : ''}`)} \\`,
    '  -H "Authorization: $UTILITY_API_KEY" \\',
    "  -H 'Content-Type: application/json' \\",
    `  -H ${shellQuote(`Accept: ${imageTypeFor(call.body)}`)} \\`,
    `  -o card.${extension} --data-binary @- <<'JSON'`,
    JSON.stringify(call.body, null, 2),
    'JSON',
  ].join('\n');
}

/** @param {CardCall} call */
function discordJs(call) {
  const extension = extensionOf(call.body);
  // Pretty JSON is a JavaScript literal; keys that are plain identifiers lose their quotes, as
  // people write them. (Only whole keys at a line's start match: string values are escaped JSON.)
  const options = JSON.stringify(call.body, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:');
  return `// discord.js v14 on Node.js 18 or later (fetch is built in). Save as bot.mjs, then:
//   npm install discord.js
//   DISCORD_TOKEN=... UTILITY_API_KEY=... node bot.mjs
// Turn on the Server Members intent for your bot in the Discord developer portal.
import { AttachmentBuilder, Client, Events, GatewayIntentBits } from 'discord.js';

const CARD_URL = ${jsString(`${call.serverUrl}${call.path}`)};
const CARD_OPTIONS = ${options};

const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers] });

client.on(Events.GuildMemberAdd, async (member) => {
  const response = await fetch(\`\${CARD_URL}?userId=\${member.id}\`, {
    method: 'POST',
    headers: {
      Authorization: process.env.UTILITY_API_KEY,
      'Content-Type': 'application/json',
      Accept: ${jsString(imageTypeFor(call.body))},
    },
    body: JSON.stringify(CARD_OPTIONS),
  });
  if (!response.ok) {
    console.error('The card failed:', response.status, await response.text());
    return;
  }
  // The alt text comes as an RFC 8187 value (UTF-8'' then percent-encoded text): screen readers say it.
  const altText = decodeURIComponent((response.headers.get('x-alt-text') ?? '').replace(/^UTF-8''/, ''));
  const card = new AttachmentBuilder(Buffer.from(await response.arrayBuffer()), { name: ${jsString(`card.${extension}`)}, description: altText });
  await member.guild.systemChannel?.send({ content: \`Welcome to \${member.guild.name}, \${member}!\`, files: [card] });
});

client.once(Events.ClientReady, (ready) => console.log(\`Logged in as \${ready.user.tag}\`));
await client.login(process.env.DISCORD_TOKEN);
`;
}

/** @param {CardCall} call */
function discordPy(call) {
  const extension = extensionOf(call.body);
  return `# discord.py 2.x on Python 3.9 or later. Save as bot.py, then:
#   pip install discord.py aiohttp
#   DISCORD_TOKEN=... UTILITY_API_KEY=... python3 bot.py
# Turn on the Server Members intent for your bot in the Discord developer portal.
import io
import os
from urllib.parse import unquote

import aiohttp
import discord

CARD_URL = ${JSON.stringify(`${call.serverUrl}${call.path}`)}
CARD_OPTIONS = ${pythonLiteral(call.body)}

intents = discord.Intents.default()
intents.members = True
client = discord.Client(intents=intents)


@client.event
async def on_member_join(member: discord.Member):
    headers = {"Authorization": os.environ["UTILITY_API_KEY"], "Accept": ${JSON.stringify(imageTypeFor(call.body))}}
    async with aiohttp.ClientSession() as session:
        async with session.post(CARD_URL, params={"userId": str(member.id)}, json=CARD_OPTIONS, headers=headers) as response:
            if response.status != 200:
                print("The card failed:", response.status, await response.text())
                return
            image = await response.read()
            # The alt text comes as an RFC 8187 value (UTF-8'' then percent-encoded text): screen readers say it.
            alt_text = unquote(response.headers.get("X-Alt-Text", "").removeprefix("UTF-8''"))
    channel = member.guild.system_channel
    if channel is not None:
        card = discord.File(io.BytesIO(image), filename=${JSON.stringify(`card.${extension}`)}, description=alt_text)
        await channel.send(f"Welcome to {member.guild.name}, {member.mention}!", file=card)


client.run(os.environ["DISCORD_TOKEN"])
`;
}

/** The snippets by tab, each with a line saying what it needs. */
export const SNIPPETS = {
  curl: { build: curl, note: 'Writes the card to a file. On an error the file holds the API\u2019s JSON error and curl exits with 22.' },
  'discord-js': { build: discordJs, note: 'Posts the card in the server\u2019s system channel when a member joins; the user id is the member\u2019s.' },
  'discord-py': { build: discordPy, note: 'Posts the card in the server\u2019s system channel when a member joins; the user id is the member\u2019s.' },
  json: { build: (/** @type {CardCall} */ call) => JSON.stringify(call.body, null, 2), note: 'The request body the preview sends.' },
};
