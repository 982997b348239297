"""Signed card links, scheme version 1 (docs/card-links.md): built offline, so a bot puts a card in an
embed without waiting for the API. The standard library only."""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import json
import re
from typing import Any, Mapping, Optional, Union

_MANAGED_KEY = re.compile(r"^(uk_live_[a-z0-9]{8})_[A-Za-z0-9]{32,64}$")


def card_link_key_id(api_key: str) -> str:
    """The key's public id a link names: uk_live_<id> of a managed key, key_<12 hex of SHA-256> of a key from API_KEYS."""
    managed = _MANAGED_KEY.match(api_key)
    return managed.group(1) if managed else "key_" + hashlib.sha256(api_key.encode("utf-8")).hexdigest()[:12]


def card_url(base_url: str, api_key: str, user_id: str, card: Optional[Mapping[str, Any]] = None, *,
             expires_at: Union[None, int, float, datetime.datetime] = None) -> str:
    """A signed card link: {base_url}/v1/card-link?v=1&k=..&u=..[&o=..][&e=..]&s=..

    card: the card's fields, as the POST body (template included). expires_at: a datetime or Unix
    seconds after which the link answers 410."""
    signed = f"v=1&k={card_link_key_id(api_key)}&u={user_id}"
    if card:
        # Compact JSON, non-ASCII as UTF-8: what JSON.stringify writes, so both SDKs build the same link.
        text = json.dumps(dict(card), separators=(",", ":"), ensure_ascii=False)
        signed += "&o=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
    if expires_at is not None:
        seconds = expires_at.timestamp() if isinstance(expires_at, datetime.datetime) else expires_at
        signed += f"&e={int(seconds // 1)}"
    # The HMAC key is SHA-256 of the API key: all the server keeps of it.
    signing_key = hashlib.sha256(api_key.encode("utf-8")).digest()
    signature = hmac.new(signing_key, signed.encode("ascii"), hashlib.sha256).hexdigest()
    return f"{base_url.rstrip('/')}/v1/card-link?{signed}&s={signature}"
