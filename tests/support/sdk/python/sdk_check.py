"""Drives the installed utility_api package against the gateways tests/sdk/python-sdk.test.ts
started, and prints what it saw as one JSON object; the ava test makes the assertions, comparing
with what the gateway answers over plain HTTP. Environment: UTILITY_API_URL, UTILITY_API_KEY,
LIMITED_URL (a gateway whose light endpoints allow one request per window), EXAMPLE (the bot)."""

import asyncio
import email.utils
import json
import os
import runpy
import sys
import time
import types
import urllib.request

import discord

from utility_api import Client, UtilityApiError
from utility_api.client import _Answer
from utility_api.discord_py import card_file, discord_objects

URL = os.environ["UTILITY_API_URL"]
KEY = os.environ["UTILITY_API_KEY"]
LIMITED_URL = os.environ["LIMITED_URL"]
USER_ID = "302050872383242240"
CARD = {"customUsername": "Zoë ✨", "customTag": "Welcome!", "presenceStatus": "online"}


def error_fields(error):
    return {"type": type(error).__name__, "status": error.status, "code": error.code, "message": error.message,
            "details": error.details, "request_id": error.request_id, "retry_after": error.retry_after,
            "attempts": error.attempts}


async def light(api):
    statuses = {}
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        statuses[method] = (await api.status(method, {"hello": "world"} if method in ("POST", "PUT", "PATCH") else None))["request_details"]
    return {
        "hexToRgb": (await api.hex_to_rgb("#FF5733"))["mainRgb"],
        "sortArray": (await api.sort_array([5, 3, 9, 1], sort="low"))["result"],
        "jsonValid": (await api.json_validator({"name": "Ada"}))["status"],
        "jsonInvalid": await api.json_validator('{"name":'),
        "randomEmoji": len(await api.random_emoji(category="Food & Drink", count=3, is_symbol=False)),
        "time": (await api.time(unix=1700000000, timezone="PST"))["unixTimestamp"],
        "ageCalculator": (await api.age_calculator("1990-05-17"))["dob"],
        "coinFlip": (await api.coin_flip(heads=70, tails=30))["result"],
        "scramble": (await api.scramble("javascript"))["original"],
        "numberAnalyzer": (await api.number_analyzer(153))["isArmstrong"],
        "account": (await api.get_account())["account"]["id"],
        "status": {method: {"method": details["method"], "body": details["body"]} for method, details in statuses.items()},
        "statusHead": (await api.status_head()).get("x-request-id"),
    }


async def cards(api):
    as_json = await api.create_profile_image(USER_ID, **CARD)
    webp = await api.create_profile_image_for_user(USER_ID, format="webp", **CARD)
    image = await api.profile_image_bytes(USER_ID, **CARD)
    return {
        "json": {"url": as_json["url"], "altText": as_json["altText"]},
        "webpUrl": webp["url"],
        "bytes": {"contentType": image.content_type, "head": image.data[:8].hex(), "altText": image.alt_text,
                  "url": image.url, "frames": image.frames},
    }


ROWS = [{"rank": 1, "name": "Ada", "level": 42, "score": 98765}, {"rank": 2, "name": "Kai", "level": 39, "score": 90642}]
BOARD_DESIGN = {"title": "Top chatters", "scoreLabel": "pts", "autoColorRank": True}


async def boards(api):
    """The leaderboard method, plain and from a leaderboard template; the kind mismatch as a typed error."""
    plain = await api.create_leaderboard_image(ROWS, **BOARD_DESIGN, highlight={"rank": 27, "name": "Mika", "level": 9, "score": 4210})
    template = await api.create_template("Py board", BOARD_DESIGN, kind="leaderboard")
    drawn = await api.create_leaderboard_image(ROWS, template=template["id"], title="This week")
    try:
        await api.create_profile_image(USER_ID, template=template["id"])
        mismatch = {"raised": False}
    except UtilityApiError as error:
        mismatch = error_fields(error)
    replaced = await api.update_template(template["id"], "Py board 2", {"title": "Ranks"}, kind="leaderboard")
    return {"plain": {"url": plain["url"], "altText": plain["altText"], "options": plain["options"]},
            "template": {"id": template["id"], "kind": template["kind"], "fields": template["fields"]},
            "drawn": {"url": drawn["url"], "altText": drawn["altText"], "options": drawn["options"]},
            "mismatch": mismatch, "replaced": {"kind": replaced["kind"], "fields": replaced["fields"]}}


async def batch(api):
    """A batch with a good card, a bad one and one from a template, each its own result in order."""
    profile = await api.create_template("Py welcome", {"layout": "welcome", "headline": "Hi"})
    answer = await api.create_profile_image_batch([
        {"userId": USER_ID, **CARD},
        {"userId": "not-a-user"},
        {"userId": USER_ID, "template": profile["id"], "customUsername": "Grace"},
    ])
    return {"template": profile["id"], "results": answer["results"]}


async def links(api):
    """A link built offline, fetched twice (drawn, then stored) without the key; a changed one refused."""
    link = api.card_url(USER_ID, {"customTag": "Python link", "presenceStatus": "online"})
    first = await api.get_card_link(link)
    again = await api.get_card_link(link)
    try:
        await api.get_card_link(link.replace("v=1&", "v=1&x=1&") + "0")
        refused = {"raised": False}
    except UtilityApiError as error:
        refused = error_fields(error)
    image = {"contentType": first.content_type, "head": first.data[:8].hex(), "url": first.url, "altText": first.alt_text}
    return {"link": link, "first": {**image, "render": first.render, "etag": first.etag},
            "again": {"render": again.render, "etag": again.etag, "same": again.data == first.data}, "refused": refused}


async def errors(api):
    try:
        await api.hex_to_rgb("not a colour")
        return {"raised": False}
    except UtilityApiError as error:
        return error_fields(error)


def recording(client, before=None):
    """Wraps the client's request so each answer's status, Retry-After and timing is kept."""
    log = []
    send = client._request

    def request(req):
        if before:
            before()
        sent = time.monotonic()
        answer = send(req)
        log.append({"status": answer.status, "retryAfter": answer.headers.get("retry-after"), "sent": sent, "answered": time.monotonic()})
        return answer

    client._request = request
    return log


def spend_slot():
    # Another request with our key takes the slot the window frees, so the client's own try is refused.
    request = urllib.request.Request(LIMITED_URL + "/v1/coin-flip", headers={"Authorization": KEY})
    try:
        urllib.request.urlopen(request).close()
    except urllib.error.HTTPError as error:
        error.close()


async def retries():
    patient = Client(KEY, LIMITED_URL)
    log = recording(patient)
    await patient.coin_flip()
    answer = await patient.coin_flip()
    retried = {"result": answer["result"], "log": log}

    bounded = Client(KEY, LIMITED_URL, attempts=2, max_total_wait=60)
    bounded_log = recording(bounded, spend_slot)
    try:
        await bounded.coin_flip()
        gave_up = {"raised": False}
    except UtilityApiError as error:
        gave_up = {**error_fields(error), "log": bounded_log}

    impatient = Client(KEY, LIMITED_URL, attempts=5, max_total_wait=0.5)
    impatient_log = recording(impatient, spend_slot)
    try:
        await impatient.coin_flip()
        at_once = {"raised": False}
    except UtilityApiError as error:
        at_once = {**error_fields(error), "log": impatient_log}
    return {"retried": retried, "gaveUp": gave_up, "atOnce": at_once}


def scripted(client, *answers):
    """Replaces the client's transport with answers in order, keeping when each request was made."""
    sent = []
    queue = list(answers)

    def request(req):
        sent.append(time.monotonic())
        return queue.pop(0)

    client._request = request
    return sent


def unavailable(retry_after=None):
    headers = {"content-type": "application/json"}
    if retry_after is not None:
        headers["retry-after"] = retry_after
    body = json.dumps({"error": {"status": 503, "code": "overloaded", "message": "Busy."}, "requestId": "r-503"}).encode()
    return _Answer(503, headers, body, "Service Unavailable")


async def transport():
    """What the gateway cannot be made to send on demand: 503s with Retry-After and a proxy's page."""
    ok = _Answer(200, {"content-type": "application/json"}, b'{"result": "Heads"}')
    retried = Client(KEY, URL)
    retried_sent = scripted(retried, unavailable("1"), ok)
    result = await retried.coin_flip()
    until = time.time() + 2
    dated = Client(KEY, URL)
    dated_sent = scripted(dated, unavailable(email.utils.formatdate(until, usegmt=True)), ok)
    await dated.coin_flip()
    dated_done = time.time()
    outcomes = {"retried": {"result": result["result"], "gap": retried_sent[1] - retried_sent[0]},
                "dated": {"requests": len(dated_sent), "doneAfter": dated_done - int(until)}}
    for name, client, answers in (
        ("exhausted", Client(KEY, URL, attempts=2), [unavailable("1"), unavailable("1")]),
        ("noRetryAfter", Client(KEY, URL, attempts=3, max_total_wait=0.5), [unavailable()]),
        ("proxyPage", Client(KEY, URL), [_Answer(502, {"x-request-id": "proxy-1"}, b"<html>Bad gateway</html>", "Bad Gateway")]),
    ):
        sent = scripted(client, *answers)
        try:
            await client.coin_flip()
            outcomes[name] = {"raised": False}
        except UtilityApiError as error:
            outcomes[name] = {**error_fields(error), "requests": len(sent)}
    return outcomes


class FakeState:
    """What discord.Member needs from discord.py's connection state to be built from a member payload."""

    def store_user(self, data, *, cache=True):
        return discord.User(state=self, data=data)


async def helper(api):
    # No roles cached, not even @everyone: the helper sends no role colours.
    guild = types.SimpleNamespace(id=613425648685547541, name="Guild")
    user = {"id": USER_ID, "username": "ada", "discriminator": "0", "avatar": None, "global_name": "Ada"}
    member = discord.Member(data={"user": user, "nick": "Zoë ✨", "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
                                  "deaf": False, "mute": False, "flags": 0}, guild=guild, state=FakeState())
    file = await card_file(api, member, layout="welcome", headline="Welcome!")
    expected = await api.create_profile_image(USER_ID, layout="welcome", headline="Welcome!", **discord_objects(member))
    for_user = await card_file(api, member._user, format="webp")
    return {"toDict": file.to_dict(0), "head": file.fp.read(8).hex(), "expectedAltText": expected["altText"],
            "userToDict": for_user.to_dict(1)}


def example(path):
    """Runs the welcome bot as written, with discord.Client.run replaced by one member joining."""
    sent = []

    async def send(content, *, file):
        sent.append({"content": content, "file": file.to_dict(0), "head": file.fp.read(8).hex()})

    channel = types.SimpleNamespace(send=send)
    state = FakeState()
    guild = types.SimpleNamespace(id=613425648685547541, name="Guild", member_count=42, system_channel=channel)
    everyone = discord.Role(guild=guild, state=state, data={"id": "613425648685547541", "name": "@everyone", "position": 0, "color": 0})
    guild.get_role, guild.default_role = {everyone.id: everyone}.get, everyone
    user = {"id": USER_ID, "username": "ada", "discriminator": "0", "avatar": None, "global_name": "Ada"}
    joined = discord.Member(data={"user": user, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                                  "flags": 0}, guild=guild, state=state)

    def run(bot, token):
        sent.append({"token": token})
        asyncio.run(bot.on_member_join(joined))

    discord.Client.run = run
    runpy.run_path(path, run_name="__main__")
    return sent


async def main():
    api = Client(KEY, URL)
    return {"light": await light(api), "cards": await cards(api), "boards": await boards(api), "batch": await batch(api),
            "links": await links(api),
            "error": await errors(api),
            "retries": await retries(), "transport": await transport(), "helper": await helper(api)}


if __name__ == "__main__":
    report = asyncio.run(main())
    report["example"] = example(os.environ["EXAMPLE"])
    json.dump(report, sys.stdout, ensure_ascii=False)
