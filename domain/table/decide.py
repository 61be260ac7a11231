"""A seat's command at the table: checked against the table (started, not over, the seat awaited),
then handed to the game's rules, its clock ticked and its facts sealed; the turn clock's own
commands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain import chat, clock
from domain.chat import CHAT_COMMAND_TYPES
from domain.engine import CLOCK, NOT_STARTED, AnyGame, Ctx, Deadline, Rejected, Seat
from domain.table.facts import (
    ClockTicked,
    KeepWaiting,
    LetBotPlayOn,
    Resign,
    TimeExtended,
    TimeRanOut,
    TimeUp,
    Undo,
    Undoable,
)
from domain.table.lifecycle import resign, undo
from domain.table.sealing import Decision, decision_of, sealed_decision
from domain.table.state import Abandoned, Table, outcome, status
from domain.undo import RecordingRng, can_undo


def decide(game: AnyGame, table: Table, command: Any, seat: Seat, ctx: Ctx) -> list[Any]:
    """A seat's command, checked against the table first and then the game's rules; its facts
    sealed for fair play (``sealed``). Chat is not play: it draws nothing and ticks no clock."""
    return decision(game, table, command, seat, ctx).events


def decision(game: AnyGame, table: Table, command: Any, seat: Seat, ctx: Ctx) -> Decision:
    """``decide``, with the table the step leads to."""
    if type(command) in CHAT_COMMAND_TYPES:
        return decision_of(game, table, chat_decided(game, table, command, seat))
    return sealed_decision(game, table, _decided(game, table, command, seat, ctx))


def chat_decided(game: AnyGame, table: Table, command: Any, seat: Seat) -> list[Any]:
    """A seat's chat command: at a table open or under way (a finished table's stream is closed)."""
    if status(game, table) == "finished":
        raise Rejected("game_over", "This game is over.")
    return chat.decide(table.chat, command, seat, table.players, people(table))


def spectator_chat(game: AnyGame, table: Table, text: str, player: str) -> list[Any]:
    """A watching player's message on the spectators' channel (a player still seated says it as its seat)."""
    if any(s is not None and s.player == player and s.seat not in table.resigned for s in table.seats):
        raise Rejected("not_a_spectator", "You sit at this table: say it to the table as your seat.")
    if status(game, table) == "finished":
        raise Rejected("game_over", "This game is over.")
    return chat.spectator_said(table.chat, text, table.players, player)


def people(table: Table) -> list[Seat]:
    """The seats a person holds, still in the game."""
    return [s.seat for s in table.seats if s is not None and s.bot is None and s.seat not in table.resigned]


def _decided(game: AnyGame, table: Table, command: Any, seat: Seat, ctx: Ctx) -> list[Any]:
    current = status(game, table)
    if current == "open":
        raise Rejected("game_not_started", NOT_STARTED)
    if current == "finished":
        ended = outcome(game, table)
        if isinstance(ended, Abandoned) and ended.reason == "too_long":
            raise Rejected(
                "game_too_long",
                f"This game has gone on for {table.version} moves and events, the most a game of {game.title} "
                "may have: it is over with no winner, and nothing more can be played.",
                {"most": game.most_events, "version": table.version, "title": game.title},
            )
        raise Rejected("game_over", "This game is over.")
    if isinstance(command, TimeUp):
        return time_up(game, table, command, seat, ctx)
    if isinstance(command, KeepWaiting | LetBotPlayOn):
        return ticked(table, choose_after_timeout(game, table, command, seat), seat, ctx)
    if isinstance(command, Resign):
        events = resign(game, table, seat, bot=table.takeover)
    elif isinstance(command, Undo):
        events = undo(game, table, seat, command.version)
    else:
        check_awaited(game, table.state, seat, seat_names(table))
        rng = RecordingRng(ctx.rng)
        events = game.decide(table.state, command, seat, Ctx(rng=rng, now_ms=ctx.now_ms))
        if (
            seat >= 0
            and (game.undoable is None or type(command) in game.undoable)
            and can_undo(game, table.players, seat, table.state, events, rng.used)
        ):
            events = [Undoable(seat=seat, events=len(events)), *events]
    return ticked(table, events, seat, ctx)


def check_awaited(game: AnyGame, state: Any, seat: Seat, names: Sequence[str] = ()) -> None:
    """The seat guard, the same for every game and derived from ``awaited``: a command from a
    seat the game does not await is refused here, naming whom it awaits. A seat awaited for
    something else (a reaction, while its turn's action is due) gets the game's own answer.

    The clock (``CLOCK``) is awaited while the game has a window open (its deadlines): which
    window, and whether its time has come, the game judges."""
    if seat == CLOCK:
        if not game.deadlines(state):
            raise Rejected("window_closed", "No window of the game is open for the clock to close.", {"case": "none"})
        return
    awaited = game.awaited(state)
    if any(a.seat == seat for a in awaited):
        return
    seats = list(dict.fromkeys(a.seat for a in awaited))
    details: dict[str, Any] = {"awaiting": seats, "names": _names(seats, names)}
    if len(seats) == 1:
        details["turn"] = seats[0]
    raise Rejected("not_your_turn", f"It is not your turn: the game awaits {_whom(seats, names)}.", details)


def _names(seats: Sequence[Seat], names: Sequence[str]) -> list[str]:
    """The names of ``seats`` (``Player 2`` for a seat without a name): the refusal's parameter, so that any
    language can say whom the game awaits."""
    return [names[s] if s < len(names) and names[s] else f"Player {s + 1}" for s in seats]


def _whom(seats: Sequence[Seat], names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Rui``, ``Ana, Rui, and Eva``: the English list (CLDR's, as the catalogs render it)."""
    if not seats:
        return "nobody now"
    told = _names(seats, names)
    if len(told) < 3:
        return " and ".join(told)
    return f"{', '.join(told[:-1])}, and {told[-1]}"


def seat_names(table: Table) -> list[str]:
    return [s.name if s is not None else "" for s in table.seats]


def decide_game(game: AnyGame, state: Any, command: Any, seat: Seat, ctx: Ctx, names: Sequence[str] = ()) -> list[Any]:
    """A game's own decide behind the table's guards, for callers that hold a bare game state
    (tests, bots imagining a move): a game that is over, or a seat that is not awaited, is refused."""
    if game.outcome(state) is not None:
        raise Rejected("game_over", "This game is over.")
    if seat != CLOCK and not game.awaited(state):  # at rest, only before the opening facts
        raise Rejected("game_not_started", NOT_STARTED)
    check_awaited(game, state, seat, names)
    return game.decide(state, command, seat, ctx)


def ticked(table: Table, events: list[Any], seat: Seat | None, ctx: Ctx) -> list[Any]:
    """A step's events, closed by the clock's tick when the table has a clock."""
    if table.clock is None or not events:
        return events
    return [*events, ClockTicked(at_ms=ctx.now_ms, seat=seat if seat is not None and seat >= 0 else None)]


def time_up(game: AnyGame, table: Table, command: TimeUp, seat: Seat, ctx: Ctx) -> list[Any]:
    """A seat's clock ran out: its default move is played, or it leaves the game."""
    if seat != CLOCK:
        raise Rejected("not_the_clock", "Only the clock says when time is up.")
    late = late_seat(table, command.window)
    if table.clock is None or table.clocks is None or late is None:
        raise Rejected("window_closed", "That clock is no longer running.", {"case": "clock"})
    due = clock.due_ms(table.clock, table.clocks, late)
    if due is None or ctx.now_ms < due:
        raise Rejected("not_yet", "That clock has time left.")
    if table.clock.on_timeout == "time_out":
        return ticked(
            table, [TimeRanOut(seat=late), *resign(game, table, late, "timed_out", table.takeover)], late, ctx
        )
    if table.clock.on_timeout == "ask":  # the seat is never dropped silently: the others choose
        return ticked(table, [TimeRanOut(seat=late)], None, ctx)
    if command.move is None:
        raise Rejected(
            "no_default_move", "A default move is needed when time runs out.", {"field": "move", "case": "missing"}
        )
    try:
        move = msgspec.convert(command.move, game.command_type)
    except msgspec.ValidationError as exc:
        details = {"field": "move", "case": "invalid", "reason": str(exc)}
        raise Rejected("no_default_move", f"That default move is not a command: {exc}.", details) from None
    played = [e for e in _decided(game, table, move, late, ctx) if not isinstance(e, Undoable)]  # no taking it back
    return [TimeRanOut(seat=late), *played]


def choose_after_timeout(game: AnyGame, table: Table, command: KeepWaiting | LetBotPlayOn, seat: Seat) -> list[Any]:
    """Another seat's choice for a seat whose time ran out: wait for it, or let the bot play on."""
    late = command.seat
    if late not in table.out_of_time:
        raise Rejected(
            "not_out_of_time", f"Seat {late} has time left; nothing to choose.", {"field": "seat", "seat": late}
        )
    if seat < 0 or seat == late or seat in table.resigned:
        raise Rejected("not_yours_to_choose", "The other seats still in the game choose for a seat out of time.")
    if isinstance(command, KeepWaiting):
        return [TimeExtended(seat=late, by=seat)]
    return resign(game, table, late, "timed_out", table.takeover)


def late_seat(table: Table, window: str) -> Seat | None:
    """The seat whose running clock is ``window`` (None: no clock runs under that name)."""
    clocks = table.clocks
    return next((s for s in range(table.players) if clocks and clock.window(clocks, s) == window), None)


def deadlines(game: AnyGame, table: Table) -> list[Deadline]:
    """Every window of the table that closes by itself: the game's own, and running clocks."""
    if status(game, table) != "active":
        return []
    found = list(game.deadlines(table.state))
    if table.clock is not None and table.clocks is not None:
        for seat in range(table.players):
            due = clock.due_ms(table.clock, table.clocks, seat)
            if due is not None:
                window = clock.window(table.clocks, seat)
                found.append(Deadline(window=window, due_ms=due, command=TimeUp(window=window)))
    return found
