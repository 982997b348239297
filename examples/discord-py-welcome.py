# A welcome bot: DISCORD_TOKEN=... UTILITY_API_KEY=... python3 examples/discord-py-welcome.py
import os
import discord
from utility_api import Client
from utility_api.discord_py import card_file

api = Client(os.environ["UTILITY_API_KEY"], os.environ.get("UTILITY_API_URL", "http://localhost:3000"))
bot = discord.Client(intents=discord.Intents(guilds=True, members=True))

@bot.event
async def on_member_join(member: discord.Member):  # the member's own name, avatar and colours go with it
    card = await card_file(api, member, layout="welcome", headline="Welcome, {name}!", message=f"Member #{member.guild.member_count}")
    if member.guild.system_channel:
        await member.guild.system_channel.send(f"Hi {member.mention}!", file=card)
bot.run(os.environ["DISCORD_TOKEN"])
