"""An asyncio client for utility-api: every /v1 operation, retries on 429 and 503, typed errors."""

from .card_links import card_link_key_id, card_url
from .client import CardImage, Client, UtilityApiError, decode_ext_value

__all__ = ["CardImage", "Client", "UtilityApiError", "card_link_key_id", "card_url", "decode_ext_value"]
