"""Ratings: OpenSkill's Plackett-Luce model over every finished rated table, per game.

Plackett-Luce rates a ranking of any number of players (ties shared), which is what a table of
two to six seats gives; Glicko-2 is for pairs. A rating is ``mu`` and ``sigma``; the leaderboard
orders players by the ordinal ``mu - 3 sigma``, and a player is provisional (and not on the
leaderboard) until it has played ``PROVISIONAL_GAMES`` rated games. Ratings are a projection of the
logs: the rater reads the finished games in their finish order and rates each rated one once
(projections/ratings.py says each player's place); ``rebuild`` folds every rated game's stream again
in the order they were rated and gives the same numbers.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import msgspec
from openskill.models import PlackettLuce

from domain.engine import AnyGame
from domain.table import Table
from projections.ratings import standings
from server.service.errors import NotFound, UnknownGame
from server.service.games import Games
from server.service.lobby import fold_log
from server.storage.index import LobbyIndex
from server.storage.leases import Leases, housekeeping_lock
from server.storage.players import PlayerRegistry
from server.storage.ratings import Rating as Rating  # re-exported: a rating is the service's word too
from server.storage.ratings import RatingBook

PROVISIONAL_GAMES = 5  # rated games before a player's rating stops being provisional
MODEL = PlackettLuce()
START = Rating(MODEL.mu, MODEL.sigma)


class RatedPlayer(msgspec.Struct):
    game: str
    player_id: str
    name: str
    rating: float  # the ordinal, mu - 3 sigma
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool


class Leaderboard(msgspec.Struct):
    game: str
    players: list[RatedPlayer]
    next_cursor: int | None = None


class RatingPoint(msgspec.Struct):
    """A player's rating in one game after one rated table."""

    game: str
    game_id: str
    place: int
    mu: float
    sigma: float
    rating: float


class PlayerPage(msgspec.Struct):
    """A player's page: its name, and, once it made the page public, its ratings, their history,
    games played and won."""

    player_id: str
    name: str
    public: bool
    ratings: list[RatedPlayer] = []  # one a game it has played rated
    history: list[RatingPoint] = []  # oldest first
    games: int = 0
    wins: int = 0


def ordinal(rating: Rating) -> float:
    return rating.mu - 3 * rating.sigma


def rerate(ranked: list[tuple[str, int]], before: dict[str, Rating]) -> dict[str, Rating]:
    """The players' ratings after a table that ranked them so (place 1 the best)."""
    players = [pid for pid, _ in ranked]
    teams = [[MODEL.rating(mu=before.get(pid, START).mu, sigma=before.get(pid, START).sigma)] for pid in players]
    after = MODEL.rate(teams, ranks=[place for _, place in ranked])
    found = {}
    for (pid, place), [rating] in zip(ranked, after, strict=True):
        old = before.get(pid, START)
        found[pid] = Rating(rating.mu, rating.sigma, old.games + 1, old.wins + (place == 1))
    return found


REBUILD_LOCK_MS = 15 * 60_000  # a rebuild's hold on the rater's lock, longer than any rebuild seen


@dataclass
class Ratings:
    """The rater and the readers of ratings."""

    book: RatingBook
    games: Games
    index: LobbyIndex
    players: PlayerRegistry
    leases: Leases

    @asynccontextmanager
    async def exclusive(self, ttl_ms: int, wait: bool) -> AsyncIterator[bool]:
        """The rater's lock, over every replica and the operator's rebuild: rating reads a player's
        rating and writes the next, so two passes at once could rate a game twice. ``wait``: until
        the lock is free, else give up at once (yields whether it holds the lock)."""
        owner, lock = secrets.token_hex(8), housekeeping_lock("ratings")
        held = await self.leases.take(lock, owner, ttl_ms)
        while not held and wait:
            await asyncio.sleep(0.05)
            held = await self.leases.take(lock, owner, ttl_ms)
        try:
            yield held
        finally:
            if held:
                await self.leases.release(lock, owner)

    async def rate(self, game: AnyGame, game_id: str, table: Table, order: float) -> bool:
        """Rate one finished table (once); whether it rated anyone."""
        ranked = standings(game, table)
        if ranked is None or await self.book.was_rated(game.id, game_id):
            return False
        before = await self.book.ratings(game.id, [pid for pid, _ in ranked])
        after = rerate(ranked, before)
        places = dict(ranked)
        history = {
            pid: json.dumps(
                {"game": game.id, "game_id": game_id, "place": places[pid], "mu": r.mu, "sigma": r.sigma},
                separators=(",", ":"),
            ).encode()
            for pid, r in after.items()
        }
        board = {pid: ordinal(r) for pid, r in after.items() if r.games >= PROVISIONAL_GAMES}
        await self.book.record(game.id, game_id, order, after, history, board)
        return True

    async def catch_up(self, now_ms: int, grace_ms: int = 2_000, batch: int = 200) -> int:
        """Rate the games finished since the rater last read, up to ``grace_ms`` ago; how many it rated."""
        rated = 0
        while True:
            cursor = await self.book.cursor()
            finished = await self.index.finished_after(cursor, now_ms - grace_ms, batch)
            for finished_ms, game_id in finished:
                try:
                    game, table = await self.games.load(game_id)
                except UnknownGame:  # deleted since it finished
                    game = None
                imported = "imported" in await self.games.store.meta(game_id)  # a copy of a game played elsewhere
                if game is not None and not imported and await self.rate(game, game_id, table, finished_ms):
                    rated += 1
                await self.book.move_cursor(finished_ms, game_id)
            if len(finished) < batch:
                return rated

    async def rebuild(self, kinds: list[str], archive: Path | None = None) -> int:
        """Every rating of ``kinds`` again from the streams (a game archived out of Redis from its file
        in ``archive``), in the order the games were rated; how many games it rated. The numbers are
        those the rater gave. The rater's passes wait meanwhile (``exclusive``)."""
        async with self.exclusive(REBUILD_LOCK_MS, wait=True):
            return await self._rebuild(kinds, archive)

    async def _rebuild(self, kinds: list[str], archive: Path | None) -> int:
        order = [game_id for kind in kinds for game_id in await self.book.rated(kind)]
        players: set[str] = set()
        tables = []
        for game_id in order:
            try:
                game, table = await self.games.load(game_id)
            except UnknownGame:
                kept = archive / f"{game_id}.jsonl" if archive is not None else None
                if kept is None or not kept.exists():
                    continue
                codec, _, table, _ = fold_log(self.games.tables.codecs, kept.read_bytes().splitlines())
                game = codec.game
            players |= {pid for pid, _ in standings(game, table) or []}
            tables.append((game, game_id, table))
        await self.book.clear(kinds, players)
        rated = 0
        for position, (game, game_id, table) in enumerate(tables):
            rated += await self.rate(game, game_id, table, position)
        return rated

    # -- reading ---------------------------------------------------------------------------------

    async def leaderboard(self, kind: str, limit: int, cursor: int) -> Leaderboard:
        """The game's best players by rating (those past their provisional games), a page at a time."""
        if kind not in self.games.games:
            raise NotFound("not_found", "This server has no such game.")
        board = await self.book.board(kind, cursor, limit + 1)
        # ordered by the ratings read: a game rated between the board's two reads (the order, then
        # the ratings) would otherwise list a page out of order
        page = sorted(board[:limit], key=lambda entry: ordinal(entry[1]), reverse=True)
        names = await self.players.names(pid for pid, _ in page)
        players = [self._rated(kind, pid, r, names) for pid, r in page]
        return Leaderboard(kind, players, cursor + limit if len(board) > limit else None)

    async def page(self, player_id: str) -> PlayerPage:
        fields = await self.players.get(player_id)
        if fields is None:
            raise NotFound("no_such_player", "There is no such player (or it was erased).")
        names = {player_id: fields.get("name", "")}
        if fields.get("public") != "1":
            return PlayerPage(player_id, names[player_id], False)
        ratings = []
        for kind in sorted(self.games.games):
            found = (await self.book.ratings(kind, [player_id])).get(player_id)
            if found is not None:
                ratings.append(self._rated(kind, player_id, found, names))
        history = []
        for line in await self.book.history(player_id):
            point = json.loads(line)
            rating = point["mu"] - 3 * point["sigma"]
            history.append(
                RatingPoint(point["game"], point["game_id"], point["place"], point["mu"], point["sigma"], rating)
            )
        games, wins = sum(r.games for r in ratings), sum(r.wins for r in ratings)
        return PlayerPage(player_id, names[player_id], True, ratings, history, games, wins)

    @staticmethod
    def _rated(kind: str, player_id: str, rating: Rating, names: dict[str, str]) -> RatedPlayer:
        return RatedPlayer(
            kind,
            player_id,
            names.get(player_id, "A former player"),
            ordinal(rating),
            rating.mu,
            rating.sigma,
            rating.games,
            rating.wins,
            rating.games < PROVISIONAL_GAMES,
        )
