"""The lobby: opening tables (within the quotas), taking seats, listing tables, and
bringing games in from exported logs or rebuilding the index from the streams."""

from __future__ import annotations

import secrets
from typing import Any

import msgspec

from domain.engine import Rejected
from domain.table import TableOpened, fold, open_table, status, take_seat
from projections.lobby import LobbyEntry, entry_from_meta, lobby_entry, meta_fields
from server.auth import new_token, token_hash
from server.codec import SCHEMA, encode
from server.errors import ApiError, malformed, rejected
from server.games import GAME_ID_BYTES, Games
from server.store import Appended

HOUR_MS = 3_600_000


class Joined(msgspec.Struct):
    seat: int
    token: str


async def create(
    games: Games, kind: str, players: int, options: dict[str, Any], client: str | None = None
) -> LobbyEntry:
    game = games.games.get(kind)
    if game is None:
        raise ApiError(400, "unknown_game_type", f"This server has no game called {kind!r}.", {"field": "game"})
    try:
        opened = open_table(game, players, options)
    except Rejected as exc:
        raise rejected(exc) from None
    game_id = secrets.token_hex(GAME_ID_BYTES)
    table = fold(game, None, [opened])
    assert table is not None
    entry = lobby_entry(game, game_id, table)
    now = await games.store.now_ms()
    await admit(games, client, now)
    sequence = await games.store.next_sequence()
    meta = {**meta_fields(entry), "sequence": sequence, "created_ms": now}
    result = await games.store.append(game_id, 0, [encode(opened)], schema=SCHEMA, meta=meta)
    assert isinstance(result, Appended), "a new game id is never taken"
    await games.store.index(game_id, entry.status, sequence)
    games.remember(game_id, table, result.link)
    return entry


async def admit(games: Games, client: str | None, now_ms: int) -> None:
    """Refuse a new game past the quotas: open games in total, then games per client address an hour."""
    if games.max_open_games and await games.store.count("open") >= games.max_open_games:
        raise ApiError(
            429,
            "too_many_open_games",
            f"This server already has {games.max_open_games} open games; join one or try again later.",
            {"limit": games.max_open_games},
        )
    if games.create_per_hour and client:
        window = now_ms // HOUR_MS
        if await games.store.count_creation(client, window, HOUR_MS // 1000 + 60) > games.create_per_hour:
            retry_after = ((window + 1) * HOUR_MS - now_ms) // 1000 + 1
            raise ApiError(
                429,
                "too_many_games",
                f"This address may open {games.create_per_hour} games an hour; try again later.",
                {"limit": games.create_per_hour, "retry_after": retry_after},
            )


async def join(games: Games, game_id: str, seat: int | None, name: str, bot: str | None) -> Joined:
    for _ in range(games.command_retries):
        game, table = await games.load(game_id)
        try:
            events = take_seat(game, table, seat, name, bot, await games.ctx())
        except Rejected as exc:
            raise rejected(exc) from None
        token = f"{game_id}.{new_token()}"
        taken = events[0].seat
        new_table = fold(game, table, events)
        assert new_table is not None
        entry = lobby_entry(game, game_id, new_table)
        encoded = [encode(e) for e in events]
        result = await games.store.append(
            game_id,
            table.version,
            encoded,
            schema=SCHEMA,
            meta=meta_fields(entry),
            tokens={token_hash(token): taken},
        )
        if isinstance(result, Appended):
            await games.appended(game_id, game, table, new_table, result.link)
            return Joined(taken, token)
        games._conflicted(game_id, table, result)
    raise ApiError(409, "version_conflict", "The table changed while you joined; try again.")


async def list_games(games: Games, status_: str, limit: int, cursor: int | None) -> tuple[list[LobbyEntry], int | None]:
    ids, next_cursor = await games.store.list_games(status_, limit, cursor)
    entries = []
    for game_id in ids:
        meta = await games.store.meta(game_id)
        if meta:
            entries.append(entry_from_meta(game_id, meta))
    return entries, next_cursor


async def rebuild_index(games: Games) -> int:
    """The lobby index again from the streams, which are the authority."""
    await games.store.clear_index()
    count = 0
    for game_id in await games.store.all_game_ids():
        game, table = await games.load(game_id)
        meta = await games.store.meta(game_id)
        sequence = int(meta["sequence"]) if "sequence" in meta else await games.store.next_sequence()
        await games.file(game_id, game, table, sequence)
        await games.schedule(game_id, game, table)
        count += 1
    return count


async def import_log(games: Games, lines: list[bytes]) -> str:
    """A new game from an exported log (JSON lines of ``{"version", "event"}``)."""
    try:
        entries = [LOG_LINE.decode(line) for line in lines if line.strip()]
        if not entries:
            raise ApiError(400, "malformed", "The log is empty.", {"field": "log"})
        kind = msgspec.convert(entries[0].event, TableOpened).game
        codec = games.codecs[kind]
        events = [msgspec.convert(e.event, codec.events_type) for e in entries]
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise malformed(exc, prefix="log") from None
    except KeyError:
        raise ApiError(400, "unknown_game_type", "This server does not host that game.", {"field": "log"}) from None
    if any(e.schema > SCHEMA for e in entries):
        raise ApiError(400, "malformed", "That log comes from a newer server.", {"field": "log.schema"})
    if [e.version for e in entries] != list(range(1, len(entries) + 1)):
        raise ApiError(400, "malformed", "Versions must run 1, 2, 3... with no gap.", {"field": "log.version"})
    try:
        table = fold(codec.game, None, events)
    except Exception:  # a log that does not fold is not a game
        raise ApiError(400, "malformed", "Those events do not make a game.", {"field": "log"}) from None
    assert table is not None
    if status(codec.game, table) != "finished":
        # An unfinished game would come back with no seat tokens: nobody could play it.
        raise ApiError(400, "unfinished_log", "Only the log of a finished game can be imported.", {"field": "log"})
    game_id = secrets.token_hex(GAME_ID_BYTES)
    entry = lobby_entry(codec.game, game_id, table)
    sequence = await games.store.next_sequence()
    now = await games.store.now_ms()  # an imported game is kept a whole retention again
    meta = {**meta_fields(entry), "sequence": sequence, "created_ms": now, "finished_ms": now}
    await games.store.append(game_id, 0, [encode(e) for e in events], schema=SCHEMA, meta=meta)
    await games.store.index(game_id, entry.status, sequence, now)
    return game_id


class LogLine(msgspec.Struct):
    version: int
    event: dict[str, Any]
    schema: int = SCHEMA


LOG_LINE = msgspec.json.Decoder(LogLine)
