"""The components, loaded once at import from ``cards.json`` (a publisher may swap that file).

The loader checks the file whole: the rulebook's counts, unique ids, every country's objects in
the deck, known effect codes, and the 54 French-deck faces (a full deck and two jokers).
Code reads effect codes and kinds, never card ids, so renaming a card is a data change only.
"""

from __future__ import annotations

import math
from collections import Counter
from importlib import resources
from typing import Literal

import msgspec

MIN_PLAYERS, MAX_PLAYERS = 2, 6
CardType = Literal["object", "passport", "special", "forbidden", "event", "postcard"]
EXPANSION_TYPES: dict[str, CardType] = {
    "events": "event",
    "special_objects": "special",
    "forbidden_objects": "forbidden",
    "postcards": "postcard",
}
SPECIAL_EFFECTS = {
    "mousetrap": "reaction",
    "wild_object": "held",
    "visa": "held",
    "draw_two": "action",
    "swap_draw": "action",
    "new_country": "action",
    "take_from_discard": "action",
    "draw_one_free": "free",
}
EVENT_EFFECTS = {"duty_free", "lost_luggage", "new_destination", "pass_left"}
POWERS = {"smuggler", "backpacker", "thief", "bargain_hunter", "diplomat", "globetrotter"}
COUNTS: dict[str, int] = {"object": 32, "passport": 12, "special": 9, "forbidden": 3, "event": 4, "postcard": 6}
SUITS = ("spades", "hearts", "diamonds", "clubs")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SOURCES = ("rulebook", "public", "designed")


class Country(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    capital: str
    lat: float
    lon: float
    requires: tuple[str, ...]  # 3 object kinds
    source: str
    ref: str
    coords_source: str
    coords_ref: str


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    type: CardType
    kind: str  # what a trade asks for: objects by name, any passport, any postcard, a Mousetrap...
    effect: str = ""  # special objects and events: the code the rules run
    timing: str = ""  # special objects: reaction, held, action, free; events: drawn
    text: str = ""
    suit: str | None = None  # French deck: spades, hearts, diamonds, clubs, joker
    rank: str | None = None
    source: str
    ref: str


class Character(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    power: str
    text: str
    source: str
    ref: str


class CardFile(msgspec.Struct, frozen=True, kw_only=True):
    hand_limit: int
    start_hand: int
    empty_hand_draw: int
    postcards_to_win: int
    max_rejected_offers: int
    rules_source: str
    french_deck_source: str
    countries: tuple[Country, ...]
    cards: tuple[Card, ...]
    characters: tuple[Character, ...]


def check(data: CardFile) -> None:
    ids = [c.id for c in data.cards] + [c.id for c in data.countries] + [c.id for c in data.characters]
    if len(ids) != len(set(ids)):
        raise ValueError("cards.json: ids must be unique across cards, countries and characters")
    counts = Counter(c.type for c in data.cards)
    if dict(counts) != COUNTS:
        raise ValueError(f"cards.json: card counts {dict(counts)} differ from the rulebook's {COUNTS}")
    if len(data.countries) != 13 or len(data.characters) != 6:
        raise ValueError("cards.json: the rulebook has 13 countries and 6 characters")
    kinds = {c.kind for c in data.cards if c.type == "object"}
    if len(kinds) != COUNTS["object"]:
        raise ValueError("cards.json: every object is a kind of its own")
    sourced: list[tuple[str, str, str]] = [(e.id, e.source, e.ref) for e in data.cards]
    sourced += [(e.id, e.source, e.ref) for e in data.countries] + [(e.id, e.source, e.ref) for e in data.characters]
    for entry_id, source, ref in sourced:
        if source not in SOURCES or not ref:
            raise ValueError(f"cards.json: {entry_id} needs a source and a ref")
    for country in data.countries:
        if len(country.requires) != 3 or len(set(country.requires)) != 3 or not set(country.requires) <= kinds:
            raise ValueError(f"cards.json: {country.id} must require 3 different objects of the deck")
        if country.coords_source not in SOURCES or not -90 <= country.lat <= 90 or not -180 <= country.lon <= 180:
            raise ValueError(f"cards.json: {country.id} needs capital coordinates with a source")
    for card in data.cards:
        if (card.type == "passport" and card.kind != "passport") or (
            card.type == "postcard" and card.kind != "postcard"
        ):
            raise ValueError(f"cards.json: {card.id} has the wrong kind")
        if card.type == "special" and SPECIAL_EFFECTS.get(card.effect) != card.timing:
            raise ValueError(f"cards.json: special object {card.id} has an unknown effect or timing")
        if card.type == "event" and card.effect not in EVENT_EFFECTS:
            raise ValueError(f"cards.json: event {card.id} has an unknown effect")
        if (card.type == "passport") != (card.suit is None):
            raise ValueError(f"cards.json: {card.id}: every card but passports carries a French-deck face")
    faces = Counter((c.suit, c.rank) for c in data.cards if c.suit is not None)
    full = Counter([(s, r) for s in SUITS for r in RANKS] + [("joker", "joker")] * 2)
    if faces != full:
        raise ValueError("cards.json: the suits and numbers must form a French deck of 52 cards and 2 jokers")
    if {c.power for c in data.characters} != POWERS:
        raise ValueError("cards.json: the characters must carry the known powers, one each")


def load() -> CardFile:
    raw = resources.files(__package__).joinpath("cards.json").read_bytes()
    data = msgspec.json.decode(raw, type=CardFile)
    check(data)
    return data


CARD_FILE = load()
CARDS: dict[str, Card] = {c.id: c for c in CARD_FILE.cards}
COUNTRIES: dict[str, Country] = {c.id: c for c in CARD_FILE.countries}
CHARACTERS: dict[str, Character] = {c.id: c for c in CARD_FILE.characters}
HAND_LIMIT = CARD_FILE.hand_limit


def of_type(kind: CardType) -> list[str]:
    return sorted(c.id for c in CARD_FILE.cards if c.type == kind)


def is_type(card: str, kind: CardType) -> bool:
    return CARDS[card].type == kind


def effect(card: str) -> str:
    return CARDS[card].effect


def distance_km(a: str, b: str) -> float:
    """Great-circle distance between two countries' capitals (haversine, mean Earth radius)."""
    ca, cb = COUNTRIES[a], COUNTRIES[b]
    la1, lo1, la2, lo2 = map(math.radians, (ca.lat, ca.lon, cb.lat, cb.lon))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))
