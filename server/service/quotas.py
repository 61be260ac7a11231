"""Quotas: what one client address may take an hour, on every replica alike.

The address is the connection's peer, or the one a trusted proxy reports
(``LUDOTECA_TRUSTED_PROXIES``): a client cannot choose its own address by sending a
header (docs/operations.md, "Quotas"). The counts live in Redis (server/storage/quotas.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from server.service.errors import TooMany
from server.storage.quotas import HOUR_MS, HourlyCounts


@dataclass(frozen=True)
class Quota:
    """``limit`` of ``what`` an hour for one address (0: no limit), and how a refusal reads."""

    what: str  # "games", "seats": part of the key
    limit: int
    code: str  # the refusal's code (its message is the catalogs', docs/i18n.md)
    sentence: str  # "This address may open {limit} tables an hour"


class Quotas:
    """Every per-address quota of this server."""

    def __init__(
        self, counts: HourlyCounts, games_per_hour: int, seats_per_hour: int, players_per_hour: int = 0,
        codes_per_hour: int = 0, destinations_per_hour: int = 0, sign_ins_per_hour: int = 0,
        passkeys_per_hour: int = 0, refused: Callable[[str], None] = lambda what: None,
    ) -> None:  # fmt: skip
        self.counts = counts
        self.refused = refused  # told each refusal's quota (the metric operators watch: a quota hit often)
        self.games = Quota("games", games_per_hour, "too_many_games", "This address may open {limit} games an hour")
        self.seats = Quota("seats", seats_per_hour, "too_many_seats", "This address may take {limit} seats an hour")
        self.players = Quota(
            "players", players_per_hour, "too_many_players", "This address may make {limit} players an hour"
        )
        self.codes = Quota(
            "codes", codes_per_hour, "too_many_codes", "This address may try {limit} sign-in codes an hour"
        )
        self.destinations = Quota(
            "destinations",
            destinations_per_hour,
            "too_many_destinations",
            "This address may set {limit} webhooks and email addresses an hour",
        )
        self.sign_ins = Quota(
            "sign_ins", sign_ins_per_hour, "too_many_sign_ins", "This address may begin {limit} sign-ins an hour"
        )
        # Counted per player, not per address: a player's passkeys are its own, wherever it registers them.
        self.passkeys = Quota(
            "passkeys",
            passkeys_per_hour,
            "too_many_passkeys",
            "A player may begin {limit} passkey registrations an hour",
        )

    async def take(self, quota: Quota, client: str | None, now_ms: int) -> None:
        """Count one of ``quota`` for ``client`` (an address, or a player for ``passkeys``); 429 past the
        limit (with when to try again)."""
        if not quota.limit or not client:
            return
        if await self.counts.add(quota.what, client, now_ms) > quota.limit:
            self.refused(quota.what)
            retry_after = ((now_ms // HOUR_MS + 1) * HOUR_MS - now_ms) // 1000 + 1
            raise TooMany(
                quota.code,
                quota.sentence.format(limit=quota.limit) + "; try again later.",
                {"limit": quota.limit, "retry_after": retry_after},
            )
