"""The data file: every value has a source, and the deck is big enough for every table size."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.vilar_de_mouros.cards import (
    BONUS_CARDS,
    CARD_FILE,
    CATEGORIES,
    DEAL,
    GAME_CARDS,
    MIN_BONUS,
    TARGET,
    BonusCard,
    GameCard,
    bonus_needed,
    cards_needed,
    check,
)
from domain.vilar_de_mouros.state import bonus_count

from .helpers import bonus_turn, draw_turn, start

EDITIONS = {1965, 1968, 1971, 1982, 1996, 1999, *range(2000, 2007), *range(2014, 2100)}


def test_every_card_names_its_source() -> None:
    cards: list[GameCard | BonusCard] = [*CARD_FILE.game_cards, *CARD_FILE.bonus_cards]
    for card in cards:
        assert card.source in ("rulebook", "public", "designed"), card.id
        assert card.ref, f"{card.id} must say which source or why it was designed"


def test_palco_historico_is_the_rulebooks_card() -> None:
    palco = GAME_CARDS["1982-palco-historico"]
    assert (palco.name, palco.year, set(palco.categories), palco.source) == (
        "Palco Histórico",
        1982,
        {"village", "stage"},
        "rulebook",
    )


def test_card_years_are_real_editions() -> None:
    assert {card.year for card in GAME_CARDS.values()} <= EDITIONS


def test_every_year_and_category_can_make_a_collection() -> None:
    for target in {str(c.year) for c in GAME_CARDS.values()} | set(CATEGORIES):
        members = [c for c in GAME_CARDS.values() if target in (str(c.year), *c.categories)]
        assert len(members) >= 3, target


def test_every_bonus_card_targets_a_year_or_category_in_the_deck() -> None:
    years = {str(c.year) for c in GAME_CARDS.values()}
    assert all(b.target in years or b.target in CATEGORIES for b in BONUS_CARDS.values())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deck_and_centre_never_run_out(players: int) -> None:
    """Each drawing turn takes 2 cards from deck + centre and gives 1 back. A player has at most
    TARGET - 2 drawing turns (2 bonus cards are required), so the last drawing turn of the game still
    finds 2 cards when the deck holds players * (DEAL + TARGET - 2) + 1 cards."""
    worst = players * DEAL[players] + players * (TARGET[players] - MIN_BONUS) + 1
    assert cards_needed(players) == worst <= len(GAME_CARDS)
    # Play that worst case: every player draws in every turn until the 2 forced bonus turns.
    state, _ = start(players, seed=players)
    drawing_turns = 0
    while state.phase != "over":
        seat = state.current
        assert seat is not None
        if len(state.personal[seat]) < TARGET[players] - MIN_BONUS:
            assert len(state.deck) + len(state.centre) >= 2
            state = draw_turn(state)
            drawing_turns += 1
        else:
            state = bonus_turn(state)
    assert drawing_turns == players * (TARGET[players] - MIN_BONUS)
    assert len(state.deck) + len(state.centre) == len(GAME_CARDS) - players * DEAL[players] - drawing_turns
    assert [bonus_count(state, s) for s in range(players)] == [MIN_BONUS] * players


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_enough_bonus_cards_for_every_player(players: int) -> None:
    """At most 3 per player are ever taken; one more keeps a card face up for anyone still short."""
    assert len(BONUS_CARDS) >= bonus_needed(players) == 3 * players + 1


def test_a_card_file_too_small_is_refused() -> None:
    gone = [c.id for c in CARD_FILE.game_cards if c.year == 1982][-4:]
    small = replace(CARD_FILE, game_cards=tuple(c for c in CARD_FILE.game_cards if c.id not in gone))
    assert len(small.game_cards) == 80
    with pytest.raises(ValueError, match="too few cards"):
        check(small)
    with pytest.raises(ValueError, match="unique"):
        check(replace(CARD_FILE, bonus_cards=(*CARD_FILE.bonus_cards, CARD_FILE.bonus_cards[0])))
