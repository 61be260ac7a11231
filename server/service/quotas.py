"""Quotas: what one client address may take an hour, on every replica alike.

The address is the connection's peer, or the one a trusted proxy reports
(``LUDOTECA_TRUSTED_PROXIES``): a client cannot choose its own address by sending a
header (docs/operations.md, "Quotas"). The counts live in Redis (server/storage/quotas.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from server.service.errors import TooMany
from server.storage.quotas import HOUR_MS, HourlyCounts


@dataclass(frozen=True)
class Quota:
    """``limit`` of ``what`` an hour for one address (0: no limit), and how a refusal reads."""

    what: str  # "games", "seats": part of the key
    limit: int
    code: str  # the refusal's code (its message is the catalogs', docs/i18n.md)
    sentence: str  # "This address may open {limit} tables an hour"


class QuotaHitter(msgspec.Struct):
    client: str  # a client address (a player's id for ``passkeys``)
    refused: int  # its requests refused this clock hour


class QuotaHits(msgspec.Struct):
    """One quota as the operator watches it: every replica's refusals, counted in Redis."""

    quota: str  # games, seats, players, codes, destinations, sign_ins, passkeys
    limit: int  # what one address may take an hour (0: no limit)
    refused: int  # requests refused this clock hour
    refused_last_hour: int
    top: list[QuotaHitter]  # the clients refused most this hour, most first (at most 10)


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

    def all(self) -> list[Quota]:
        return [
            self.games, self.seats, self.players, self.codes, self.destinations, self.sign_ins, self.passkeys,
        ]  # fmt: skip

    async def hits(self, now_ms: int, top: int = 10) -> list[QuotaHits]:
        """Each quota's refusals this clock hour and the last, and who was refused most this hour."""
        hour = now_ms // HOUR_MS
        whats = [q.what for q in self.all()]
        now, ranked = await self.counts.hits(hour, whats, top)
        before, _ = await self.counts.hits(hour - 1, [], top)
        hitters = {what: [QuotaHitter(*r) for r in found] for what, found in ranked.items()}
        return [
            QuotaHits(q.what, q.limit, now.get(q.what, 0), before.get(q.what, 0), hitters[q.what]) for q in self.all()
        ]

    async def take(self, quota: Quota, client: str | None, now_ms: int) -> None:
        """Count one of ``quota`` for ``client`` (an address, or a player for ``passkeys``); 429 past the
        limit (with when to try again)."""
        if not quota.limit or not client:
            return
        if await self.counts.add(quota.what, client, now_ms) > quota.limit:
            self.refused(quota.what)
            await self.counts.refused(quota.what, client, now_ms)
            retry_after = ((now_ms // HOUR_MS + 1) * HOUR_MS - now_ms) // 1000 + 1
            raise TooMany(
                quota.code,
                quota.sentence.format(limit=quota.limit) + "; try again later.",
                {"limit": quota.limit, "retry_after": retry_after},
            )
