"""What a player may be told about a table it sits at, by the rule its seat's feed follows.

A notice is one more viewer's message: every field it carries is copied from that seat's own
table view (:func:`projections.views.table_view`), so it names nothing the seat may not see: the
game, the table, the seat, what the game awaits it for, the version, and once the table is over
its place and how it ended (everything is revealed then), or its rematch. It names no card,
hand, pile or deck, and no other seat's secret.

When a seat is told, from one append (``before`` -> ``after``):

- **awaited**: the game awaits the seat for something it did not await it for before the
  append (its move, a trade offered to it, a window it may answer, a hand to discard down).
  The seat whose own command made the append is not told: it is at the table. The awaited
  seats are public (every view carries them), and a window whose awaited seats the rules hide
  (Itchy Feet's reactions: every other seat may answer, whatever it holds) awaits every seat it
  is open to alike, so each is told the same way;
- **ended**: the table went from open or active to finished, whatever ended it;
- **rematch**: the finished table's rematch was opened.

Only seats a player holds are told (a seat token has nobody to tell), and not a seat that left
the game (a bot plays it on).
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.engine import AnyGame
from domain.table import Abandoned, Table, status
from projections.views import TableView, table_view

Event = Literal["move", "trade", "window", "ended", "rematch"]
EVENTS: Final[tuple[Event, ...]] = ("move", "trade", "window", "ended", "rematch")


class Notice(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat is told of one append: the same for any two tables that differ only in what
    that seat may not see."""

    id: str  # the same every time this notice is sent: a receiver drops one it has seen
    event: Event
    game_id: str
    game: str  # the catalog id
    title: str  # the game's title
    seat: int
    version: int  # the table's version when it happened
    player: str  # the id of the player who holds the seat
    reason: str | None = None  # move, trade, window: what the game awaits the seat for ("action", "trade_answer"...)
    place: int | None = None  # ended: the seat's place (1 is first; seats that tie share one)
    winners: list[int] | None = None  # ended: the seats that won (none: a table called off or played to no end)
    ending: str | None = None  # ended: "cancelled", "resigned" or "too_long" when the game did not reach its own end
    rematch: str | None = None  # rematch: the new table's id


def event_of(reason: str) -> Event:
    """Which of a player's preferences an awaited reason falls under."""
    if reason == "trade_answer":
        return "trade"
    if reason == "react":
        return "window"
    return "move"


def acting_seat(by: str | None) -> int | None:
    """The seat whose person sent the append (``seat:<n>``); ``None`` for a bot, the clock or a table fact."""
    if by is None or not by.startswith("seat:"):
        return None
    number = by.removeprefix("seat:")
    return int(number) if number.isdigit() else None


def player_seats(table: Table) -> dict[int, str]:
    """The seats players hold and are still in the game: seat -> player id."""
    return {
        s.seat: s.player for s in table.seats if s is not None and s.player is not None and s.seat not in table.resigned
    }


def told(game: AnyGame, game_id: str, before: Table | None, after: Table, by: str | None = None) -> list[Notice]:
    """Every notice one append makes (``by``: its sender's scope, ``seat:<n>`` for a person)."""
    players = player_seats(after)
    if not players:
        return []
    was = status(game, before) if before is not None else "open"
    now = status(game, after)
    found: list[Notice] = []
    if now == "active":
        assert after.state is not None
        awaited_before = set()
        if was == "active" and before is not None and before.state is not None:
            awaited_before = {(a.seat, a.reason) for a in game.awaited(before.state)}
        acting = acting_seat(by)
        newly = {}
        for a in game.awaited(after.state):
            fresh = (a.seat, a.reason) not in awaited_before
            if fresh and a.seat in players and a.seat != acting and a.seat not in newly:
                newly[a.seat] = a.reason
        for seat in newly:
            found.append(_notice(game, game_id, after, seat, players[seat], "awaited"))
    elif now == "finished" and was != "finished":
        found += [_notice(game, game_id, after, seat, player, "ended") for seat, player in players.items()]
    if after.rematch is not None and (before is None or before.rematch is None):
        found += [_notice(game, game_id, after, seat, player, "rematch") for seat, player in players.items()]
    return found


def _notice(game: AnyGame, game_id: str, table: Table, seat: int, player: str, what: str) -> Notice:
    """The notice for ``seat``, from its own view of ``table`` and nothing else."""
    seen: TableView = table_view(game, game_id, table, seat)
    reason = place = winners = ending = rematch = None
    if what == "awaited":
        reason = next(a.reason for a in seen.awaiting if a.seat == seat)
        event = event_of(reason)
    elif what == "ended":
        event = "ended"
        ended = seen.outcome
        if ended is not None:
            place, winners = ended.places[seat], list(ended.winners)
            ending = ended.reason if isinstance(ended, Abandoned) else None
    else:
        event, rematch = "rematch", seen.rematch
    return Notice(
        id=notice_id(game_id, seen.version, seat, event), event=event, game_id=seen.game_id, game=seen.game,
        title=game.title, seat=seat, version=seen.version, player=player, reason=reason, place=place,
        winners=winners, ending=ending, rematch=rematch,
    )  # fmt: skip


def notice_id(game_id: str, version: int, seat: int, event: str) -> str:
    """``<game_id>.<version>.<seat>.<event>``: one notice per seat, event and version, whoever sends it."""
    return f"{game_id}.{version}.{seat}.{event}"


def still_awaited(game: AnyGame, table: Table, notice: Notice) -> bool:
    """Whether an ``awaited`` notice still holds: the game under way awaits the seat for that reason."""
    if status(game, table) != "active" or table.state is None:
        return False
    return any(a.seat == notice.seat and a.reason == notice.reason for a in game.awaited(table.state))
