"""The discord.py helper with discord.py's own objects, for tests/sdk/python-discord-helper.test.ts:
members, users and roles built by discord.py from Discord API payloads (as it builds them from
gateway events), the objects the helper sends, its Components V2 message against the gateway, and
that message posted by discord.py's own HTTP client to a stand-in Discord API (aiohttp, which
discord.py depends on), whose received multipart body is printed for the test to validate.
Environment: UTILITY_API_URL, UTILITY_API_KEY. Prints one JSON object."""

import asyncio
import json
import os
import sys
import types

import discord
from aiohttp import web

from utility_api import Client
from utility_api.discord_py import CardMessage, card_file, card_message, discord_objects, discord_user, send_card_message

USER_ID = "302050872383242240"
GUILD_ID = 613425648685547541
HOLOGRAPHIC = (11127295, 16759788, 16761760)


class FakeState:
    """What discord.Member needs from discord.py's connection state to be built from a member payload."""

    def store_user(self, data, *, cache=True):
        return discord.User(state=self, data=data)


def member(nick="Countess of Lovelace", global_name="Ada Lovelace"):
    state = FakeState()
    guild = types.SimpleNamespace(id=GUILD_ID, name="Test Server", member_count=42)
    roles = {role.id: role for role in [
        discord.Role(guild=guild, state=state, data={"id": str(GUILD_ID), "name": "@everyone", "position": 0, "color": 0}),
        discord.Role(guild=guild, state=state, data={"id": "700000000000000001", "name": "blue", "position": 1, "color": 0x3498DB}),
        discord.Role(guild=guild, state=state, data={"id": "700000000000000002", "name": "gold", "position": 2, "color": 0xF1C40F}),
        discord.Role(guild=guild, state=state, data={"id": "700000000000000003", "name": "plain", "position": 3, "color": 0}),
    ]}
    guild.get_role = roles.get
    guild.default_role = roles[GUILD_ID]
    user = {"id": USER_ID, "username": "ada.codes", "discriminator": "0", "global_name": global_name,
            "avatar": "a_1f2e3d4c5b6a79881f2e3d4c5b6a7988", "accent_color": 16711680, "public_flags": 64}
    return discord.Member(data={"user": user, "nick": nick, "avatar": "9f8e7d6c5b4a39281f2e3d4c5b6a7988",
                                "roles": ["700000000000000001", "700000000000000002", "700000000000000003"],
                                "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0},
                          guild=guild, state=state)


def newer_user():
    """A user with the attributes discord.py added after Debian's version (2.3: global_name; 2.4:
    avatar_decoration and its SKU; 2.6: primary_guild, collectibles), by their discord.py names."""
    asset = lambda key: types.SimpleNamespace(key=key)  # noqa: E731 - discord.Asset's key is all the helper reads
    nameplate = types.SimpleNamespace(type=types.SimpleNamespace(name="nameplate"), asset="nameplates/nameplates/twilight/",
                                      palette=types.SimpleNamespace(value="cobalt"), label="Twilight", sku_id=1349849614353829990)
    return types.SimpleNamespace(id=int(USER_ID), name="ada.codes", global_name="Ada", avatar=asset("abc"), banner=None, accent_colour=None,
                                 public_flags=discord.PublicUserFlags._from_value(0), bot=False,
                                 avatar_decoration=asset("a_deco"), avatar_decoration_sku_id=1144058844004233369,
                                 primary_guild=types.SimpleNamespace(id=GUILD_ID, identity_enabled=True, tag="ADA", badge=asset("badge")),
                                 collectibles=[nameplate])


def discord_json(value):
    """JSON as Discord answers it: `application/json` without a charset, which discord.py 2.2 requires to parse it."""
    return web.Response(body=json.dumps(value).encode(), headers={"Content-Type": "application/json"})


async def stand_in_discord(received):
    """Discord's create-message route: records payload_json and the files, answers a message."""
    async def create_message(request):
        reader = await request.multipart()
        parts = {}
        async for part in reader:
            data = await part.read()
            parts[part.name] = {"filename": part.filename, "data": data}
        payload = json.loads(parts.pop("payload_json")["data"])
        received.append({"channel": request.match_info["channel_id"], "payload": payload,
                         "files": {name: {"filename": part["filename"], "head": part["data"][:8].hex()} for name, part in parts.items()}})
        return discord_json({"id": "1", "channel_id": request.match_info["channel_id"], **payload})

    async def me(_request):
        return discord_json({"id": "1", "username": "bot", "discriminator": "0", "avatar": None, "bot": True})

    app = web.Application()
    app.router.add_post("/api/v10/channels/{channel_id}/messages", create_message)
    app.router.add_get("/api/v10/users/@me", me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]


async def main():
    api = Client(os.environ["UTILITY_API_KEY"], os.environ["UTILITY_API_URL"])
    joined = member()
    interaction = types.SimpleNamespace(user=joined, response=object())
    report = {
        "memberObjects": discord_objects(joined),
        "userObjects": discord_objects(joined._user),
        "interactionObjects": discord_objects(interaction),
        "newerUser": discord_user(newer_user()),
        "topRole": joined.top_role.name,
    }
    message = await card_message(api, joined, text=f"Hi {joined.mention}!", layout="welcome")
    assert isinstance(message, CardMessage)
    image = await api.profile_image_bytes(USER_ID, layout="welcome", **discord_objects(joined))
    report["message"] = message.to_dict()
    report["expected"] = {"altText": image.alt_text, "accentColor": image.accent_color}
    own = await card_file(api, joined, layout="welcome")
    told = await card_file(api, joined, layout="welcome", customUsername="Ada")
    report["files"] = {"own": own.to_dict(0), "told": told.to_dict(0)}

    # discord.py's own HTTP client posts the message to the stand-in Discord.
    received = []
    runner, port = await stand_in_discord(received)
    try:
        discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        await http.static_login("not-a-real-token")
        channel = types.SimpleNamespace(id=123456789012345678, _state=types.SimpleNamespace(http=http))

        async def get_channel():
            return channel
        channel._get_channel = get_channel
        answer = await send_card_message(channel, await card_message(api, joined, text="Hi!", layout="welcome"))
        await http.close()
    finally:
        await runner.cleanup()
    report["posted"] = {"received": received, "answerId": answer["id"]}
    return report


if __name__ == "__main__":
    json.dump(asyncio.run(main()), sys.stdout, ensure_ascii=False)
