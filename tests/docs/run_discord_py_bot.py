"""Runs a documented discord.py bot as written, with discord.Client.run replaced by one member
joining: prints the token it logged in with and each message it sent (content, file name,
description, first bytes) as JSON lines, for readme-examples.test.ts. Argument: the bot's file."""

import asyncio
import json
import runpy
import sys
import types

import discord

USER_ID = "302050872383242240"


def report(kind, **fields):
    print(json.dumps({"kind": kind, **fields}), flush=True)


async def send(content, *, file):
    described = file.to_dict(0)
    report("send", content=content, files=[{"name": described["filename"], "description": described.get("description"),
                                             "head": file.fp.read(4).hex()}])


channel = types.SimpleNamespace(send=send)
joined = types.SimpleNamespace(id=int(USER_ID), display_name="Ada", mention=f"<@{USER_ID}>",
                               guild=types.SimpleNamespace(member_count=42, system_channel=channel))


def run(bot, token):
    report("login", token=token)
    asyncio.run(bot.on_member_join(joined))


discord.Client.run = run
runpy.run_path(sys.argv[1], run_name="__main__")
