"""The components, loaded once at import from ``cards.json`` (a publisher may swap that file).

The loader checks that the file can carry a whole game for every player count, so a
file that is too small fails at start-up rather than in the middle of a game.
"""

from __future__ import annotations

from importlib import resources

import msgspec

CATEGORIES = ("village", "poster", "stage")
MIN_PLAYERS, MAX_PLAYERS = 2, 6

# Rulebook tables, by player count: cards dealt, and personal-area size at the end.
DEAL = {2: 12, 3: 12, 4: 10, 5: 8, 6: 6}
TARGET = {2: 15, 3: 15, 4: 12, 5: 10, 6: 9}
MIN_BONUS, MAX_BONUS = 2, 3  # "Each player must draw from 2 to 3 bonus cards"


class GameCard(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    year: int
    categories: tuple[str, ...] = ()
    cows: int
    source: str
    ref: str = ""


class BonusCard(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    target: str  # a category ("village", "poster", "stage") or a year ("1982")
    source: str
    ref: str = ""


class CardFile(msgspec.Struct, frozen=True, kw_only=True):
    game_cards: tuple[GameCard, ...]
    bonus_cards: tuple[BonusCard, ...]
    first_editions: tuple[int, ...]  # the years tie-breaker 2 counts ("1965/68")


def cards_needed(players: int) -> int:
    """Game cards so that deck + centre never run dry (see docs: each drawing turn removes one net).

    Every drawing turn needs two cards in deck + centre and leaves one fewer; a player has at
    most ``TARGET - MIN_BONUS`` drawing turns. The last of all those turns needs 2 cards left.
    """
    turns = players * (TARGET[players] - MIN_BONUS)
    return players * DEAL[players] + turns + 1


def bonus_needed(players: int) -> int:
    """Bonus cards so that a player who must take one always finds one face up."""
    return players * MAX_BONUS + 1


def check(data: CardFile) -> None:
    ids = [c.id for c in data.game_cards] + [b.id for b in data.bonus_cards]
    if len(ids) != len(set(ids)):
        raise ValueError("cards.json: card ids must be unique")
    for card in data.game_cards:
        if not set(card.categories) <= set(CATEGORIES) or card.cows < 0:
            raise ValueError(f"cards.json: bad game card {card.id}")
        if card.source not in ("rulebook", "public", "designed"):
            raise ValueError(f"cards.json: {card.id} needs a source")
    years = {str(c.year) for c in data.game_cards}
    for bonus in data.bonus_cards:
        if bonus.target not in CATEGORIES and bonus.target not in years:
            raise ValueError(f"cards.json: bonus card {bonus.id} targets nothing in the deck")
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        if len(data.game_cards) < cards_needed(players) or len(data.bonus_cards) < bonus_needed(players):
            raise ValueError(f"cards.json: too few cards for {players} players")


def load() -> CardFile:
    raw = resources.files(__package__).joinpath("cards.json").read_bytes()
    data = msgspec.json.decode(raw, type=CardFile)
    check(data)
    return data


CARD_FILE = load()
GAME_CARDS: dict[str, GameCard] = {c.id: c for c in CARD_FILE.game_cards}
BONUS_CARDS: dict[str, BonusCard] = {b.id: b for b in CARD_FILE.bonus_cards}
FIRST_EDITIONS = frozenset(CARD_FILE.first_editions)
