// Ready-to-paste code for the card the form describes. The key is never written into a snippet:
// each reads it from the environment (UTILITY_API_KEY), so a copied snippet can be shared safely.

/**
 * @typedef {{ serverUrl: string, path: string, parameters: Record<string, string>, body: Record<string, unknown>, kind?: 'profile' | 'leaderboard' }} CardCall
 */

const isLeaderboard = (/** @type {CardCall} */ call) => call.kind === 'leaderboard';

/** The image type the preview and the snippets ask for: `format` if given; animated cards move as WebP. */
export function imageTypeFor(/** @type {Record<string, unknown>} */ body) {
  if (typeof body.format === 'string' && body.format !== '') return `image/${body.format}`;
  return body.animated === true ? 'image/webp' : 'image/png';
}

/** Fields one layout draws and the other ignores; the form greys them out, the snippets leave them out. */
export const DRAWN_ONLY_IN_LAYOUT = {
  headline: ['welcome', 'welcome-tall', 'levelup'],
  message: ['welcome', 'welcome-tall', 'levelup'],
  rankData: ['profile', 'levelup'],
};

/** The welcome layouts: the 3:1 banner and the 16:9 tall card; a bot sends either when a member joins or leaves. */
const WELCOME_LAYOUTS = ['welcome', 'welcome-tall'];

/**
 * The member's own fields: a bot snippet sends the member's Discord objects instead (its name,
 * avatars and role colours, read by the API without a bot token), never the sample the form shows.
 */
const MEMBER_OWN_FIELDS = ['customUsername', 'customAvatar', 'discordUser', 'discordMember', 'discordRoleColors'];

/** The design a bot snippet sends for every member: the drawn fields less the member's own. */
const botOptions = (/** @type {Record<string, unknown>} */ body) => Object.fromEntries(Object.entries(drawnFields(body)).filter(([name]) => !MEMBER_OWN_FIELDS.includes(name)));

/** The layout a body draws: the one it names, else `profile` (the API's default). */
const layoutOf = (/** @type {Record<string, unknown>} */ body) => (typeof body.layout === 'string' ? body.layout : 'profile');

/**
 * The body without the fields its layout does not draw: a snippet carries only what shapes the card.
 * @param {Record<string, unknown>} body
 */
function drawnFields(body) {
  const layout = layoutOf(body);
  return Object.fromEntries(Object.entries(body).filter(([name]) => {
    const onlyIn = /** @type {Record<string, string[]>} */ (DRAWN_ONLY_IN_LAYOUT)[name];
    return onlyIn === undefined || onlyIn.includes(layout);
  }));
}

/**
 * Which Discord event the bot snippets answer: a welcome card with a goodbye headline when a member
 * leaves, other welcome cards when one joins, a profile (rank) card on a /rank slash command.
 * @param {Record<string, unknown>} body
 * @returns {'join' | 'leave' | 'rank'}
 */
function botEventFor(body) {
  if (!WELCOME_LAYOUTS.includes(layoutOf(body))) return 'rank';
  return typeof body.headline === 'string' && /\b(good ?bye|bye|farewell|see you)\b/i.test(body.headline) ? 'leave' : 'join';
}

const extensionOf = (/** @type {Record<string, unknown>} */ body) => imageTypeFor(body).slice('image/'.length);
/** The file a snippet writes or attaches: card.png, leaderboard.png. */
const fileNameOf = (/** @type {CardCall} */ call) => `${isLeaderboard(call) ? 'leaderboard' : 'card'}.${extensionOf(call.body)}`;

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
  // A quoted heredoc passes the JSON byte for byte: no quoting of the user's texts can go wrong.
  return [
    '# bash or zsh; your key from the environment: export UTILITY_API_KEY=...',
    `curl -sS --fail-with-body -X POST ${shellQuote(`${call.serverUrl}${call.path}${query ? `?${query}` : ''}`)} \\`,
    '  -H "Authorization: $UTILITY_API_KEY" \\',
    "  -H 'Content-Type: application/json' \\",
    `  -H ${shellQuote(`Accept: ${imageTypeFor(call.body)}`)} \\`,
    `  -o ${fileNameOf(call)} --data-binary @- <<'JSON'`,
    JSON.stringify(isLeaderboard(call) ? call.body : drawnFields(call.body), null, 2),
    'JSON',
  ].join('\n');
}

/** The bot snippets' message for each event, and the note above them. */
const EVENT_NOTES = {
  join: 'Posts the card in the server\u2019s system channel when a member joins; the user id is the member\u2019s.',
  leave: 'Posts the card in the server\u2019s system channel when a member leaves (a goodbye headline); the user id is the member\u2019s.',
  rank: 'Answers a /rank slash command (optionally naming a member) with the card; the user id is the member\u2019s.',
  leaderboard: 'Answers a /leaderboard slash command with the board; fill its rows from your bot\u2019s own XP data, the asking member as the highlight.',
};

/** The discord.js code that sends the card for the event the layout suits. */
const DISCORD_JS_HANDLERS = {
  join: `client.on(Events.GuildMemberAdd, async (member) => {
  const card = await drawCard(member.user, member);
  if (card) await member.guild.systemChannel?.send({ content: \`Welcome to \${member.guild.name}, \${member}!\`, files: [card] });
});

client.once(Events.ClientReady, (ready) => console.log(\`Logged in as \${ready.user.tag}\`));`,
  leave: `client.on(Events.GuildMemberRemove, async (member) => {
  const card = await drawCard(member.user, member);
  if (card) await member.guild.systemChannel?.send({ content: \`\${member.user.username} left \${member.guild.name}.\`, files: [card] });
});

client.once(Events.ClientReady, (ready) => console.log(\`Logged in as \${ready.user.tag}\`));`,
  rank: `const rank = new SlashCommandBuilder()
  .setName('rank')
  .setDescription('Shows a member\\'s card')
  .addUserOption((option) => option.setName('member').setDescription('Whose card (yours if left out)'));

client.on(Events.InteractionCreate, async (interaction) => {
  if (!interaction.isChatInputCommand() || interaction.commandName !== 'rank') return;
  // Drawing can take longer than the 3 s Discord waits for a first answer.
  await interaction.deferReply();
  const user = interaction.options.getUser('member') ?? interaction.user;
  const card = await drawCard(user, interaction.options.getMember('member') ?? interaction.member);
  await interaction.editReply(card ? { files: [card] } : 'The card could not be drawn.');
});

client.once(Events.ClientReady, async (ready) => {
  // Global commands can take a while to show up in every server.
  await ready.application.commands.set([rank]);
  console.log(\`Logged in as \${ready.user.tag}; /rank registered\`);
});`,
};

/**
 * discord.js for a leaderboard: the board's rows come from the bot's own data, so the form's body is
 * the starting point (`BOARD`) and the asking member becomes the highlighted row.
 * @param {CardCall} call
 */
function discordJsLeaderboard(call) {
  const { highlight: _highlight, ...board } = call.body;
  const options = JSON.stringify(board, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:');
  return `// discord.js v14 on Node.js 18 or later (fetch is built in). Save as bot.mjs, then:
//   npm install discord.js
//   DISCORD_TOKEN=... UTILITY_API_KEY=... node bot.mjs
import { AttachmentBuilder, Client, Events, GatewayIntentBits, SlashCommandBuilder } from 'discord.js';

const LEADERBOARD_URL = ${jsString(`${call.serverUrl}${call.path}`)};
// The design from the playground; replace rows with your bot's own top members (1 to 10).
const BOARD = ${options};

const client = new Client({ intents: [GatewayIntentBits.Guilds] });

/** The board with one member's row highlighted, as an attachment; undefined (and logged) when the API refuses. */
async function drawLeaderboard(highlight) {
  const response = await fetch(LEADERBOARD_URL, {
    method: 'POST',
    headers: {
      Authorization: process.env.UTILITY_API_KEY,
      'Content-Type': 'application/json',
      Accept: ${jsString(imageTypeFor(call.body))},
    },
    body: JSON.stringify(highlight ? { ...BOARD, highlight } : BOARD),
  });
  if (!response.ok) {
    console.error('The leaderboard failed:', response.status, await response.text());
    return undefined;
  }
  // The alt text comes as an RFC 8187 value (UTF-8'' then percent-encoded text): screen readers say it.
  const altText = decodeURIComponent((response.headers.get('x-alt-text') ?? '').replace(/^UTF-8''/, ''));
  return new AttachmentBuilder(Buffer.from(await response.arrayBuffer()), { name: ${jsString(fileNameOf(call))}, description: altText });
}

const leaderboard = new SlashCommandBuilder().setName('leaderboard').setDescription('Shows the server\\'s leaderboard');

client.on(Events.InteractionCreate, async (interaction) => {
  if (!interaction.isChatInputCommand() || interaction.commandName !== 'leaderboard') return;
  // Drawing can take longer than the 3 s Discord waits for a first answer.
  await interaction.deferReply();
  // Highlight the asking member from your own data, e.g.
  // { rank: 27, name: interaction.user.username, userId: interaction.user.id, level: 9, score: 4210 }.
  const card = await drawLeaderboard(undefined);
  await interaction.editReply(card ? { files: [card] } : 'The leaderboard could not be drawn.');
});

client.once(Events.ClientReady, async (ready) => {
  // Global commands can take a while to show up in every server.
  await ready.application.commands.set([leaderboard]);
  console.log(\`Logged in as \${ready.user.tag}; /leaderboard registered\`);
});

await client.login(process.env.DISCORD_TOKEN);
`;
}

/**
 * discord.py for a leaderboard, as the discord.js one: the form's body is the starting point.
 * @param {CardCall} call
 */
function discordPyLeaderboard(call) {
  const { highlight: _highlight, ...board } = call.body;
  return `# discord.py 2.x on Python 3.9 or later. Save as bot.py, then:
#   pip install discord.py aiohttp
#   DISCORD_TOKEN=... UTILITY_API_KEY=... python3 bot.py
import io
import os
from urllib.parse import unquote

import aiohttp
import discord
from discord import app_commands

LEADERBOARD_URL = ${JSON.stringify(`${call.serverUrl}${call.path}`)}
# The design from the playground; replace rows with your bot's own top members (1 to 10).
BOARD = ${pythonLiteral(board)}

client = discord.Client(intents=discord.Intents.default())
tree = app_commands.CommandTree(client)


async def draw_leaderboard(highlight=None):
    """The board with one member's row highlighted, as a discord.File; None (and printed) when the API refuses."""
    headers = {"Authorization": os.environ["UTILITY_API_KEY"], "Accept": ${JSON.stringify(imageTypeFor(call.body))}}
    body = dict(BOARD, highlight=highlight) if highlight else BOARD
    async with aiohttp.ClientSession() as session:
        async with session.post(LEADERBOARD_URL, json=body, headers=headers) as response:
            if response.status != 200:
                print("The leaderboard failed:", response.status, await response.text())
                return None
            image = await response.read()
            # The alt text comes as an RFC 8187 value (UTF-8'' then percent-encoded text): screen readers say it.
            alt_text = unquote(response.headers.get("X-Alt-Text", "").removeprefix("UTF-8''"))
    return discord.File(io.BytesIO(image), filename=${JSON.stringify(fileNameOf(call))}, description=alt_text)


@tree.command(name="leaderboard", description="Shows the server's leaderboard")
async def leaderboard(interaction: discord.Interaction):
    # Drawing can take longer than the 3 s Discord waits for a first answer.
    await interaction.response.defer()
    # Highlight the asking member from your own data: draw_leaderboard({"rank": 27, "name": ..., ...}).
    card = await draw_leaderboard()
    if card is None:
        await interaction.followup.send("The leaderboard could not be drawn.")
    else:
        await interaction.followup.send(file=card)


@client.event
async def on_ready():
    # Global commands can take a while to show up in every server.
    await tree.sync()
    print(f"Logged in as {client.user}; /leaderboard registered")


client.run(os.environ["DISCORD_TOKEN"])
`;
}

/** @param {CardCall} call */
function discordJs(call) {
  if (isLeaderboard(call)) return discordJsLeaderboard(call);
  const extension = extensionOf(call.body);
  const event = botEventFor(call.body);
  // Pretty JSON is a JavaScript literal; keys that are plain identifiers lose their quotes, as
  // people write them. (Only whole keys at a line's start match: string values are escaped JSON.)
  const options = JSON.stringify(botOptions(call.body), null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:');
  const imports = event === 'rank' ? 'AttachmentBuilder, Client, Events, GatewayIntentBits, SlashCommandBuilder' : 'AttachmentBuilder, Client, Events, GatewayIntentBits';
  const intents = event === 'rank' ? 'GatewayIntentBits.Guilds' : 'GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers';
  const portal = event === 'rank' ? '' : '\n// Turn on the Server Members intent for your bot in the Discord developer portal.';
  return `// discord.js v14 on Node.js 18 or later (fetch is built in). Save as bot.mjs, then:
//   npm install discord.js
//   DISCORD_TOKEN=... UTILITY_API_KEY=... node bot.mjs${portal}
import { ${imports} } from 'discord.js';

const CARD_URL = ${jsString(`${call.serverUrl}${call.path}`)};
const CARD_OPTIONS = ${options};

const client = new Client({ intents: [${intents}] });

/**
 * The card of a user (and member), as an attachment; undefined (and logged) when the API refuses.
 * The member's own objects go with the design: its name, avatars and role colours are drawn.
 */
async function drawCard(user, member) {
  const body = {
    ...CARD_OPTIONS,
    discordUser: user.toJSON(),
    // A member discord.js has cached (an interaction's may be raw API data, without toJSON).
    ...(typeof member?.toJSON === 'function' && { discordMember: member.toJSON(), discordRoleColors: member.roles.color?.colors }),
  };
  const response = await fetch(\`\${CARD_URL}?userId=\${user.id}\`, {
    method: 'POST',
    headers: {
      Authorization: process.env.UTILITY_API_KEY,
      'Content-Type': 'application/json',
      Accept: ${jsString(imageTypeFor(call.body))},
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    console.error('The card failed:', response.status, await response.text());
    return undefined;
  }
  // The alt text comes as an RFC 8187 value (UTF-8'' then percent-encoded text): screen readers say it.
  const altText = decodeURIComponent((response.headers.get('x-alt-text') ?? '').replace(/^UTF-8''/, ''));
  return new AttachmentBuilder(Buffer.from(await response.arrayBuffer()), { name: ${jsString(`card.${extension}`)}, description: altText });
}

${DISCORD_JS_HANDLERS[event]}

await client.login(process.env.DISCORD_TOKEN);
`;
}

/** The discord.py code that sends the card for the event the layout suits. */
const DISCORD_PY_HANDLERS = {
  join: `@client.event
async def on_member_join(member: discord.Member):
    card = await draw_card(member)
    channel = member.guild.system_channel
    if card is not None and channel is not None:
        await channel.send(f"Welcome to {member.guild.name}, {member.mention}!", file=card)`,
  leave: `@client.event
async def on_member_remove(member: discord.Member):
    card = await draw_card(member)
    channel = member.guild.system_channel
    if card is not None and channel is not None:
        await channel.send(f"{member.name} left {member.guild.name}.", file=card)`,
  rank: `tree = app_commands.CommandTree(client)


@tree.command(name="rank", description="Shows a member's card")
@app_commands.describe(member="Whose card (yours if left out)")
async def rank(interaction: discord.Interaction, member: Optional[discord.Member] = None):
    # Drawing can take longer than the 3 s Discord waits for a first answer.
    await interaction.response.defer()
    card = await draw_card(member or interaction.user)
    if card is None:
        await interaction.followup.send("The card could not be drawn.")
    else:
        await interaction.followup.send(file=card)


@client.event
async def on_ready():
    # Global commands can take a while to show up in every server.
    await tree.sync()
    print(f"Logged in as {client.user}; /rank registered")`,
};

/** @param {CardCall} call */
function discordPy(call) {
  if (isLeaderboard(call)) return discordPyLeaderboard(call);
  const extension = extensionOf(call.body);
  const event = botEventFor(call.body);
  const members = event === 'rank' ? '' : '\nintents.members = True';
  const portal = event === 'rank' ? '' : '\n# Turn on the Server Members intent for your bot in the Discord developer portal.';
  const imports = event === 'rank' ? 'import io\nimport os\nfrom typing import Optional\nfrom urllib.parse import unquote\n\nimport aiohttp\nimport discord\nfrom discord import app_commands' : 'import io\nimport os\nfrom urllib.parse import unquote\n\nimport aiohttp\nimport discord';
  return `# discord.py 2.x on Python 3.9 or later. Save as bot.py, then:
#   pip install discord.py aiohttp
#   DISCORD_TOKEN=... UTILITY_API_KEY=... python3 bot.py${portal}
${imports}

CARD_URL = ${JSON.stringify(`${call.serverUrl}${call.path}`)}
CARD_OPTIONS = ${pythonLiteral(botOptions(call.body))}

intents = discord.Intents.default()${members}
client = discord.Client(intents=intents)


def discord_objects(who):
    """The member's (or user's) own objects as the API reads them: its name, avatars and role colour."""
    body = {"discordUser": {"id": str(who.id), "username": who.name, "global_name": getattr(who, "global_name", None),
                            "avatar": who.avatar.key if who.avatar else None}}
    if isinstance(who, discord.Member):
        body["discordMember"] = {"guild_id": str(who.guild.id), "nick": who.nick,
                                 "avatar": who.guild_avatar.key if who.guild_avatar else None}
        if who.colour.value:
            body["discordRoleColors"] = {"primary_color": who.colour.value}
    return body


async def draw_card(who):
    """The card of a member (or user) as a discord.File; None (and printed) when the API refuses."""
    headers = {"Authorization": os.environ["UTILITY_API_KEY"], "Accept": ${JSON.stringify(imageTypeFor(call.body))}}
    async with aiohttp.ClientSession() as session:
        async with session.post(CARD_URL, params={"userId": str(who.id)}, json={**discord_objects(who), **CARD_OPTIONS}, headers=headers) as response:
            if response.status != 200:
                print("The card failed:", response.status, await response.text())
                return None
            image = await response.read()
            # The alt text comes as an RFC 8187 value (UTF-8'' then percent-encoded text): screen readers say it.
            alt_text = unquote(response.headers.get("X-Alt-Text", "").removeprefix("UTF-8''"))
    return discord.File(io.BytesIO(image), filename=${JSON.stringify(`card.${extension}`)}, description=alt_text)


${DISCORD_PY_HANDLERS[event]}


client.run(os.environ["DISCORD_TOKEN"])
`;
}

/** The snippets by tab, each with a line saying what it needs. */
/** The note over a bot snippet: the event it answers. */
const botNote = (/** @type {CardCall} */ call) => EVENT_NOTES[isLeaderboard(call) ? 'leaderboard' : botEventFor(call.body)];

export const SNIPPETS = {
  curl: { build: curl, note: (/** @type {CardCall} */ call) => `Writes the ${isLeaderboard(call) ? 'board' : 'card'} to a file. On an error the file holds the API\u2019s JSON error and curl exits with 22.${isLeaderboard(call) ? '' : ' Fields the layout does not draw are left out.'}` },
  'discord-js': { build: discordJs, note: botNote },
  'discord-py': { build: discordPy, note: botNote },
  json: { build: (/** @type {CardCall} */ call) => JSON.stringify(call.body, null, 2), note: () => 'The request body the preview sends and Export JSON saves, every field it holds (fields the layout does not draw included).' },
};
