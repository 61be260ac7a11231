"""The data file: the rulebook's counts, a source on every entry, and the loader's checks."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain.miss_liz_parks import components
from domain.miss_liz_parks.components import (
    COMPONENTS,
    PLANNING,
    THEME_IDS,
    TILES,
    ComponentFile,
    InvestmentCard,
    PlanningCard,
    Theme,
    Tile,
    check,
)


def test_95_tiles_16_per_theme_with_its_entrance_and_15_with_no_theme() -> None:
    by_theme = Counter(t.theme for t in TILES.values())
    assert by_theme == {**dict.fromkeys(THEME_IDS, 16), "none": 15}
    entrances = [t for t in TILES.values() if t.type == "Entrance"]
    assert sorted(t.theme for t in entrances) == sorted(THEME_IDS)


def test_the_rulebooks_component_counts() -> None:
    assert COMPONENTS.streets.count == 72
    assert COMPONENTS.employees.per_theme * len(THEME_IDS) == 75
    assert COMPONENTS.theme_tokens.count == 24
    assert COMPONENTS.purchase_tokens.per_theme * len(THEME_IDS) == 20
    assert len(PLANNING) == 16
    assert len(COMPONENTS.investment_cards) == 15
    assert len(COMPONENTS.types) == 8


def test_every_entry_says_where_it_comes_from() -> None:
    entries: list[Tile | PlanningCard | InvestmentCard | Theme] = [
        *COMPONENTS.tiles,
        *COMPONENTS.planning_cards,
        *COMPONENTS.investment_cards,
        *COMPONENTS.themes,
    ]
    for entry in entries:
        assert entry.source in ("rulebook", "public", "designed")
        assert entry.source == "rulebook" or entry.ref, entry.id


def test_the_values_the_rulebook_fixes() -> None:
    western_shops = [t for t in TILES.values() if t.theme == "western-world" and t.type == "Shop"]
    assert len(western_shops) == 3 and all((t.income, t.happiness) == (3, 1) for t in western_shops)
    enchanted_shows = [t for t in TILES.values() if t.theme == "enchanted-castle" and t.type == "Show"]
    assert enchanted_shows and all(t.happiness == 5 for t in enchanted_shows)
    assert sum(1 for t in TILES.values() if t.theme == "western-world" and t.type == "Restaurant") >= 3
    assert all(t.income == 0 for t in TILES.values() if t.type == "Ride")


def test_planning_deck_is_large_enough_for_every_table() -> None:
    for players in range(2, 6):
        for themes in (set(THEME_IDS[:players]), set(THEME_IDS[-players:])):
            assert len(components.planning_deck(themes, players)) > 2 * players


def _raw() -> dict[str, object]:
    return msgspec.json.decode(msgspec.json.encode(COMPONENTS))  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tiles"].pop(), "95 construction tiles"),
        (lambda d: d["tiles"][0].update(source="guess"), "needs a source"),
        (lambda d: d["tiles"][0].update(source="designed", ref=""), "say which source or why"),
        (lambda d: d["tiles"][0].update(type="Roller Coaster"), "unknown theme or type"),
        (lambda d: d["streets"].update(count=70), "streets"),
        (lambda d: d["planning_cards"][5]["objective"].update(kind="luck"), "unknown objective"),
        (lambda d: d["board"].update(reserved=[[9, 9]]), "reserved spaces"),
        (lambda d: d["investment_cards"].pop(), "15 investment cards"),
    ],
)
def test_loader_refuses_a_bad_file(change: object, message: str) -> None:
    data = _raw()
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        check(msgspec.convert(data, ComponentFile))
