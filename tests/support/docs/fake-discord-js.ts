/**
 * discord.js as a documented bot sees it, without Discord: `login` records the token and then
 * delivers the members joining (GuildMemberAdd, real discord.js GuildMembers built from API
 * payloads) and one `/profile` slash command (InteractionCreate) from the first of them to the
 * handlers the bot registered. Every message the bot sends and every reply it edits is printed as
 * one JSON line, the files reduced to name, description, first bytes and their bytes (base64), each
 * embed's image fetched as Discord's media proxy would (its first bytes and type), for
 * readme-examples.test.ts to judge. Enums and builders are discord.js's own.
 */
export { AttachmentBuilder, EmbedBuilder, Events, GatewayIntentBits, SlashCommandBuilder } from 'discord.js';
import { Events } from 'discord.js';
import { fakeMember, type FakeMemberOptions } from '../sdk/discord-js-objects.ts';

/**
 * The members who join, as Discord's API sends them (`FAKE_DISCORD_MEMBERS`, a JSON array of
 * `{ user, member? }`; readme-examples.test.ts draws the same cards and serves their avatars on a
 * fake CDN), each made a real discord.js GuildMember; by default one member without an avatar.
 */
const FAKE_USER_ID = process.env.FAKE_DISCORD_USER_ID ?? '302050872383242240';
const MEMBERS = JSON.parse(process.env.FAKE_DISCORD_MEMBERS ?? 'null') as FakeMemberOptions[] | null ?? [{ user: { id: FAKE_USER_ID, username: 'ada', discriminator: '0', global_name: 'Ada', avatar: null } }];

type Handler = (...args: unknown[]) => unknown;

function report(kind: string, payload: unknown) {
  process.stdout.write(`${JSON.stringify({ kind, ...(payload as object) })}\n`);
}

/** An embed's image as Discord's media proxy fetches it (an EmbedBuilder, or a plain embed object). */
async function describeEmbed(embed: unknown) {
  const data = (typeof (embed as { toJSON?: unknown }).toJSON === 'function' ? (embed as { toJSON(): unknown }).toJSON() : embed) as { title?: string; image?: { url: string } };
  if (data.image === undefined) return { title: data.title };
  const response = await fetch(data.image.url);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { title: data.title, image: { url: data.image.url, status: response.status, contentType: response.headers.get('content-type'), head: bytes.subarray(0, 4).toString('hex') } };
}

/** A message payload as the bot gave it: content, each file's name, description and first bytes, each embed's image. */
async function describePayload(payload: unknown) {
  const message = typeof payload === 'string' ? { content: payload } : (payload as { content?: string; files?: unknown[]; embeds?: unknown[]; flags?: number; components?: unknown[] });
  const files = await Promise.all(
    (message.files ?? []).map(async (file) => {
      // An AttachmentBuilder (the SDK's), or a plain { attachment, name, description } whose attachment may be a URL.
      const { attachment, name, description } = file as { attachment: Buffer | string; name?: string; description?: string };
      const bytes = typeof attachment === 'string' ? Buffer.from(await (await fetch(attachment)).arrayBuffer()) : Buffer.from(attachment);
      return { name, description, head: bytes.subarray(0, 4).toString('hex'), base64: bytes.toString('base64') };
    }),
  );
  const embeds = await Promise.all((message.embeds ?? []).map(describeEmbed));
  // Components V2 (cardMessage): the flag and the components as JSON, as discord.js would post them.
  const components = message.components?.map((component) => (typeof (component as { toJSON?: unknown }).toJSON === 'function' ? (component as { toJSON(): unknown }).toJSON() : component));
  return { content: message.content, files, ...(embeds.length > 0 ? { embeds } : {}), ...(components ? { flags: message.flags, components } : {}) };
}

export class Client {
  readonly #handlers = new Map<string, Handler[]>();

  on(event: string, handler: Handler): this {
    this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), handler]);
    return this;
  }

  /** Registered as `on`: the fake delivers each event once (ClientReady never). */
  once(event: string, handler: Handler): this {
    return this.on(event, handler);
  }

  async login(token: string | undefined): Promise<string> {
    report('login', { token });
    const send = async (payload: unknown) => report('send', await describePayload(payload));
    const joined = MEMBERS.map((options) => {
      const { client, guild, member } = fakeMember(options);
      // No connection: the structures are only read. The system channel records what the bot sends.
      client.destroy();
      Object.defineProperty(guild, 'systemChannel', { value: { send } });
      return member;
    });
    const first = joined[0]!;
    const interaction = {
      commandName: 'profile',
      user: first.user,
      member: first,
      guildId: first.guild.id,
      isChatInputCommand: () => true,
      inCachedGuild: () => true,
      deferReply: async () => report('deferReply', {}),
      editReply: async (payload: unknown) => report('editReply', await describePayload(payload)),
    };
    // After login resolves, as Discord's gateway delivers events after the ready handshake.
    setImmediate(() => {
      for (const member of joined) for (const handler of this.#handlers.get(Events.GuildMemberAdd) ?? []) void handler(member);
      for (const handler of this.#handlers.get(Events.InteractionCreate) ?? []) void handler(interaction);
    });
    return token ?? '';
  }
}
