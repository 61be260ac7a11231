"""A table's life outside play: opened, its seats taken, left, offered and taken over, called off,
linked to its rematch, and steps taken back (each decided here, checked against the table)."""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect

from domain import clock, fair
from domain.clock import Clock
from domain.engine import AnyGame, Ctx, Rejected, Seat
from domain.table.evolve import evolve
from domain.table.facts import (
    MOST_UNDOS,
    TAKEOVER_BOT,
    ClockTicked,
    Leaving,
    RematchOpened,
    SeatOffered,
    SeatResigned,
    SeatTaken,
    SeatTakenOver,
    StepsUndone,
    TableCancelled,
    TableOpened,
)
from domain.table.sealing import sealed
from domain.table.state import Table, default_name, status, too_few_remain, undo_versions


def option_bounds(options_type: type[msgspec.Struct]) -> dict[str, tuple[int, int]]:
    """Each number option's least and greatest value, as its field declares them (``msgspec.Meta``
    ``ge`` and ``le``, which the published schema shows as ``minimum`` and ``maximum``). Every number
    option of every game has both (tests/domain/test_catalog.py); the others are booleans."""
    bounds = {}
    for field in msgspec.inspect.type_info(options_type).fields:  # type: ignore[attr-defined]
        kind = field.type.type if isinstance(field.type, msgspec.inspect.Metadata) else field.type
        if isinstance(kind, msgspec.inspect.IntType):
            assert kind.ge is not None and kind.le is not None, f"the option {field.name} has no bounds"
            bounds[field.name] = (kind.ge, kind.le)
    return bounds


def open_table(
    game: AnyGame,
    players: int,
    options: dict[str, Any],
    turn_clock: Clock | None = None,
    reserved: tuple[int, ...] = (),
    reserved_until_ms: int = 0,
    takeover: str = TAKEOVER_BOT,
    seed: str | None = None,
    rated: bool = False,
    lang: str | None = None,
) -> TableOpened:
    """Check a new table's size, options and clock; the fact that opens it (``reserved``: the
    seats a rematch keeps for its people until ``reserved_until_ms``; ``takeover``: the bot
    that plays on a seat that leaves, already checked by the caller, who knows the bots;
    ``seed``: the server seed every shuffle and draw will come from, in hex, committed to here;
    ``rated``: its result counts on its players' ratings)."""
    if turn_clock is not None:
        clock.check(turn_clock)
    if not game.min_players <= players <= game.max_players:
        raise Rejected(
            "bad_players",
            f"{game.title} is played by {game.min_players} to {game.max_players} players.",
            {"field": "players", "title": game.title, "minimum": game.min_players, "maximum": game.max_players},
        )
    unknown = sorted(set(options) - set(game.options_type.__struct_fields__))
    if unknown:
        details = {"field": f"options.{unknown[0]}", "case": "unknown", "option": unknown[0], "title": game.title}
        raise Rejected("bad_options", f"{game.title} has no option {unknown[0]!r}.", details)
    for name, (least, most) in option_bounds(game.options_type).items():
        value = options.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and not least <= value <= most:
            raise Rejected(
                "out_of_bounds",
                f"The option {name} of {game.title} takes a whole number from {least} to {most}.",
                {"field": f"options.{name}", "minimum": least, "maximum": most, "option": name, "title": game.title},
            )
    try:
        decoded = msgspec.convert(options, game.options_type)
    except msgspec.ValidationError as exc:
        details = {"field": "options", "case": "fit", "title": game.title, "reason": str(exc)}
        raise Rejected("bad_options", f"Those options do not fit {game.title}: {exc}.", details) from None
    return TableOpened(
        game=game.id,
        players=players,
        options=msgspec.to_builtins(decoded),
        rules=game.rules_version,
        clock=turn_clock,
        reserved=reserved,
        reserved_until_ms=reserved_until_ms if reserved else 0,
        takeover=takeover,
        seed=seed,
        seed_hash=fair.seed_hash(seed) if seed is not None else None,
        rated=rated,
        lang=lang,
    )


RATED_PLAYERS_ONLY = "A rated table seats players only, and no bots: sit down with a player's token."


def take_seat(
    game: AnyGame,
    table: Table,
    seat: Seat | None,
    name: str,
    bot: str | None,
    ctx: Ctx,
    claim: bool = False,
    player: str | None = None,
    entropy: str = "",
) -> list[Any]:
    """A seat taken (the chosen one, or the first free one); play starts when the last one is.

    A rematch keeps its people's seats for them for a while: only their own claim (``claim``)
    takes a kept seat before ``reserved_until_ms``. A player's seat (``player``, its id) keeps
    no name in the stream. ``entropy``: what the seat's device drew (a bot's seat takes none);
    the setup draws on the chance of every seat's (``chance(table, entropy)``, in ``ctx``)."""
    if table.state is not None:
        raise Rejected("game_started", "This game has already started; every seat is taken.", {"case": "seat"})
    if table.rated and (player is None or bot is not None):
        raise Rejected("rated_needs_players", RATED_PLAYERS_ONLY)
    free = [i for i, s in enumerate(table.seats) if s is None]
    kept = set(table.reserved) if not claim and ctx.now_ms < table.reserved_until_ms else set()
    if seat is None:
        open_seats = [i for i in free if i not in kept]
        if not open_seats:
            raise Rejected("seats_kept", "The free seats are kept for the players of the last game for now.")
        seat = open_seats[0]
    elif not 0 <= seat < table.players:
        raise Rejected(
            "no_such_seat", f"Seats run from 0 to {table.players - 1}.", {"field": "seat", "most": table.players - 1}
        )
    elif seat not in free:
        raise Rejected("seat_taken", f"Seat {seat} is already taken.", {"field": "seat", "seat": seat})
    elif seat in kept:
        raise Rejected(
            "seat_kept",
            f"Seat {seat} is kept for its player from the last game for now.",
            {"field": "seat", "seat": seat},
        )
    if player is not None:
        events: list[Any] = [SeatTaken(seat=seat, player=player, entropy=entropy)]
    else:
        events = [SeatTaken(seat=seat, name=name or default_name(seat, bot), bot=bot, entropy=entropy)]
    if len(free) == 1:
        events += game.setup(game.begin(table.players, table.options, table.rules), ctx)
        if table.clock is not None:
            events.append(ClockTicked(at_ms=ctx.now_ms))
        return sealed(game, table, events)
    return events


def resign(game: AnyGame, table: Table, seat: Seat, reason: Leaving = "resigned", bot: str | None = None) -> list[Any]:
    """``seat`` leaves the game under way; ``bot`` plays it on unless too few would remain."""
    if status(game, table) != "active":
        raise Rejected(
            "game_not_active",
            "Only a game under way can be left; this one has not started or is over.",
            {"case": "leave"},
        )
    if seat in table.resigned:
        raise Rejected("already_resigned", "You have already left this game.")
    left = SeatResigned(seat=seat, reason=reason, bot=bot)
    if too_few_remain(evolve(game, table, left)):
        left = SeatResigned(seat=seat, reason=reason, bot=None)
    return [left]


def offer_seat(game: AnyGame, table: Table, seat: Seat, by: Seat) -> list[Any]:
    """``by`` offers ``seat``, which a bot plays on for since its person left, to a newcomer."""
    if status(game, table) != "active":
        raise Rejected("game_not_active", "Only a seat of a game under way can be offered.", {"case": "offer"})
    held = table.seats[seat] if 0 <= seat < table.players else None
    if held is None or seat not in table.resigned or held.bot is None:
        raise Rejected("seat_not_vacated", "Only a seat a bot plays on for, since its person left, can be offered.")
    if by < 0 or by >= table.players or by in table.resigned:
        raise Rejected("not_yours_to_offer", "The seats still in the game offer a vacated seat.")
    return [SeatOffered(seat=seat, by=by)]


def take_over(game: AnyGame, table: Table, seat: Seat, name: str, player: str | None) -> list[Any]:
    """A newcomer takes the offered ``seat`` over from the bot."""
    if status(game, table) != "active" or seat not in table.offered:
        raise Rejected("seat_not_offered", "That seat is no longer offered: it was taken, or the game is over.")
    if table.rated and player is None:
        raise Rejected("rated_needs_players", RATED_PLAYERS_ONLY)
    if player is not None:
        return [SeatTakenOver(seat=seat, player=player)]
    return [SeatTakenOver(seat=seat, name=name or default_name(seat))]


def cancel(game: AnyGame, table: Table) -> list[Any]:
    """The creator calls off a table that has not started."""
    if table.cancelled or table.state is not None:
        raise Rejected("game_started", "Only a table that has not started can be called off.", {"case": "cancel"})
    return sealed(game, table, [TableCancelled()])


def cancel_by_operator(game: AnyGame, table: Table) -> list[Any]:
    """The server's operator ends a table that has not finished: open or under way, it is over,
    called off (``Abandoned``, ``cancelled``)."""
    if status(game, table) == "finished":
        raise Rejected("game_over", "This game is over.")
    return sealed(game, table, [TableCancelled(by="operator")])


def remove_seat(game: AnyGame, table: Table, seat: Seat) -> list[Any]:
    """The server's operator removes a seat's player from a game under way (``removed``): the
    table's bot plays it on, as for a seat dropped, unless too few would remain."""
    if not 0 <= seat < table.players:
        raise Rejected(
            "no_such_seat", f"Seats run from 0 to {table.players - 1}.", {"field": "seat", "most": table.players - 1}
        )
    if status(game, table) != "active":
        raise Rejected("game_not_active", "Only a seat of a game under way can be removed.", {"case": "remove"})
    if seat in table.resigned:
        raise Rejected("seat_already_left", f"Seat {seat} has already left this game.", {"seat": seat})
    return sealed(game, table, resign(game, table, seat, "removed", table.takeover))


def drop(game: AnyGame, table: Table, seat: Seat) -> list[Any]:
    """A seat away too long leaves the game under way (``dropped``): the table's bot plays it on."""
    return sealed(game, table, resign(game, table, seat, "dropped", table.takeover))


def open_rematch(game: AnyGame, table: Table, game_id: str) -> list[Any]:
    """Link a finished game to its rematch (once)."""
    if status(game, table) != "finished" or table.cancelled:
        raise Rejected("game_not_over", "A rematch is offered once the game is over.")
    return [] if table.rematch is not None else [RematchOpened(game_id=game_id)]


def undo(game: AnyGame, table: Table, seat: Seat, version: int | None = None) -> list[Any]:
    """``seat`` takes back its last step, or every step after ``version``."""
    if status(game, table) != "active":
        raise Rejected("game_not_active", "Only a game under way has steps to take back.", {"case": "undo"})
    if table.undos >= MOST_UNDOS:
        raise Rejected(
            "undo_limit",
            f"You have taken back steps {MOST_UNDOS} times this turn, the most a turn allows: play on.",
            {"most": MOST_UNDOS},
        )
    mine = undo_versions(table, seat)
    if not mine:
        raise Rejected(
            "nothing_to_undo",
            "You have no step to take back: only your own steps of this turn can be, and not past a "
            "draw, a card revealed or another player's move.",
        )
    if version is None:
        version = mine[-1]
    elif version not in mine:
        raise Rejected(
            "cannot_undo",
            f"You can go back to version {', '.join(map(str, mine))}, not {version}.",
            {"field": "version", "versions": mine, "version": version},
        )
    return [StepsUndone(seat=seat, version=version)]
