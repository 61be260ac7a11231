"""Nothing a viewer receives depends on what is hidden from it, for every game.

For a random game cut at a random version, and a viewer (a seat or the spectator),
gather everything that viewer could receive up to then: the event feed, the table
view, the replay at every version, the legal commands, the steps of building a move
(the first step, as legal-commands and updates carry it, and the steps along random
walks of picks, as POST /moves answers them), and the errors for commands and for
picks naming hidden things. Any string of the stored log that never appears there is
hidden from the viewer. Permuting hidden strings that chance could have exchanged (the
hidden cards of one shuffled pile) throughout the log must change nothing the viewer
receives.
"""

from __future__ import annotations

import random
import re
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import event as note_event
from hypothesis import given
from hypothesis import strategies as st

from domain.catalog import GAMES
from domain.chat import MessageSaid
from domain.engine import AnyGame, Ctx, Pick, Rejected, Step, Viewer
from domain.table import Table, decide, status
from projections.twins import interchangeable, lists_of, played, strings_of, swap, tables
from projections.views import feed, first_step, is_revealed, listed_commands, move_step, table_view

ENCODE = msgspec.json.encode

__all__ = ["interchangeable", "lists_of", "play", "strings_of", "swap", "tables"]  # the suite's other oracles use them


def play(
    game: AnyGame, players: int, seed: int, steps: int, most_events: int = 3_000, options: dict[str, Any] | None = None
) -> list[Any]:
    """The stored log of a random game from ``seed`` (projections/twins.py ``played``); uniformly
    random Itchy Feet rarely ends: there a long game is cut in progress at ``most_events``."""
    return played(game, players, random.Random(seed), steps, options, most_events)


def probes(game: AnyGame, names: list[str]) -> list[Any]:
    """Commands of every type whose string fields name the given things."""
    made = []
    for kind in get_args(game.command_type) or (game.command_type,):
        fields = msgspec.structs.fields(kind)
        for name in names:
            values = {f.name: name for f in fields if f.type is str}
            if len(values) == len(fields):
                made.append(kind(**values))
    return made


WALKS = 3  # random walks of picks from the first step, per viewer
LONGEST_WALK = 16


def walks(game: AnyGame, table: Table, viewer: Viewer) -> list[tuple[tuple[Pick, ...], Step]]:
    """Every step along ``WALKS`` random walks of picks from the first step, with the picks that
    lead to it. The walks' choices come from a generator seeded alike, so where the steps offered
    are the same (as they must be, whatever is hidden), the walks are the same."""
    rng = random.Random(0)
    found: list[tuple[tuple[Pick, ...], Step]] = []
    for _ in range(WALKS):
        picks: tuple[Pick, ...] = ()
        step = move_step(game, table, viewer, picks)
        while True:
            found.append((picks, step))
            going_on = [o for o in step.options if o.command is None]
            if not going_on or len(picks) >= LONGEST_WALK:
                break
            picks = (*picks, rng.choice(going_on).pick)
            step = move_step(game, table, viewer, picks)
    return found


def pick_probes(
    game: AnyGame, table: Table, viewer: Viewer, names: list[str], along: list[tuple[tuple[Pick, ...], Step]]
) -> list[tuple[Pick, ...]]:
    """Picks naming the given things: as a move's type, as each field of every move the first
    step offers, and as the next pick of every step along the walks."""
    kinds = {k.__struct_config__.tag: k for k in get_args(game.command_type) or (game.command_type,)}
    made: list[tuple[Pick, ...]] = []
    first = move_step(game, table, viewer)
    for name in names:
        made.append((Pick("type", name),))
        for option in first.options:
            kind = kinds.get(option.value)
            for field in msgspec.structs.fields(kind) if kind is not None else ():
                made.append((option.pick, Pick(field.encode_name, name)))
        for picks, step in along:
            made += [(*picks, Pick(field, name)) for field in dict.fromkeys(o.field for o in step.options)]
    return made


def received(game: AnyGame, log: list[Any], viewer: Viewer, probe_names: list[str], moves: bool = True) -> bytes:
    """Everything ``viewer`` may be sent about this log, as bytes.

    Without ``moves``: only what the viewer is entitled to know, its feed, its views and its
    complete commands (what the rules accept is no secret). The steps of building a move are
    left out then, so that what they offer is held to that, not taken as known."""
    parts: list[Any] = []
    history = list(tables(game, log))
    final = history[-1]
    revealed = is_revealed(game, final)
    parts.append(feed(game, enumerate(log, 1), viewer, revealed, final))
    parts += [table_view(game, "g", table, viewer) for table in history]
    if viewer is not None and status(game, final) == "active":
        first = move_step(game, final, viewer)  # what legal-commands answers, and the step after each first pick
        parts += [first, listed_commands(game, final, viewer, first)]
        parts += [move_step(game, final, viewer, (option.pick,)) for option in first.options]
        for command in probes(game, probe_names):
            try:
                decide(game, final, command, viewer, Ctx(rng=random.Random(0)))
            except Rejected as exc:
                parts.append([exc.code, exc.message, exc.details])
            else:
                parts.append("accepted")
    if moves:
        parts += move_building(game, final, viewer, probe_names)
    return ENCODE(parts)


def move_building(game: AnyGame, table: Table, viewer: Viewer, probe_names: list[str]) -> list[Any]:
    """What building a move sends ``viewer``: the first step (legal-commands, updates), the
    steps along random walks (POST /moves) and the answers to picks naming the probes."""
    first = move_step(game, table, viewer)
    parts: list[Any] = [first, first_step(game, table, viewer), listed_commands(game, table, viewer, first)]
    along = walks(game, table, viewer)
    parts += [[picks, step] for picks, step in along]
    for picks in pick_probes(game, table, viewer, probe_names, along):
        try:
            parts.append(move_step(game, table, viewer, picks))
        except Rejected as exc:
            parts.append([exc.code, exc.message, exc.details])
    return parts


JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def json_strings(blob: bytes) -> set[bytes]:
    """Every JSON string in ``blob``, quoted as it is there: a hidden string is found among them in
    one pass, where a substring search per string would be quadratic (a game's log holds
    thousands of hashes and salts)."""
    return set(JSON_STRING.findall(blob))


@pytest.mark.parametrize("game_id", sorted(GAMES))
@given(data=st.data())
def test_swapping_what_a_viewer_cannot_see_changes_nothing_it_receives(game_id: str, data: st.DataObject) -> None:
    game = GAMES[game_id]
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    # Mostly games in progress (hidden cards to swap), sometimes played out (nothing hidden) or long.
    steps = data.draw(st.one_of(st.integers(0, 60), st.just(10_000)), label="steps")
    log = play(game, players, data.draw(st.integers(0, 2**32), label="seed"), steps)
    viewer = data.draw(st.sampled_from([None, *range(players)]), label="viewer")
    everything = strings_of(msgspec.to_builtins(log))
    plain = received(game, log, viewer, [], moves=False)
    shown = json_strings(plain)
    hidden = sorted(s for s in everything if ENCODE(s) not in shown)
    if status(game, list(tables(game, log))[-1]) == "finished":
        assert hidden == [], "a finished game reveals everything"
        return
    groups = interchangeable(log, hidden)
    if not groups:
        return
    group = data.draw(st.sampled_from(groups), label="pile")
    renamed = dict(zip(group, data.draw(st.permutations(group), label="permuted"), strict=True))
    sample = data.draw(st.lists(st.sampled_from(hidden), min_size=1, max_size=4, unique=True), label="probes")
    mine = received(game, log, viewer, sample)
    theirs = received(game, swap(game, log, renamed), viewer, sample)
    note_event(f"swapped with {len(hidden)} hidden")
    assert mine == theirs
    named = json_strings(mine)
    for name in set(hidden) - set(sample):  # an error may name what the command or pick named, nothing else
        assert ENCODE(name) not in named, f"{name} is hidden from {viewer} but an error or a step named it"


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("steps", [40, 10_000], ids=["under_way", "played_out"])
def test_a_private_line_reaches_its_two_seats_and_nobody_else_ever(game_id: str, steps: int) -> None:
    """Chat said among random play (projections/twins.py ``played``): a private line's words reach
    its two seats alone, in a game under way and in one played out, where everything else is shown."""
    game = GAMES[game_id]
    players = game.min_players + 1
    log = played(game, players, random.Random(steps), steps, most_events=1_500, chat_every=3)
    lines = [e for e in log if isinstance(e, MessageSaid)]
    assert any(e.to is not None for e in lines) and any(e.to is None for e in lines)
    for viewer in (None, *range(players)):
        shown = json_strings(received(game, log, viewer, [], moves=False))
        for line in lines:
            meant = line.to is None or viewer in (line.seat, line.to)
            assert (ENCODE(line.text) in shown) == meant, (viewer, line)
