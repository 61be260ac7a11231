"""A tiny game for testing deadlines: seat 0 opens a window; seat 1 answers it, or the clock closes it.

It follows the game contract like the real games do, so the server treats it as one.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec.structs import replace

from domain.engine import CLOCK, Awaited, Ctx, Deadline, Game, Outcome, Pick, Rejected, Seat, Step, Viewer
from domain.moves import menu, send

WINDOWS_PER_GAME = 2


class Options(msgspec.Struct, kw_only=True):
    window_ms: Annotated[int, msgspec.Meta(ge=1, le=3_600_000)] = 300  # every number option has bounds


class OpenWindow(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    pass


class Answer(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    pass


class CloseWindow(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    window: str


class WindowOpened(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    window: str
    due_ms: int


class WindowClosed(msgspec.Struct, tag=True, tag_field="type", kw_only=True, frozen=True):
    window: str
    by: str  # "answer" or "clock"


class State(msgspec.Struct, frozen=True, kw_only=True):
    window_ms: int
    window: str | None = None
    due_ms: int = 0
    closed: tuple[str, ...] = ()


class CountdownView(msgspec.Struct, tag="countdown", tag_field="type", kw_only=True):
    window: str | None
    due_ms: int
    closed: list[str]


class CountdownOutcome(Outcome, tag="countdown"):
    pass


Command = OpenWindow | Answer | CloseWindow
Event = WindowOpened | WindowClosed


def initial(players: int, options: Any) -> State:
    return State(window_ms=options.window_ms)


def decide(state: State, command: Command, seat: Seat, ctx: Ctx) -> list[Event]:
    match command:
        case OpenWindow() if seat == 0 and state.window is None:
            window = f"w{len(state.closed) + 1}"
            return [WindowOpened(window=window, due_ms=ctx.now_ms + state.window_ms)]
        case Answer() if seat == 1 and state.window is not None:
            return [WindowClosed(window=state.window, by="answer")]
        case CloseWindow(window=window) if seat == CLOCK:
            if window != state.window:
                raise Rejected("window_closed", "That window is already closed.")
            if ctx.now_ms < state.due_ms:
                raise Rejected("too_early", "That window is not due yet.")
            return [WindowClosed(window=window, by="clock")]
    raise Rejected("not_now", "Not now.")


def evolve(state: State, event: Event) -> State:
    match event:
        case WindowOpened(window=window, due_ms=due_ms):
            return replace(state, window=window, due_ms=due_ms)
        case WindowClosed(window=window, by=by):
            return replace(state, window=None, closed=(*state.closed, f"{window}:{by}"))
    return state


def awaited(state: State) -> list[Awaited]:
    if len(state.closed) >= WINDOWS_PER_GAME:
        return []
    return [Awaited(seat=1, reason="answer")] if state.window else [Awaited(seat=0, reason="open")]


def moves(state: State, seat: Seat, picks: tuple[Pick, ...]) -> Step:
    wanted = [a.reason for a in awaited(state) if a.seat == seat]
    return menu(
        picks,
        {
            "Answer": send(Answer() if wanted == ["answer"] else None),
            "OpenWindow": send(OpenWindow() if wanted == ["open"] else None),
        },
    )


def deadlines(state: State) -> list[Deadline]:
    if state.window is None:
        return []
    return [Deadline(window=state.window, due_ms=state.due_ms, command=CloseWindow(window=state.window))]


def view(state: State, viewer: Viewer) -> CountdownView:
    return CountdownView(window=state.window, due_ms=state.due_ms, closed=list(state.closed))


def outcome(state: State) -> CountdownOutcome | None:
    if len(state.closed) < WINDOWS_PER_GAME:
        return None
    return CountdownOutcome(scores=[0, 0], places=[1, 1], winners=[0, 1])


GAME: Game[State, Command, Event, CountdownOutcome] = Game(
    id="countdown",
    title="Countdown",
    min_players=2,
    max_players=2,
    options_type=Options,
    command_type=Command,
    event_type=Event,
    view_type=CountdownView,
    outcome_type=CountdownOutcome,
    initial=initial,
    setup=lambda state, ctx: [],
    decide=decide,
    evolve=evolve,
    view=view,
    redact=lambda event, viewer: event,
    moves=moves,
    awaited=awaited,
    outcome=outcome,
    deadlines=deadlines,
)
