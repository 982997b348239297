"""An asyncio client for utility-api: every /v1 operation, retries on 429 and 503, typed errors."""

from .card_links import card_link_key_id, card_url
from .client import CardImage, Client, UtilityApiError, decode_ext_value
from .components_v2 import IS_COMPONENTS_V2, accent_color_from_header, card_components

__all__ = ["CardImage", "Client", "IS_COMPONENTS_V2", "UtilityApiError", "accent_color_from_header", "card_components", "card_link_key_id",
           "card_url", "decode_ext_value"]
