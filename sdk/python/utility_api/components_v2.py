"""A card as a Discord Components V2 message, in Discord's own JSON (no discord.py needed): a
container tinted with the card's accent colour holding the card in a media gallery, its alt text as
the gallery item's description (what Discord reads to screen readers). The TypeScript SDK's
cardComponents builds this same payload."""

from __future__ import annotations

import re
from typing import Any, Dict, Optional

# Discord's message flag for a Components V2 message (IS_COMPONENTS_V2): components only, no content or embeds.
IS_COMPONENTS_V2 = 1 << 15
# The component types used here (Discord's ComponentType).
TEXT_DISPLAY, MEDIA_GALLERY, CONTAINER = 10, 12, 17
# Discord's limits: a media gallery item's description (the API's alt text never exceeds it), all text of one message.
_MEDIA_DESCRIPTION_MAX_LENGTH = 1024
_TEXT_MAX_LENGTH = 4000


def accent_color_from_header(header: Optional[str]) -> Optional[int]:
    """X-Card-Accent (#rrggbb) as Discord's integer colour; None for anything else."""
    match = re.fullmatch(r"#([0-9a-fA-F]{6})", (header or "").strip())
    return int(match.group(1), 16) if match else None


def card_components(file_name: str, alt_text: str, accent_color: Optional[int] = None, text: Optional[str] = None) -> Dict[str, Any]:
    """The message's flags and components; send them with the card as the attachment named file_name.
    text (markdown: a greeting, a mention) goes above the card inside the container."""
    if text is not None and len(text) + len(alt_text) > _TEXT_MAX_LENGTH:
        raise ValueError(f"text and alt text together exceed Discord's {_TEXT_MAX_LENGTH} characters per message")
    item: Dict[str, Any] = {"media": {"url": f"attachment://{file_name}"}}
    if alt_text:
        item["description"] = alt_text[:_MEDIA_DESCRIPTION_MAX_LENGTH]
    gallery = {"type": MEDIA_GALLERY, "items": [item]}
    children = [{"type": TEXT_DISPLAY, "content": text}, gallery] if text else [gallery]
    container: Dict[str, Any] = {"type": CONTAINER, "components": children}
    if accent_color is not None:
        container["accent_color"] = accent_color
    return {"flags": IS_COMPONENTS_V2, "components": [container]}
