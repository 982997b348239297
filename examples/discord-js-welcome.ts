// A welcome bot: `DISCORD_TOKEN=... UTILITY_API_KEY=... node examples/discord-js-welcome.ts`.
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { createClient } from '@utility-api/client';
import { cardAttachment } from '@utility-api/client/discord.js';

const api = createClient({ baseUrl: process.env.UTILITY_API_URL ?? 'http://localhost:3000', apiKey: process.env.UTILITY_API_KEY! });
const bot = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers] });

bot.on(Events.GuildMemberAdd, (member) => {
  // The member's own name, avatar and colours travel with the request: no bot token needed on the API.
  cardAttachment(api, member, { layout: 'welcome', headline: 'Welcome, {name}!', message: `Member #${member.guild.memberCount}` })
    .then((card) => member.guild.systemChannel?.send({ content: `Hi <@${member.id}>!`, files: [card] }))
    .catch((error: unknown) => console.error('welcome card failed:', error));
});
await bot.login(process.env.DISCORD_TOKEN);
