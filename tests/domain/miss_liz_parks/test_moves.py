"""Building a move pick by pick: the picks of each command, street purchases of any length, and
the contract (tests/domain/contract.py) on parks laid out by hand with every free action open."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.engine import Pick, Rejected, Step
from domain.miss_liz_parks import GAME
from domain.miss_liz_parks.commands import BuyStreets, Command, MoveEmployee, PlaceThemeToken
from domain.miss_liz_parks.components import STREETS, THEME_IDS, TILES
from domain.miss_liz_parks.events import StreetsBuilt
from domain.miss_liz_parks.state import Options, State, empty_cells

from ..contract import accepted, check_complete, check_moves
from .helpers import OCEAN, WESTERN, offered, park, play, start, with_park
from .universe import GRID, OFF_GRID, universe

BUY_STREETS = Pick("type", "BuyStreets")


def cells_picked(*cells: tuple[int, int]) -> list[Pick]:
    return [BUY_STREETS, *(Pick("cells", c) for c in cells)]


def test_daniel_buys_five_streets_in_one_action() -> None:
    """'Daniel wants to build five Streets in his park. He spends his action taking 5 and
    subtracting 5 from his Income Track.' The cells are picked one at a time."""
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    cells = ((3, 3), (2, 3), (1, 3), (4, 2), (4, 1))
    for count in range(1, len(cells) + 1):
        at = GAME.step(state, seat, cells_picked(*cells[:count]))
        assert at.command == BuyStreets(cells=cells[:count])  # send these, or add more
        assert at.options and all(o.value not in cells[:count] for o in at.options)
    state, events = play(state, BuyStreets(cells=cells))
    assert events == [StreetsBuilt(seat=seat, cells=cells, cost=5)]
    assert state.parks[seat].income == 10 - 5 and state.step == "free"
    assert "BuyStreets" not in offered(state, seat)  # the one action is spent


def test_street_cells_run_up_to_what_the_seat_can_pay() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, replace(state.parks[seat], income=3))
    first = GAME.step(state, seat, [BUY_STREETS])
    assert first.command is None and {o.value for o in first.options} == set(empty_cells(state.parks[seat]))
    assert (4, 3) not in {o.value for o in first.options}  # the first street is there
    second = GAME.step(state, seat, cells_picked((3, 3), (2, 3)))
    assert all(o.command == BuyStreets(cells=((3, 3), (2, 3), o.value)) for o in second.options)  # type: ignore[arg-type]
    third = GAME.step(state, seat, cells_picked((3, 3), (2, 3), (0, 0)))
    assert third == Step(command=BuyStreets(cells=((3, 3), (2, 3), (0, 0))))
    with pytest.raises(Rejected) as refused:
        GAME.step(state, seat, cells_picked((3, 3), (3, 3)))
    assert refused.value.code == "not_offered"


def test_street_cells_run_up_to_the_streets_left() -> None:
    state, _ = start(3)
    seat = state.current
    assert seat is not None
    for other in range(state.players):  # the other parks take the streets of the box but two
        lot = state.parks[other]
        room = STREETS - 2 - sum(len(p.streets) for p in state.parks)
        if other != seat and room > 0:
            state = with_park(state, other, replace(lot, streets=lot.streets + tuple(empty_cells(lot)[:room])))
    assert sum(len(p.streets) for p in state.parks) == STREETS - 2
    at = GAME.step(state, seat, cells_picked((3, 3)))
    assert at.command == BuyStreets(cells=((3, 3),))
    assert all(o.command == BuyStreets(cells=((3, 3), o.value)) for o in at.options)  # type: ignore[arg-type]
    assert not accepted(GAME, state, BuyStreets(cells=((3, 3), (2, 3), (1, 3))), seat)


def test_no_street_purchase_without_income() -> None:
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    state = with_park(state, seat, replace(state.parks[seat], income=0))
    assert "BuyStreets" not in offered(state, seat) and "PassRound" in offered(state, seat)


def test_every_purchase_of_up_to_three_cells_in_every_order_is_reached_and_no_other() -> None:
    """A park with ten empty cells: every ordered choice of 1 to 3 cells of them, of the street
    beside the Entrance and of a cell off the grid, decide and the picks agree on each."""
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    mine = state.parks[seat]
    kept_empty = [(0, 0), (0, 6), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (5, 0), (5, 6), (1, 5)]
    fill = tuple(c for c in empty_cells(mine) if c not in kept_empty)
    state = with_park(state, seat, replace(mine, streets=mine.streets + fill))
    pool = [*kept_empty, (4, 3), OFF_GRID[0]]
    candidates: list[Command] = [BuyStreets(cells=c) for size in (1, 2, 3) for c in permutations(pool, size)]
    hits, tried = check_complete(GAME, state, seat, candidates)
    assert (hits, tried) == (10 + 10 * 9 + 10 * 9 * 8, 12 + 12 * 11 + 12 * 11 * 10)
    reached: set[BuyStreets] = set()

    def walk(picks: tuple[Pick, ...]) -> None:
        at = GAME.moves(state, seat, picks)
        if at.command is not None:
            reached.add(at.command)
        if len(picks) < 4:
            for option in at.options:
                walk((*picks, option.pick))

    walk((BUY_STREETS,))
    assert reached == {c for c in candidates if accepted(GAME, state, c, seat)}


def rest_area_park(theme: str = OCEAN) -> State:
    """The seat to play owns an active Rest Area (2 employees), an active Administration still
    holding its reward, a staffed Shop, an unstaffed Ride, a No Theme Shop with a theme token,
    1 employee in supply and 1 theme token in hand (so the Administration's reward cannot go back)."""
    state, _ = start(2)
    seat = state.current
    assert seat is not None
    laid = park(
        theme,
        [
            ((4, 2), "oceanic-rest-area", 2),
            ((4, 4), "oceanic-administration", 1),
            ((3, 2), "oceanic-shop-1", 1),
            ((3, 4), "oceanic-ride-1", 0),
            ((2, 2), "no-theme-shop-1", 1),
        ],
        [(4, 3), (3, 3), (2, 3)],
        income=6,
        employees=1,
        theme_tokens=1,
    )
    admin = replace(laid.buildings[2], reward=(2, 2, 0))
    shop = replace(laid.buildings[5], token=OCEAN)
    laid = replace(laid, buildings=(*laid.buildings[:2], admin, *laid.buildings[3:5], shop))
    return with_park(state, seat, laid)


def test_moving_an_employee_picks_a_source_then_a_target() -> None:
    state = rest_area_park()
    seat = state.current
    assert seat is not None
    sources = GAME.step(state, seat, [Pick("type", "MoveEmployee")])
    # the Administration's employee may not leave: its 2 employees and 2 tokens are no longer all at hand
    assert [o.value for o in sources.options] == [(4, 2), (3, 2), (2, 2)]
    assert all(o.kind == "cell" and o.command is None for o in sources.options)
    targets = GAME.step(state, seat, [Pick("type", "MoveEmployee"), Pick("source", (3, 2))])
    # the unstaffed Entrance and Ride, and the Rest Area, which takes any number
    assert [o.value for o in targets.options] == [(5, 3), (4, 2), (3, 4)]
    assert targets.options[2].command == MoveEmployee(source=(3, 2), target=(3, 4))


def test_a_theme_token_picks_a_building_then_a_theme_it_has_not() -> None:
    state = rest_area_park()
    seat = state.current
    assert seat is not None
    cells = GAME.step(state, seat, [Pick("type", "PlaceThemeToken")])
    # not the Entrance, not the No Theme Shop that already carries a token
    assert [o.value for o in cells.options] == [(4, 2), (4, 4), (3, 2), (3, 4)]
    themes = GAME.step(state, seat, [Pick("type", "PlaceThemeToken"), Pick("cell", (3, 4))])
    assert [o.value for o in themes.options] == [t for t in THEME_IDS if t != OCEAN]
    assert themes.options[0].command == PlaceThemeToken(cell=(3, 4), theme=themes.options[0].value)  # type: ignore[arg-type]


def test_moves_keep_the_contract_in_a_park_with_every_free_action() -> None:
    state = rest_area_park()
    seat = state.current
    assert seat is not None
    rng = random.Random(1)
    for step in ("action", "free"):
        at = replace(state, step=step)
        assert {"AssignEmployee", "MoveEmployee", "PlaceThemeToken"} <= set(offered(at, seat))
        check_moves(GAME, at, rng, {s: universe(at, s, rng) for s in range(2)})


def laid_out(seed: int, options: Options) -> State:
    """A started game whose seat to play has a random park: random tiles on random cells, staffed
    at random, random streets, tokens, rewards held, supplies and income; at its action or after it."""
    rng = random.Random(seed)
    state, _ = start(2 + seed % 4, options=options)
    seat = state.current
    assert seat is not None
    theme = state.parks[seat].theme or WESTERN
    cells = [c for c in GRID if c != (5, 3)]
    rng.shuffle(cells)
    tiles = rng.sample(sorted(t for t in TILES if TILES[t].type != "Entrance"), rng.randrange(0, 14))
    built = [(cells.pop(), tile, rng.choice((0, 0, 1, 2 if TILES[tile].type == "Rest Area" else 1))) for tile in tiles]
    streets = [(4, 3), *cells[: rng.randrange(0, len(cells) + 1)]]
    laid = park(
        theme,
        built,
        streets,
        income=rng.randrange(0, 14),
        employees=rng.randrange(0, 4),
        theme_tokens=rng.randrange(0, 3),
        purchase_tokens=2,
        tokens_used=rng.randrange(0, 3),
        invested=rng.randrange(0, 11) if options.investment else 0,
    )
    buildings = list(laid.buildings)
    for i, b in enumerate(buildings):
        if TILES[b.tile].type in ("Administration", "Board of Directors") and b.employees and rng.random() < 0.7:
            buildings[i] = replace(b, reward=(rng.randrange(0, 3), rng.randrange(0, 3), rng.randrange(0, 2)))
        elif i > 0 and rng.random() < 0.2:  # not the Entrance
            buildings[i] = replace(b, token=rng.choice(THEME_IDS))
    state = with_park(state, seat, replace(laid, buildings=tuple(buildings)))
    return replace(state, step=rng.choice(("action", "free")))


@given(seed=st.integers(min_value=0, max_value=2**32 - 1), investment=st.booleans())
def test_moves_keep_the_contract_in_random_laid_out_parks(seed: int, investment: bool) -> None:
    state = laid_out(seed, Options(investment=investment))
    seat = state.current
    assert seat is not None
    rng = random.Random(seed)
    check_moves(GAME, state, rng, {seat: universe(state, seat, rng)}, nodes=40)
