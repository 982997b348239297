"""An asyncio client for utility-api: every /v1 operation, retries on 429 and 503, typed errors."""

from .client import CardImage, Client, UtilityApiError, decode_ext_value

__all__ = ["CardImage", "Client", "UtilityApiError", "decode_ext_value"]
