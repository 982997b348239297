"""The discord.py helper: a card as a discord.File whose description is the card's alt text, or as a
ready Components V2 message. Imports discord.py, which the core client never does
(pip install "./sdk/python[discord]")."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

import discord

from .client import Client
from .components_v2 import card_components


def _key(asset: Any) -> Optional[str]:
    """An Asset's hash as Discord sends it (a_ prefix for an animated one), or None."""
    return getattr(asset, "key", None) if asset is not None else None


def _colour(value: Any) -> Optional[int]:
    """A discord.Colour (or int) as Discord's integer colour, or None."""
    if value is None:
        return None
    return value if isinstance(value, int) else getattr(value, "value", None)


def _set(payload: Dict[str, Any]) -> Dict[str, Any]:
    """The fields that are set: None says "none", as leaving the field out does, so neither is sent."""
    return {field: value for field, value in payload.items() if value is not None}


def _nameplate(user: Any) -> Optional[Dict[str, Any]]:
    """The nameplate of discord.py's collectibles (2.6 and later), as the API spells it."""
    collectibles = getattr(user, "collectibles", None)
    if not collectibles:
        return None
    items = collectibles if isinstance(collectibles, (list, tuple)) else [getattr(collectibles, "nameplate", None)]
    for item in items:
        if item is None:
            continue
        kind = getattr(item, "type", None)
        if kind is not None and "nameplate" not in str(getattr(kind, "name", kind)).lower():
            continue
        asset = getattr(item, "asset", None)
        palette = getattr(item, "palette", None)
        return _set({"asset": asset if isinstance(asset, str) else _key(asset), "palette": getattr(palette, "value", palette),
                     "label": getattr(item, "label", None), "sku_id": _snowflake(getattr(item, "sku_id", None))})
    return None


def _snowflake(value: Any) -> Optional[str]:
    return None if value is None else str(value)


def discord_user(user: Union[discord.User, discord.Member]) -> Dict[str, Any]:
    """A discord.py User (or a Member's user) as the API's user object: discord.py keeps parsed
    attributes, not the payload, so it is built from them; newer ones (global_name, avatar
    decorations, server tags, nameplates) where the installed discord.py has them."""
    decoration = getattr(user, "avatar_decoration", None)
    primary_guild = getattr(user, "primary_guild", None)
    nameplate = _nameplate(user)
    return _set({
        "id": str(user.id),
        "username": user.name,
        "global_name": getattr(user, "global_name", None),
        "avatar": _key(user.avatar),
        "banner": _key(getattr(user, "banner", None)),
        "accent_color": _colour(getattr(user, "accent_colour", None)),
        "public_flags": _colour(getattr(user, "public_flags", None)),
        "bot": bool(user.bot),
        "avatar_decoration_data": _set({"asset": _key(decoration), "sku_id": _snowflake(getattr(user, "avatar_decoration_sku_id", None))}) if decoration else None,
        "primary_guild": _set({"identity_guild_id": _snowflake(getattr(primary_guild, "id", None)), "identity_enabled": getattr(primary_guild, "identity_enabled", None),
                               "tag": getattr(primary_guild, "tag", None), "badge": _key(getattr(primary_guild, "badge", None))})
        if primary_guild is not None and getattr(primary_guild, "tag", None) else None,
        "collectibles": {"nameplate": nameplate} if nameplate else None,
    })


def discord_role_colors(member: discord.Member) -> Optional[Dict[str, Any]]:
    """The colours of the member's highest coloured role (discord.py's member.colour is its primary):
    secondary and tertiary where discord.py has them (role gradients, holographic)."""
    try:
        roles = member.roles
    except (AttributeError, TypeError):
        # A guild whose roles are not cached (not even @everyone): the card is drawn without role colours.
        return None
    for role in reversed(roles):
        primary = _colour(role.colour)
        if primary:
            return {"primary_color": primary, "secondary_color": _colour(getattr(role, "secondary_colour", None)),
                    "tertiary_color": _colour(getattr(role, "tertiary_colour", None))}
    return None


def discord_objects(who: Any) -> Dict[str, Any]:
    """What the API reads of a member, user or interaction (its user: a Member in a server):
    discordUser, discordMember (nick, server avatar and banner, guild id) and discordRoleColors. With
    them the card draws the member's own name, avatars and colours without a bot token on the server."""
    if isinstance(getattr(who, "user", None), (discord.User, discord.Member)) and hasattr(who, "response"):
        who = who.user
    fields: Dict[str, Any] = {"discordUser": discord_user(who)}
    if isinstance(who, discord.Member):
        fields["discordMember"] = _set({"nick": who.nick, "avatar": _key(who.guild_avatar), "banner": _key(getattr(who, "guild_banner", None)),
                                        "guild_id": str(who.guild.id)})
        colors = discord_role_colors(who)
        if colors is not None:
            fields["discordRoleColors"] = colors
    return fields


async def _draw(client: Client, who: Any, card: Dict[str, Any]):
    # The caller's options over the member's objects: an explicit field wins.
    body = {**discord_objects(who), **card}
    user_id = who.user.id if hasattr(who, "response") else who.id
    image = await client.profile_image_bytes(str(user_id), **body)
    extension = image.content_type.split(";")[0].strip().removeprefix("image/")
    return image, f"card.{extension}"


async def card_file(client: Client, who: Any, **card: Any) -> discord.File:
    """Draws the card of a member, user or interaction for channel.send(file=...), with its alt text as
    the attachment's description (what Discord shows to screen readers). The member's own objects go
    with the request (discord_objects): its display name, avatar and colours are drawn unless card
    says otherwise (customUsername, customAvatar, ...)."""
    image, name = await _draw(client, who, card)
    return discord.File(io.BytesIO(image.data), filename=name, description=image.alt_text)


@dataclass
class CardMessage:
    """A card as a Components V2 message: flags and components (Discord's JSON) and the file the
    media gallery refers to (attachment://card.png)."""

    file: discord.File
    flags: int
    components: List[Dict[str, Any]]

    def to_dict(self) -> Dict[str, Any]:
        """The message body as Discord takes it (payload_json beside the file)."""
        return {"flags": self.flags, "components": self.components, "attachments": [self.file.to_dict(0)]}


async def card_message(client: Client, who: Any, text: Optional[str] = None, **card: Any) -> CardMessage:
    """The card in a media gallery with its alt text, inside a container tinted with the card's accent
    colour (X-Card-Accent), text (markdown: a greeting, a mention) above it, IS_COMPONENTS_V2 set.
    Send it with send_card_message(channel, message)."""
    image, name = await _draw(client, who, card)
    message = card_components(name, image.alt_text, image.accent_color, text)
    file = discord.File(io.BytesIO(image.data), filename=name, description=image.alt_text)
    return CardMessage(file=file, flags=message["flags"], components=message["components"])


async def send_card_message(channel: discord.abc.Messageable, message: CardMessage) -> Dict[str, Any]:
    """Posts a CardMessage in a text channel through the bot's own discord.py HTTP client (its token,
    rate limits and retries), for every discord.py 2.x: those before 2.6 have no Components V2
    objects for channel.send. Answers the created message as Discord's JSON."""
    target = await channel._get_channel()  # a Member or User gives its DM channel, as channel.send does
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=target.id)
    form = [{"name": "payload_json", "value": discord.utils._to_json(message.to_dict())},
            {"name": "files[0]", "value": message.file.fp, "filename": message.file.filename, "content_type": "application/octet-stream"}]
    return await target._state.http.request(route, form=form, files=[message.file])
