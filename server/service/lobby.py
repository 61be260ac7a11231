"""The lobby: opening tables (within the quotas), taking seats, listing tables, and
bringing games in from exported logs or rebuilding the index from the streams."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from domain.clock import Clock
from domain.clock import preset as clock_preset
from domain.engine import AnyGame, Ctx, Rejected
from domain.table import (
    TAKEOVER_BOT,
    Table,
    TableOpened,
    cancel,
    chance,
    fold,
    offer_seat,
    open_rematch,
    open_table,
    status,
    take_over,
    take_seat,
)
from domain.text import plain
from projections.export import WHOLE, Export
from projections.export import events as export_events
from projections.export import read as read_export
from projections.lobby import LobbyEntry, entry_from_meta, lobby_entry, meta_fields
from server.service.codec import GameCodec, encode
from server.service.errors import (
    BAD_JSON,
    AppError,
    Conflict,
    Forbidden,
    Invalid,
    Refused,
    TableMoved,
    TooMany,
    Unauthorized,
    UnknownGame,
    malformed,
    refused,
)
from server.service.games import GAME_ID_BYTES, Games
from server.service.quotas import Quotas
from server.service.records import record_of
from server.service.tables import UNKNOWN_GAME
from server.service.tokens import address_key, invite_key, new_token, player_seat_key, token_hash
from server.storage.botqueue import BotQueue
from server.storage.index import STATUSES, LobbyIndex
from server.storage.players import PlayerRegistry
from server.storage.store import Appended

log = logging.getLogger(__name__)


class Joined(msgspec.Struct):
    seat: int
    token: str | None  # None for a bot's seat: the server plays it, nobody else may act for it


SCAN_PAGE: Final = 200  # tables read from the index at a time when a list is filtered
SCAN_MOST: Final = 2_000  # tables one filtered list request looks at, at most (its cursor goes on)


@dataclass(frozen=True)
class Wanted:
    """What a list of tables, or quick play, asks for: each field a filter, None for any."""

    game: str | None = None
    players: int | None = None
    clock: str | None = None  # a preset's name, "custom", or "none" for a table with no clock
    rated: bool | None = None
    lang: str | None = None

    def fits(self, entry: LobbyEntry) -> bool:
        return (
            (self.game is None or entry.game == self.game)
            and (self.players is None or entry.players == self.players)
            and (self.clock is None or (entry.clock or "none") == self.clock)
            and (self.rated is None or entry.rated == self.rated)
            and (self.lang is None or entry.lang == self.lang)
        )


class QuickPlayed(msgspec.Struct, omit_defaults=True):
    """The seat quick play took: at a table that was waiting (``opened`` false), or at one it opened."""

    game_id: str
    seat: int
    token: str | None
    opened: bool
    creator_token: str | None = None  # of the table it opened: to call it off before it starts


class NewGame(LobbyEntry, kw_only=True):
    """A table just opened, with the token that lets its creator call it off before it starts."""

    creator_token: str


GONE = -1  # a token entry the append deletes (server/storage/store.py)


class Invite(msgspec.Struct):
    """An invitation to take over a vacated seat: keep the token secret, hand it to the newcomer
    (``POST /games/{game_id}/seats {"invite": token}``)."""

    game_id: str
    seat: int
    invite: str


class Rematch(msgspec.Struct):
    """A seat of a finished game, seated again at its rematch: the same seat, a new token."""

    game_id: str
    seat: int
    token: str


class Lobby:
    """Tables opened and sat at, over the game service; what one address may take is counted in ``quotas``."""

    def __init__(
        self,
        games: Games,
        index: LobbyIndex,
        quotas: Quotas,
        bots: BotQueue,
        players: PlayerRegistry,
        max_open_games: int = 0,
    ) -> None:
        self.games = games
        self.players = players
        self.store = games.store
        self.index = index
        self.quotas = quotas
        self.bots = bots
        self.max_open_games = max_open_games  # open games in total, every replica together (0: no limit)

    async def create(
        self,
        kind: str,
        players: int,
        options: dict[str, Any],
        client: str | None = None,
        turn_clock: Clock | None = None,
        game_id: str | None = None,
        reserved: tuple[tuple[int, ...], int] = ((), 0),
        takeover: str = TAKEOVER_BOT,
        rated: bool = False,
        lang: str | None = None,
    ) -> NewGame:
        """Open a table (``game_id``: a chosen id, for a rematch; None: a new random one; ``reserved``:
        the seats a rematch keeps for its people, and until when on the shared clock; ``takeover``:
        the bot that plays on a seat that leaves, a bot this server has)."""
        game = self.hosted(kind)
        try:
            opened = open_table(
                game,
                players,
                options,
                turn_clock,
                *reserved,
                takeover,
                seed=self.games.new_seed(),
                rated=rated,
                lang=lang,
            )
        except Rejected as exc:
            raise refused(exc, game.id) from None
        game_id = game_id or secrets.token_hex(GAME_ID_BYTES)
        creator = f"{game_id}.{new_token()}"
        table = fold(game, None, [opened])
        assert table is not None
        entry = lobby_entry(game, game_id, table)
        now = await self.store.now_ms()
        await self.admit(client, now)
        sequence = await self.index.next_sequence()
        meta = {**meta_fields(entry), "sequence": sequence, "created_ms": now, "creator": token_hash(creator)}
        result = await self.store.append(game_id, 0, [encode(opened)], schema=game.event_schema, meta=meta)
        if not isinstance(result, Appended):  # a rematch another seat opened first: the same table
            raise Conflict("game_exists", "That table is already open.")
        await self.index.file(game_id, entry.status, sequence)
        self.games.tables.remember(game_id, table, result.head)
        return NewGame(*msgspec.structs.astuple(entry), creator_token=creator)

    def hosted(self, kind: str) -> AnyGame:
        """The game ``kind`` names (``400 unknown_game_type`` for one this server does not host)."""
        game = self.games.games.get(kind)
        if game is None:
            raise Invalid(
                "unknown_game_type", f"This server has no game called {kind!r}.", {"field": "game", "game": kind}
            )
        return game

    async def call_off(self, game_id: str, token: str | None) -> LobbyEntry:
        """The creator calls off a table that has not started (it is kept, finished, with its log)."""
        meta = await self.store.meta(game_id)
        if not meta:
            raise UnknownGame("unknown_game", UNKNOWN_GAME)
        if token is None:
            raise Unauthorized(
                "missing_token", "Calling a table off needs the token its creator was given.", {"case": "creator"}
            )
        if not hmac.compare_digest(meta.get("creator", ""), token_hash(token)):
            raise Forbidden("not_creator", "Only the person who opened this table may call it off.")
        _, table = await self.games.facts(game_id, cancel)
        return lobby_entry(self.games.games[table.game], game_id, table)

    async def rematch(self, game_id: str, token: str | None, grace_ms: int = 600_000, entropy: str = "") -> Rematch:
        """Seat a seat of a finished game at its rematch, opening it (once, for everyone) if need be.

        The first seat to ask draws the rematch's id at random and links the finished game to it
        (``RematchOpened``: one append, so seats asking at the same time agree on one id); the
        table keeps its people's seats for them for ``grace_ms``, so a stranger who sees it in the
        lobby cannot sit in one first. Each seat's new token is derived from its old one, so asking
        again answers the same seat and token. ``entropy``: what the seat's device drew for the new table."""
        at = await self.games.seated(game_id, token)
        if at.seat is None or token is None:
            raise Forbidden(
                "spectator", "Only a seat of the finished game may ask for its rematch.", {"case": "rematch"}
            )
        table = at.table
        if status(at.game, table) != "finished" or table.cancelled:
            raise Refused("game_not_over", "A rematch is offered once the game is over.")
        if table.rematch is None:
            drawn = secrets.token_hex(GAME_ID_BYTES)
            _, table = await self.games.facts(game_id, lambda game, table: open_rematch(game, table, drawn))
        new_id = table.rematch
        assert new_id is not None
        if not await self.store.exists(new_id):
            # Every seat a person sat in, those who resigned too: the bots that sat from the start sit again.
            people = tuple(s.seat for s in table.seats if s is not None and (s.bot is None or s.seat in table.resigned))
            until = await self.store.now_ms() + grace_ms
            try:
                await self.create(
                    table.game,
                    table.players,
                    msgspec.to_builtins(table.options),
                    None,
                    table.clock,
                    new_id,
                    reserved=(people, until),
                    takeover=table.takeover,
                    rated=table.rated,
                )
            except Conflict as exc:
                if exc.code != "game_exists":
                    raise
        for info in table.seats:  # the bots sit down again (whoever asks first seats them); people one by one
            if info is not None and info.bot is not None and info.seat not in table.resigned:
                try:
                    await self.join(new_id, info.seat, info.name, info.bot)
                except TableMoved as exc:
                    if exc.code not in ("seat_taken", "game_started"):
                        raise
        new_token_ = f"{new_id}.{_derived(token, new_id)}"
        info = table.seats[at.seat]
        name = info.name if info is not None else ""
        joined = await self.join(new_id, at.seat, name, None, new_token_, claim=True, entropy=entropy)
        assert joined.token is not None
        return Rematch(new_id, joined.seat, joined.token)

    async def admit(self, client: str | None, now_ms: int) -> None:
        """Refuse a new game past the quotas: open games in total, then tables per client address an hour."""
        if self.max_open_games and await self.index.count("open") >= self.max_open_games:
            raise TooMany(
                "too_many_open_games",
                f"This server already has {self.max_open_games} open games; join one or try again later.",
                {"limit": self.max_open_games},
            )
        await self.quotas.take(self.quotas.games, client, now_ms)

    async def join(
        self,
        game_id: str,
        seat: int | None,
        name: str,
        bot: str | None,
        token: str | None = None,
        claim: bool = False,
        client: str | None = None,
        player: str | None = None,
        entropy: str = "",
    ) -> Joined:
        """Take a seat for a person (who gets its token) or for a bot the server plays (no token:
        the seat's ``bot`` field, in the stream, tells every replica to play it).

        ``token``: the person's token, when the server derived it (a rematch); asking again with
        it answers the seat it already holds. ``claim``: a rematch's person taking the seat kept for it.
        ``client``: the address asking, counted against its hourly seats (none for the server's own).
        ``player``: the signed-in player taking the seat, which then belongs to it (its token acts
        there too); a player holds one seat of a table at most. ``entropy``: what the person's device
        drew for the table's chance (docs/fair-play.md)."""
        if bot is not None:  # in the bots' queue before the seat is: a crash between the two loses no bot
            await self.bots.enlist(game_id, await self.store.now_ms())
        elif token is None:
            token = f"{game_id}.{new_token()}"
        else:
            held = await self.store.seat_for_token(game_id, token_hash(token))
            if held is not None:
                return Joined(held, token)
        if player is not None:
            held = await self.store.seat_for_token(game_id, player_seat_key(player))
            if held is not None:
                raise Conflict("seat_held", f"You already sit at seat {held} of this table.", {"seat": held})
        ctx = await self.games.ctx()
        await self.quotas.take(self.quotas.seats, client, ctx.now_ms)

        def sit_down(game: AnyGame, table: Table) -> list[Any]:
            # The last seat's step deals, from the chance its entropy completes (a table from before
            # fair play: the server's own). A bot's default name: "Greedy bot 2".
            dealt = Ctx(rng=chance(table, entropy) or ctx.rng, now_ms=ctx.now_ms)
            return take_seat(game, table, seat, name, bot, dealt, claim, player, entropy)

        address = await self._rated_address(game_id, client)

        def tokens(events: list[Any]) -> dict[str, int] | None:
            if token is None:
                return None
            held = {token_hash(token): events[0].seat}
            if player is not None:
                held[player_seat_key(player)] = events[0].seat
            if address is not None:
                held[address] = events[0].seat
            return held

        events, _ = await self.games.facts(game_id, sit_down, tokens)
        if player is not None:
            await self.players.sat(player, game_id, events[0].seat, ctx.now_ms)
        return Joined(events[0].seat, token)

    async def _rated_address(self, game_id: str, client: str | None) -> str | None:
        """At a rated table, the entry that keeps the seat taken from ``client``'s address (a person with
        several players at one rated table would rate itself): refused if that address holds one."""
        if client is None:
            return None
        _, table = await self.games.load(game_id)
        if not table.rated:
            return None
        address = address_key(client)
        if await self.store.seat_for_token(game_id, address) is not None:
            raise Conflict(
                "rated_one_per_address",
                "A rated table seats one player from each address; this address holds a seat there already.",
            )
        return address

    async def invite(self, game_id: str, token: str | None, seat: int) -> Invite:
        """The caller's seat, still in the game, offers ``seat`` (a bot plays on for it since its person
        left) to a newcomer: an invitation that seats whoever holds it there, until someone does."""
        at = await self.games.seated(game_id, token)
        if at.seat is None:
            raise Forbidden(
                "spectator",
                "Only a seat still in the game can offer a vacated one; take a seat first.",
                {"case": "offer"},
            )
        invite = f"{game_id}.{new_token()}"

        def offer(game: AnyGame, table: Table) -> list[Any]:
            assert at.seat is not None
            return offer_seat(game, table, seat, at.seat)

        await self.games.facts(game_id, offer, lambda events: {invite_key(invite): seat})
        return Invite(game_id, seat, invite)

    async def take_over(
        self, game_id: str, invite: str, name: str, client: str | None = None, player: str | None = None
    ) -> Joined:
        """A newcomer with an invitation takes the offered seat over from the bot: a token of its own,
        and the seat's whole history as the seat saw it (its feed is the seat's)."""
        seat = await self.store.seat_for_token(game_id, invite_key(invite))
        if seat is None:
            if not await self.store.exists(game_id):
                raise UnknownGame("unknown_game", "There is no game with that id.")
            raise Refused("unknown_invite", "That invitation is not one of this table's.", {"field": "invite"})
        if player is not None:
            held = await self.store.seat_for_token(game_id, player_seat_key(player))
            if held is not None and held != seat:
                raise Conflict("seat_held", f"You already sit at seat {held} of this table.", {"seat": held})
        await self.quotas.take(self.quotas.seats, client, await self.store.now_ms())
        token = f"{game_id}.{new_token()}"

        def sit_down(game: AnyGame, table: Table) -> list[Any]:
            return take_over(game, table, seat, name, player)

        # The seat's former holder (its tokens, its player) no longer acts there once it is taken over.
        former = await self.store.tokens_of_seat(game_id, seat)

        def tokens(events: list[Any]) -> dict[str, int]:
            held = {key: GONE for key in former if not key.startswith("invite:")}
            held[token_hash(token)] = seat
            if player is not None:
                held[player_seat_key(player)] = seat
            return held

        await self.games.facts(game_id, sit_down, tokens)
        if player is not None:
            await self.players.sat(player, game_id, seat, await self.store.now_ms())
        return Joined(seat, token)

    async def census(self) -> dict[str, int]:
        """How many tables the lobby index holds, by status."""
        return {status_: await self.index.count(status_) for status_ in STATUSES}

    async def list_games(
        self, status_: str, limit: int, cursor: int | None, wanted: Wanted | None = None
    ) -> tuple[list[LobbyEntry], int | None]:
        """A page of the tables with ``status_``, oldest first, those ``wanted`` only: at most ``limit``,
        looking at no more than ``SCAN_MOST`` tables a call (the cursor goes on from the last looked at)."""
        found: list[LobbyEntry] = []
        scanned = 0
        while True:
            page = limit if wanted is None else SCAN_PAGE
            ids, next_cursor = await self.index.list_games(status_, page, cursor)
            for game_id in ids:
                meta = await self.store.meta(game_id)
                scanned += 1
                if meta and "sequence" in meta:
                    cursor = int(meta["sequence"])
                entry = entry_from_meta(game_id, meta) if meta else None
                if entry is not None and (wanted is None or wanted.fits(entry)):
                    found.append(entry)
                    if len(found) == limit:
                        more = next_cursor is not None or game_id != ids[-1]
                        return found, cursor if more else None
            if next_cursor is None:
                return found, None
            cursor = next_cursor
            if scanned >= SCAN_MOST:
                return found, cursor

    async def quick_play(
        self, wanted: Wanted, name: str, client: str | None, player: str | None, entropy: str
    ) -> QuickPlayed:
        """A seat at the oldest open table that is ``wanted`` and has a free seat (a player who already
        sits at one that fits keeps that seat), else at a new table of that kind, which others' quick
        play then finds."""
        assert wanted.game is not None
        game = self.hosted(wanted.game)
        cursor: int | None = None
        while True:
            entries, cursor = await self.list_games("open", SCAN_PAGE, cursor, wanted)
            for entry in entries:
                if entry.seats_taken >= entry.players:
                    continue
                if player is not None:  # asking again: the seat it already holds at a table that fits
                    held = await self.store.seat_for_token(entry.game_id, player_seat_key(player))
                    if held is not None:
                        return QuickPlayed(entry.game_id, held, None, opened=False)
                try:
                    joined = await self.join(
                        entry.game_id, None, name, None, client=client, player=player, entropy=entropy
                    )
                except (Conflict, Refused) as exc:  # taken meanwhile, started, kept for a rematch: the next one
                    log.debug("quick play passed %s by: %s", entry.game_id, exc.code)
                    continue
                return QuickPlayed(entry.game_id, joined.seat, joined.token, opened=False)
            if cursor is None:
                break
        size = wanted.players or max(2, game.min_players)
        turn_clock = clock_preset(wanted.clock) if wanted.clock not in (None, "custom") else None
        created = await self.create(
            wanted.game, size, {}, client, turn_clock, rated=bool(wanted.rated), lang=wanted.lang
        )
        joined = await self.join(created.game_id, 0, name, None, client=client, player=player, entropy=entropy)
        return QuickPlayed(created.game_id, joined.seat, joined.token, opened=True, creator_token=created.creator_token)

    async def rebuild_index(self) -> int:
        """The lobby index again from the streams, which are the authority."""
        await self.index.clear()
        count = 0
        for game_id in await self.store.all_game_ids():
            try:
                game, table = await self.games.load(game_id)
            except AppError as exc:  # another program's stream, or a game this server no longer hosts
                log.warning("the lobby index leaves out the stream of %r: %s", game_id, exc)
                continue
            meta = await self.store.meta(game_id)
            sequence = int(meta["sequence"]) if "sequence" in meta else await self.index.next_sequence()
            await self.games.file(game_id, game, table, sequence)
            await self.games.file_windows(game_id, game, table)
            count += 1
        return count

    async def import_log(self, lines: list[bytes], playable: bool = False) -> tuple[str, list[str | None]]:
        """A new game from an exported log: an export of every fact (``server`` or ``everyone``,
        projections/export.py), its commands kept again, or a log of the first format (fact lines alone);
        its id, and a new token for each person's seat when ``playable``.

        A finished game is kept and replayed. ``playable`` (the admin's, for ``ludoteca audit``'s twin
        games) takes an unfinished one too and plays on: each person's seat gets a new token (tokens
        are not part of a log), a bot's seat goes back to the bots; the game is listed as any other
        and never rated."""
        codec, events, table, export = fold_log(self.games.tables.codecs, lines)
        current = status(codec.game, table)
        if current != "finished" and not playable:
            # An unfinished game would come back with no seat tokens: nobody could play it.
            raise Invalid("unfinished_log", "Only the log of a finished game can be imported.", {"field": "log"})
        game_id = secrets.token_hex(GAME_ID_BYTES)
        entry = lobby_entry(codec.game, game_id, table)
        sequence = await self.index.next_sequence()
        now = await self.store.now_ms()  # an imported game is kept a whole retention again
        # An imported game is another copy of a game played elsewhere: the rater leaves it ("imported").
        meta = {**meta_fields(entry), "sequence": sequence, "created_ms": now, "imported": 1}
        if current == "finished":
            meta["finished_ms"] = now
        seated = [s for s in table.seats if s is not None]
        tokens: list[str | None] = [None] * table.players
        if playable:
            for info in seated:
                tokens[info.seat] = None if info.bot is not None else f"{game_id}.{new_token()}"
            if current == "active" and any(info.bot is not None for info in seated):
                await self.bots.enlist(game_id, now)
        held = {token_hash(token): seat for seat, token in enumerate(tokens) if token is not None}
        await self.store.append(
            game_id, 0, [encode(e) for e in events], schema=codec.game.event_schema, meta=meta, tokens=held or None
        )
        steps = [record_of(line.version, line.sent) for line in export.lines if line.sent is not None]
        await self.store.keep_command_records(game_id, dict(steps))  # its export carries them again
        await self.index.file(game_id, entry.status, sequence, now)
        if playable:  # its open windows close by the clock as a played game's do
            await self.games.file_windows(game_id, codec.game, table)
        return game_id, tokens


def _derived(token: str, game_id: str) -> str:
    """A seat's token at ``game_id``, from its token at the game before: unguessable without it."""
    digest = hmac.new(token.encode(), game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


NAME_MOST = 40  # characters, after normalising


def seat_name(name: str) -> str:
    """A name as the table shows it, plain (domain/text.py); 400 past ``NAME_MOST`` characters."""
    cleaned = plain(name)
    if len(cleaned) > NAME_MOST:
        raise Invalid(
            "malformed",
            f"A name has at most {NAME_MOST} characters.",
            {"field": "name", "case": "length", "most": NAME_MOST},
        )
    return cleaned


def fold_log(codecs: Mapping[str, GameCodec], lines: list[bytes]) -> tuple[GameCodec, list[Any], Table, Export]:
    """An exported log's game, events and table, and the export itself (``400 malformed`` for a log that
    is no game, ``400 partial_log`` for a viewpoint's export, which leaves facts out)."""
    if not any(line.strip() for line in lines):
        raise Invalid("malformed", "The log is empty.", {"field": "log", "case": "empty_log"})
    try:
        export = read_export(b"\n".join(lines))
        if export.header is not None and export.header.viewpoint not in WHOLE:
            raise Invalid(
                "partial_log",
                f"A {export.header.viewpoint}'s export leaves facts out: only an export of every fact "
                "(server, or everyone once the game is over) can be imported.",
                {"field": "log", "viewpoint": export.header.viewpoint},
            )
        first = msgspec.json.decode(export.lines[0].event, type=dict)
        codec = codecs[msgspec.convert(first, TableOpened).game]
        # A log written by older code is lifted by the game's upcasters (docs/table-services.md).
        events = export_events(codec.game, export)
    except BAD_JSON as exc:
        raise malformed(exc, prefix="log") from None
    except KeyError:
        raise Invalid(
            "unknown_game_type", "This server does not host that game.", {"field": "log", "case": "log"}
        ) from None
    if any(line.schema > codec.game.event_schema for line in export.lines):
        raise Invalid("malformed", "That log comes from a newer server.", {"field": "log.schema", "case": "newer_log"})
    if [line.version for line in export.lines] != list(range(1, len(export.lines) + 1)):
        raise Invalid(
            "malformed", "Versions must run 1, 2, 3... with no gap.", {"field": "log.version", "case": "log_versions"}
        )
    try:
        table = fold(codec.game, None, events)
    except Exception:  # a log that does not fold is not a game
        raise Invalid("malformed", "Those events do not make a game.", {"field": "log", "case": "not_a_game"}) from None
    assert table is not None
    return codec, events, table, export
