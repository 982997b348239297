"""Runs a documented discord.py bot as written, with discord.Client.run replaced by members joining:
prints the token it logged in with and each message it sent (content, file name, description, first
bytes, the bytes as base64) as JSON lines, for readme-examples.test.ts. Argument: the bot's file.
The members are discord.py's own Member objects, built from Discord API payloads
(FAKE_DISCORD_MEMBERS, a JSON array of {"user": ..., "member": ...}; by default one member)."""

import asyncio
import base64
import json
import os
import runpy
import sys
import types

import discord

USER_ID = "302050872383242240"
GUILD_ID = 613425648685547541
DEFAULT_MEMBERS = [{"user": {"id": USER_ID, "username": "ada", "discriminator": "0", "global_name": "Ada", "avatar": None}}]


def report(kind, **fields):
    print(json.dumps({"kind": kind, **fields}), flush=True)


async def send(content, *, file):
    described = file.to_dict(0)
    data = file.fp.read()
    report("send", content=content, files=[{"name": described["filename"], "description": described.get("description"),
                                             "head": data[:4].hex(), "base64": base64.b64encode(data).decode()}])


class FakeState:
    """What discord.Member needs from discord.py's connection state to be built from a member payload."""

    def store_user(self, data, *, cache=True):
        return discord.User(state=self, data=data)


def member(payload):
    state = FakeState()
    guild = types.SimpleNamespace(id=GUILD_ID, name="Test Server", member_count=42, system_channel=types.SimpleNamespace(send=send))
    everyone = discord.Role(guild=guild, state=state, data={"id": str(GUILD_ID), "name": "@everyone", "position": 0, "color": 0})
    guild.get_role = {everyone.id: everyone}.get
    guild.default_role = everyone
    data = {"roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0, **payload.get("member", {}), "user": payload["user"]}
    return discord.Member(data=data, guild=guild, state=state)


def run(bot, token):
    report("login", token=token)

    async def join():
        for payload in json.loads(os.environ.get("FAKE_DISCORD_MEMBERS", "null")) or DEFAULT_MEMBERS:
            await bot.on_member_join(member(payload))
    asyncio.run(join())


discord.Client.run = run
runpy.run_path(sys.argv[1], run_name="__main__")
