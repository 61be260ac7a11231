"""The data file: every value has a source, the map is whole, the components match the rulebook."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain.i_love_portugal.cards import (
    AIRPORTS,
    BOARD,
    CARDS,
    NEIGHBOURS,
    PILE,
    REGION,
    REGIONS,
    SOURCES,
    BoardFile,
    Region,
    Waypoint,
    check,
)

MAINLAND = {
    "aveiro", "beja", "braga", "braganca", "castelo-branco", "coimbra", "evora", "faro", "guarda",
    "leiria", "lisboa", "portalegre", "porto", "santarem", "setubal", "viana-do-castelo", "vila-real", "viseu",
}  # fmt: skip


def test_the_board_has_portugals_18_districts_madeira_and_the_azores() -> None:
    assert set(REGIONS) == MAINLAND | {"madeira", "acores"}


def test_every_entry_names_its_source() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(BOARD))
    for key in ("regions", "waypoints", "connections", "ratings", "backpacks", "piles", "photos"):
        for entry in raw[key]:
            assert entry["source"] in SOURCES and entry["ref"], entry
    for region in BOARD.regions:
        assert region.colour_source in SOURCES and region.colour_ref


def test_colours_purple_beja_aveiro_leiria_grey_islands_three_per_player_colour() -> None:
    assert {r for r in REGIONS if REGION[r].colour == "purple"} == {"beja", "aveiro", "leiria"}
    assert {r for r in REGIONS if REGION[r].colour == "grey"} == {"madeira", "acores"}
    counts = Counter(REGION[r].colour for r in REGIONS)
    assert counts == {c: 3 for c in BOARD.player_colours} | {"grey": 2, "orange": 3}


def test_airports_are_the_real_international_ones() -> None:
    assert set(AIRPORTS) == {"lisboa", "porto", "faro", "madeira", "acores"}


def test_every_region_is_reachable_from_every_other() -> None:
    for start in REGIONS:
        seen, todo = {start}, [start]
        while todo:
            for nxt in NEIGHBOURS[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert set(REGIONS) <= seen


def test_islands_are_reached_by_sea_only() -> None:
    kinds = {c.kind for c in BOARD.connections if {c.a, c.b} & {"madeira", "acores"} or "madeira" in c.a}
    assert kinds == {"sea"}


def test_every_circle_has_coordinates() -> None:
    items: list[Region | Waypoint] = [*BOARD.regions, *BOARD.waypoints]
    for item in items:
        assert 0 <= item.x <= 1200 and 0 <= item.y <= 1400


def test_components_match_the_rulebook() -> None:
    kinds = Counter(c.kind for c in CARDS.values())
    assert kinds == {"backpack": 50, "selfie": 25, "album": 20, "plane": 20, "photo": 60}
    assert Counter(c.region for c in CARDS.values() if c.kind == "photo") == {r: 3 for r in REGIONS}
    assert sorted(r.count for r in BOARD.ratings) == [2, 6, 6, 6]
    assert PILE["plane"].price == 6 and PILE["plane"].value == 3 and PILE["album"].value == 2
    assert BOARD.cubes_per_colour == 13


def broken(**changes: object) -> BoardFile:
    raw = msgspec.json.decode(msgspec.json.encode(BOARD))
    raw.update(changes)
    return msgspec.convert(raw, BoardFile)


def test_the_loader_refuses_a_region_cut_off_from_the_rest() -> None:
    keep = [c for c in msgspec.to_builtins(BOARD.connections) if "faro" not in (c["a"], c["b"])]
    keep = [c for c in keep if not c["a"].startswith("faro~") and not c["b"].startswith("faro~")]
    with pytest.raises(ValueError, match="reachable"):
        check(broken(connections=keep))


def test_the_loader_refuses_wrong_counts_and_missing_sources() -> None:
    with pytest.raises(ValueError, match="20 regions"):
        check(broken(regions=msgspec.to_builtins(BOARD.regions[:19])))
    with pytest.raises(ValueError, match="three photos"):
        check(broken(photos=msgspec.to_builtins(BOARD.photos[1:])))
    with pytest.raises(ValueError, match="one rating token per region"):
        check(broken(ratings=msgspec.to_builtins(BOARD.ratings[1:])))
    ratings = msgspec.to_builtins(BOARD.ratings)
    ratings[0]["source"] = "folklore"
    with pytest.raises(ValueError, match="source"):
        check(broken(ratings=ratings))
