"""The client: the standard library's urllib, run in a thread so a bot's event loop never blocks."""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import json as jsonlib
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Union

from .card_links import card_url
from .components_v2 import accent_color_from_header

DEFAULT_ATTEMPTS = 3
DEFAULT_MAX_TOTAL_WAIT = 30.0
# A 429 or 503 without Retry-After (a proxy's) is retried after this many seconds.
FALLBACK_RETRY_AFTER = 1.0
RETRIED_STATUSES = (429, 503)


class UtilityApiError(Exception):
    """An answer that is not a success, carrying the API's JSON error."""

    def __init__(self, status: int, code: str, message: str, details: List[Dict[str, str]],
                 request_id: Optional[str], retry_after: Optional[int], attempts: int) -> None:
        super().__init__(message)
        self.status = status
        # Such as invalid_request, unauthorized, rate_limited; http_error when the body was not the API's JSON.
        self.code = code
        self.message = message
        self.details = details
        self.request_id = request_id
        # Seconds from Retry-After, when the answer had it.
        self.retry_after = retry_after
        # How many requests the call made before giving up.
        self.attempts = attempts

    def __repr__(self) -> str:
        return f"UtilityApiError({self.status}, {self.code!r}, {self.message!r}, request_id={self.request_id!r})"


@dataclass
class CardImage:
    """A card as image bytes, with what the answer's headers say about it."""

    data: bytes
    content_type: str
    # From X-Alt-Text, decoded: the same text as the JSON answer's altText.
    alt_text: str
    # The card's public URL (Content-Location).
    url: str
    # Frames of an animated card (X-Card-Frames); None for a still one.
    frames: Optional[int] = None
    # The card's accent as Discord's integer colour (X-Card-Accent); None when the answer has none (a card link's).
    accent_color: Optional[int] = None
    # A card link's answer only: X-Card-Render ("new" when this fetch drew it, "reused" when stored) and its ETag.
    render: Optional[str] = None
    etag: Optional[str] = None


@dataclass
class _Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes
    reason: str = ""


def decode_ext_value(value: str) -> str:
    """RFC 8187 ext-value (UTF-8'' then percent-encoded UTF-8), as the gateway sends X-Alt-Text."""
    match = re.match(r"(?is)^utf-8'[^']*'(.*)$", value)
    return urllib.parse.unquote(match.group(1) if match else value, encoding="utf-8", errors="strict")


def _retry_after_seconds(header: Optional[str]) -> Optional[float]:
    """Retry-After as seconds: delay-seconds or an HTTP date; None when absent or unreadable."""
    if header is None:
        return None
    header = header.strip()
    if header.isdigit():
        return float(header)
    try:
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _query_value(value: Any) -> str:
    # The API reads booleans as true/false, as JSON writes them.
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Client:
    """Calls utility-api. Every method is a coroutine; card options use the API's own field names."""

    def __init__(self, api_key: str, base_url: str = "http://localhost:3000", *, attempts: int = DEFAULT_ATTEMPTS,
                 max_total_wait: float = DEFAULT_MAX_TOTAL_WAIT, timeout: float = 60.0) -> None:
        """attempts: tries in all, the first included (1 turns retrying off). max_total_wait: the most
        seconds one call sleeps across its retries; a longer Retry-After ends the call with the error."""
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.attempts = max(1, int(attempts))
        self.max_total_wait = max(0.0, float(max_total_wait))
        self.timeout = timeout

    # Cards

    async def create_profile_image(self, user_id: str, **card: Any) -> Dict[str, Any]:
        """Draws a card; the JSON answer has its public url and altText."""
        return await self._json("POST", "/v1/profile-image", query={"userId": user_id}, body=card)

    async def create_profile_image_for_user(self, user_id: str, **card: Any) -> Dict[str, Any]:
        """The same operation with the user id in the path."""
        return await self._json("POST", f"/v1/profile-image/{urllib.parse.quote(user_id, safe='')}", body=card)

    async def profile_image_bytes(self, user_id: str, **card: Any) -> CardImage:
        """Draws a card and answers with the image itself (Accept: image/<format>), its alt text decoded.
        The format is card's format, else PNG; an animated card is WebP unless format says gif."""
        image_format = card.get("format") or ("webp" if card.get("animated") else "png")
        answer = await self._send("POST", f"/v1/profile-image/{urllib.parse.quote(user_id, safe='')}",
                                  body=card, accept=f"image/{image_format}")
        frames = answer.headers.get("x-card-frames")
        return CardImage(
            data=answer.body,
            content_type=answer.headers.get("content-type", f"image/{image_format}"),
            alt_text=decode_ext_value(answer.headers.get("x-alt-text", "")),
            url=answer.headers.get("content-location", ""),
            frames=int(frames) if frames is not None else None,
            accent_color=accent_color_from_header(answer.headers.get("x-card-accent")),
        )

    async def create_leaderboard_image(self, rows: List[Mapping[str, Any]], **board: Any) -> Dict[str, Any]:
        """Draws a leaderboard card: 1 to 10 rows (each a dict with rank and name, and optionally avatarUrl
        or userId, level, score) and the board's fields (title, highlight, scoreLabel, autoColorRank,
        accentColor, podium, guild, background, format, or template naming a leaderboard template). guild is a
        dict with name and/or id (a Discord server id: with the server's bot token its name, icon and member
        count fill what is not given), iconUrl and memberCount. The JSON answer has its url and altText."""
        return await self._json("POST", "/v1/leaderboard-image", body={"rows": [dict(row) for row in rows], **board})

    async def create_profile_image_batch(self, cards: List[Mapping[str, Any]]) -> Dict[str, Any]:
        """Up to 50 cards in one request: each a dict with userId and card fields (template included).
        The answer's results are, in order, each card's JSON answer or {"error": {...}}."""
        return await self._json("POST", "/v1/profile-image/batch", body={"cards": [dict(card) for card in cards]})

    # Templates: saved card designs of the key's account, of a kind: "profile" (profile cards, links,
    # batches) or "leaderboard" (create_leaderboard_image); the other kind is template_kind_mismatch.

    async def create_template(self, name: str, fields: Mapping[str, Any], kind: str = "profile") -> Dict[str, Any]:
        """Saves a design: for kind "profile" any card field but the member's own, for "leaderboard"
        any board field but rows and highlight."""
        return await self._json("POST", "/v1/templates", body={"name": name, "kind": kind, "fields": dict(fields)})

    async def list_templates(self) -> Dict[str, Any]:
        return await self._json("GET", "/v1/templates")

    async def get_template(self, template_id: str) -> Dict[str, Any]:
        return await self._json("GET", f"/v1/templates/{urllib.parse.quote(template_id, safe='')}")

    async def update_template(self, template_id: str, name: str, fields: Mapping[str, Any], kind: str = "profile") -> Dict[str, Any]:
        """Replaces the whole design, its kind included (fields left out are gone)."""
        return await self._json("PUT", f"/v1/templates/{urllib.parse.quote(template_id, safe='')}",
                                body={"name": name, "kind": kind, "fields": dict(fields)})

    async def delete_template(self, template_id: str) -> None:
        await self._send("DELETE", f"/v1/templates/{urllib.parse.quote(template_id, safe='')}")

    def card_url(self, user_id: str, card: Optional[Mapping[str, Any]] = None, *,
                 expires_at: Union[None, int, float, datetime.datetime] = None) -> str:
        """A signed card link for an embed, built here without a request (docs/card-links.md): its first
        fetch draws the card, later ones are served stored. expires_at makes it answer 410 after."""
        return card_url(self.base_url, self.api_key, user_id, card, expires_at=expires_at)

    async def get_card_link(self, link: str) -> CardImage:
        """Fetches a card link as a chat client does (no key is sent: the link is its own credential),
        as bytes with its alt text decoded, and render and etag from its headers."""
        answer = await self._send("GET", "", url=link, accept="image/*", anonymous=True)
        frames = answer.headers.get("x-card-frames")
        return CardImage(
            data=answer.body,
            content_type=answer.headers.get("content-type", ""),
            alt_text=decode_ext_value(answer.headers.get("x-alt-text", "")),
            url=answer.headers.get("content-location", ""),
            frames=int(frames) if frames is not None else None,
            accent_color=accent_color_from_header(answer.headers.get("x-card-accent")),
            render=answer.headers.get("x-card-render"),
            etag=answer.headers.get("etag"),
        )

    # Light endpoints

    async def json_validator(self, json: Any) -> Dict[str, Any]:
        """An invalid document is the validator's answer (status "invalid"), not an error."""
        return await self._json("POST", "/v1/json-validator", body={"json": json}, answer_statuses=(400,))

    async def random_emoji(self, category: Optional[str] = None, is_symbol: Optional[bool] = None,
                           count: Optional[int] = None) -> Dict[str, Any]:
        return await self._json("GET", "/v1/random-emoji", query={"category": category, "isSymbol": is_symbol, "count": count})

    async def time(self, unix: Optional[int] = None, timezone: Optional[str] = None) -> Dict[str, Any]:
        return await self._json("GET", "/v1/time", query={"unix": unix, "timezone": timezone})

    async def hex_to_rgb(self, hex: str) -> Dict[str, Any]:
        return await self._json("GET", "/v1/hex-to-rgb", query={"hex": hex})

    async def status(self, method: str = "GET", body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """GET, POST, PUT, PATCH, DELETE or OPTIONS /v1/status; use status_head for HEAD."""
        if method.upper() == "HEAD":
            raise ValueError("HEAD has no JSON answer: use status_head()")
        return await self._json(method.upper(), "/v1/status", body=body)

    async def status_head(self) -> Dict[str, str]:
        """HEAD has no body: answers with the headers, names in lower case."""
        return dict((await self._send("HEAD", "/v1/status")).headers)

    async def age_calculator(self, dob: str) -> Dict[str, Any]:
        return await self._json("GET", "/v1/age-calculator", query={"dob": dob})

    async def coin_flip(self, heads: Optional[float] = None, tails: Optional[float] = None) -> Dict[str, Any]:
        return await self._json("GET", "/v1/coin-flip", query={"heads": heads, "tails": tails})

    async def sort_array(self, array: List[float], sort: Optional[str] = None) -> Dict[str, Any]:
        return await self._json("POST", "/v1/sort-array", query={"sort": sort}, body={"array": array})

    async def scramble(self, word: str) -> Dict[str, Any]:
        return await self._json("GET", "/v1/scramble", query={"word": word})

    async def number_analyzer(self, integer: int) -> Dict[str, Any]:
        return await self._json("GET", "/v1/number-analyzer", query={"integer": integer})

    async def get_account(self) -> Dict[str, Any]:
        """The key's account, plan and this month's quotas, and the key's own usage (GET /v1/account)."""
        return await self._json("GET", "/v1/account")

    # Transport

    async def _json(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None,
                    body: Optional[Any] = None, answer_statuses: tuple = ()) -> Dict[str, Any]:
        answer = await self._send(method, path, query=query, body=body, answer_statuses=answer_statuses)
        return jsonlib.loads(answer.body)

    async def _send(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Optional[Any] = None,
                    accept: str = "application/json", answer_statuses: tuple = (), url: Optional[str] = None,
                    anonymous: bool = False) -> _Answer:
        """Sends the call, again after the Retry-After of a 429 or 503 while tries and the total wait
        allow it; answers with a success or raises UtilityApiError. url: a whole URL in place of
        base_url + path (a card link); anonymous: without the key (a link carries its own signature)."""
        if url is None:
            url = self.base_url + path
        pairs = [(name, _query_value(value)) for name, value in (query or {}).items() if value is not None]
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        headers = {"Accept": accept, "User-Agent": "utility-api-python/0.1"}
        if not anonymous:
            headers["Authorization"] = self.api_key
        data = None
        if body is not None:
            data = jsonlib.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        waited = 0.0
        attempt = 0
        while True:
            attempt += 1
            answer = await asyncio.to_thread(self._request, urllib.request.Request(url, data=data, headers=headers, method=method))
            if 200 <= answer.status < 300 or answer.status in answer_statuses:
                return answer
            wait = _retry_after_seconds(answer.headers.get("retry-after"))
            if answer.status in RETRIED_STATUSES and attempt < self.attempts:
                delay = FALLBACK_RETRY_AFTER if wait is None else wait
                if waited + delay <= self.max_total_wait:
                    await asyncio.sleep(delay)
                    waited += delay
                    continue
            raise _error(answer, attempt, wait)

    def _request(self, request: urllib.request.Request) -> _Answer:
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return _Answer(response.status, _lower(response.headers), response.read(), response.reason)
        except urllib.error.HTTPError as error:
            # urllib raises for every status from 400 on; the answer is still read like any other.
            with error:
                return _Answer(error.code, _lower(error.headers), error.read(), str(error.reason))


def _lower(headers: Any) -> Dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def _error(answer: _Answer, attempts: int, wait: Optional[float]) -> UtilityApiError:
    retry_after = None if wait is None else int(-(-wait // 1))
    try:
        parsed = jsonlib.loads(answer.body)
        error = parsed["error"]
        return UtilityApiError(answer.status, str(error["code"]), str(error["message"]), list(error.get("details", [])),
                               parsed.get("requestId") or answer.headers.get("x-request-id"), retry_after, attempts)
    except (ValueError, KeyError, TypeError):
        # Not the API's JSON (a proxy's page): the status and its text make the error.
        text = answer.body[:200].decode("utf-8", "replace")
        message = f"HTTP {answer.status} {answer.reason}".strip() + (f": {text}" if text else "")
        return UtilityApiError(answer.status, "http_error", message, [], answer.headers.get("x-request-id"), retry_after, attempts)
