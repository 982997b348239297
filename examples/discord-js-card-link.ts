// A welcome bot that posts a signed card link in an embed: no API request from the bot; Discord's fetch draws the card.
import { Client, EmbedBuilder, Events, GatewayIntentBits } from 'discord.js';
import { createClient } from '@utility-api/client';
import { discordObjects } from '@utility-api/client/discord.js';

const api = createClient({ baseUrl: process.env.UTILITY_API_URL ?? 'http://localhost:3000', apiKey: process.env.UTILITY_API_KEY! });
const bot = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers] });

bot.on(Events.GuildMemberAdd, (member) => {
  const image = api.cardUrl(member.id, { layout: 'welcome', headline: 'Welcome, {name}!', ...discordObjects(member) });
  const embed = new EmbedBuilder().setTitle(`Welcome, ${member.displayName}!`).setImage(image);
  member.guild.systemChannel?.send({ embeds: [embed] }).catch((error: unknown) => console.error('welcome failed:', error));
});
await bot.login(process.env.DISCORD_TOKEN);
