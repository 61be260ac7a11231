"""The Python SDK moved to ``clients.python`` (docs/sdk.md); this module keeps the old names working.

``Client`` here is the async client (``clients.python.AsyncClient``), as it always was; ``Seat`` is the
answer of ``join`` (``clients.python.Joined``).
"""

from clients.python import DEFAULT_URL, ApiError, AsyncClient, Joined, Reset

Client = AsyncClient
Seat = Joined

__all__ = ["DEFAULT_URL", "ApiError", "AsyncClient", "Client", "Reset", "Seat"]
