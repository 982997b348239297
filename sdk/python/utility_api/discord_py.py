"""The discord.py helper: a card as a discord.File whose description is the card's alt text.
Imports discord.py, which the core client never does (pip install "./sdk/python[discord]")."""

from __future__ import annotations

import io
from typing import Any, Union

import discord

from .client import Client


async def card_file(client: Client, who: Union[discord.Member, discord.User], **card: Any) -> discord.File:
    """Draws the card of a member (or user) for channel.send(file=...), with its alt text as the
    attachment's description (what Discord shows to screen readers). A member with a server nickname
    is drawn with it unless customUsername is given."""
    if isinstance(who, discord.Member) and who.nick and "customUsername" not in card:
        card["customUsername"] = who.nick
    image = await client.profile_image_bytes(str(who.id), **card)
    extension = image.content_type.split(";")[0].strip().removeprefix("image/")
    return discord.File(io.BytesIO(image.data), filename=f"card.{extension}", description=image.alt_text)
