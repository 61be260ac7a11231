"""The components, loaded once at import from ``board.json`` (a publisher may swap that file).

The loader checks the file whole: 20 regions with one black circle each, every circle
reachable from every other, the rating tokens one per region, three photos per region,
the cubes and spaces for every player count. A file that cannot carry a game fails at
start-up rather than in the middle of one.
"""

from __future__ import annotations

from collections import deque
from importlib import resources
from typing import Literal

import msgspec

MIN_PLAYERS, MAX_PLAYERS = 2, 5
GREY, ORANGE = "grey", "orange"
SOURCES = ("rulebook", "public", "designed")

Kind = Literal["backpack", "selfie", "album", "plane", "photo"]
PileKind = Literal["selfie", "album", "plane"]
PILE_KINDS: tuple[PileKind, ...] = ("selfie", "album", "plane")


class Region(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # also the id of its black circle
    name: str
    colour: str
    colour_source: str
    colour_ref: str
    source: str
    ref: str
    x: int
    y: int
    airport: bool = False
    airport_ref: str = ""


class Waypoint(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    x: int
    y: int
    source: str
    ref: str


class Connection(msgspec.Struct, frozen=True, kw_only=True):
    a: str
    b: str
    kind: Literal["land", "sea"]
    source: str
    ref: str


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    price: int
    count: int
    source: str
    ref: str


class Backpacks(msgspec.Struct, frozen=True, kw_only=True):
    value: int
    count: int
    source: str
    ref: str


class Pile(msgspec.Struct, frozen=True, kw_only=True):
    kind: PileKind
    name: str
    count: int
    price: int
    value: int
    source: str
    ref: str


class PhotoValue(msgspec.Struct, frozen=True, kw_only=True):
    alone: int
    with_album: int
    source: str
    ref: str


class PhotoEntry(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    region: str
    name: str
    source: str
    ref: str


class SetSize(msgspec.Struct, frozen=True, kw_only=True):
    default: int
    grey: int


class BoardFile(msgspec.Struct, frozen=True, kw_only=True):
    about: str = ""
    player_colours: tuple[str, ...]
    player_colours_source: str
    cubes: dict[str, int]
    cubes_source: str
    cubes_per_colour: int
    spaces: dict[str, int]
    spaces_source: str
    two_player_full_colours: tuple[str, ...]
    two_player_source: str
    hand_size: int
    hand_size_source: str
    set_size: SetSize
    set_points: int
    set_source: str
    backpacks: tuple[Backpacks, ...]
    piles: tuple[Pile, ...]
    photo_value: PhotoValue
    ratings: tuple[Rating, ...]
    regions: tuple[Region, ...]
    waypoints: tuple[Waypoint, ...]
    connections: tuple[Connection, ...]
    photos: tuple[PhotoEntry, ...]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One card: its kind, its colour (Backpacks and Photos) and its money value."""

    id: str
    kind: Kind
    value: int  # EUR when paying; a Photo's is its value without an Album
    colour: str | None = None
    region: str | None = None  # Photos
    name: str = ""


def _check_sources(data: BoardFile) -> None:
    entries: list[tuple[str, str, str]] = [
        *[(r.id, r.source, r.ref) for r in data.regions],
        *[(r.id, r.colour_source, r.colour_ref) for r in data.regions],
        *[(w.id, w.source, w.ref) for w in data.waypoints],
        *[(f"{c.a}-{c.b}", c.source, c.ref) for c in data.connections],
        *[(r.id, r.source, r.ref) for r in data.ratings],
        *[(f"backpack {b.value}", b.source, b.ref) for b in data.backpacks],
        *[(p.kind, p.source, p.ref) for p in data.piles],
        *[(p.id, p.source, p.ref) for p in data.photos],
        ("photo_value", data.photo_value.source, data.photo_value.ref),
    ]
    for name, source, ref in entries:
        if source not in SOURCES or not ref:
            raise ValueError(f"board.json: {name} needs a source (rulebook, public or designed) and a ref")


def check(data: BoardFile) -> None:
    """Raise ValueError unless the file can carry a game for every player count."""
    _check_sources(data)
    colours = data.player_colours
    if len(colours) < MAX_PLAYERS or len(set(colours)) != len(colours) or {GREY, ORANGE} & set(colours):
        raise ValueError("board.json: five distinct player colours, neither grey nor orange")
    regions = {r.id: r for r in data.regions}
    if len(data.regions) != 20 or len(regions) != 20:
        raise ValueError("board.json: the board has 20 regions with distinct ids")
    for colour in colours:
        if sum(r.colour == colour for r in data.regions) != 3:
            raise ValueError(f"board.json: each player colour is on 3 regions ({colour})")
    if sum(r.colour == GREY for r in data.regions) != 2 or sum(r.colour == ORANGE for r in data.regions) != 3:
        raise ValueError("board.json: grey is on 2 regions and orange on 3")
    circles = [*regions, *(w.id for w in data.waypoints)]
    if len(set(circles)) != len(circles):
        raise ValueError("board.json: circle ids must be unique")
    if not any(r.airport for r in data.regions):
        raise ValueError("board.json: the board needs an airport")
    graph = neighbours_of(data)
    for c in data.connections:
        if c.a not in graph or c.b not in graph or c.a == c.b:
            raise ValueError(f"board.json: connection {c.a}-{c.b} joins unknown circles")
    seen = {circles[0]}
    queue = deque([circles[0]])
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    if len(seen) != len(circles):
        raise ValueError("board.json: every circle must be reachable from every other")
    if sum(r.count for r in data.ratings) != len(data.regions) or any(r.price < 0 for r in data.ratings):
        raise ValueError("board.json: one rating token per region")
    for region in data.regions:
        if sum(p.region == region.id for p in data.photos) != 3:
            raise ValueError(f"board.json: three photos for {region.id}")
    ids = [c.id for c in cards_of(data)]
    if len(ids) != len(set(ids)):
        raise ValueError("board.json: card ids must be unique")
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        cubes, spaces = data.cubes.get(str(players)), data.spaces.get(str(players))
        if cubes is None or spaces is None or not 1 <= cubes <= data.cubes_per_colour or not 1 <= spaces <= 3:
            raise ValueError(f"board.json: cubes and spaces for {players} players")
    if sum(b.count for b in data.backpacks) < data.hand_size or data.hand_size < 1:
        raise ValueError("board.json: a player's starting cards must fill a hand")
    if {p.kind for p in data.piles} != set(PILE_KINDS):
        raise ValueError("board.json: one pile each of Selfie, Album and Plane cards")


def neighbours_of(data: BoardFile) -> dict[str, tuple[str, ...]]:
    graph: dict[str, list[str]] = {r.id: [] for r in data.regions}
    graph.update({w.id: [] for w in data.waypoints})
    for c in data.connections:
        if c.a in graph and c.b in graph:
            graph[c.a].append(c.b)
            graph[c.b].append(c.a)
    return {circle: tuple(sorted(set(near))) for circle, near in graph.items()}


def cards_of(data: BoardFile) -> list[Card]:
    """Every card of the box, with ids made from the file (backpacks and piles are counted)."""
    colour_of = {r.id: r.colour for r in data.regions}
    cards = [
        Card(id=f"backpack-{colour}-{b.value}eur-{n}", kind="backpack", value=b.value, colour=colour)
        for colour in data.player_colours
        for b in data.backpacks
        for n in range(1, b.count + 1)
    ]
    cards += [
        Card(id=f"{p.kind}-{n:02d}", kind=p.kind, value=p.value, name=p.name)
        for p in data.piles
        for n in range(1, p.count + 1)
    ]
    cards += [
        Card(
            id=p.id,
            kind="photo",
            value=data.photo_value.alone,
            colour=colour_of.get(p.region),
            region=p.region,
            name=p.name,
        )
        for p in data.photos
    ]
    return cards


def load() -> BoardFile:
    raw = resources.files(__package__).joinpath("board.json").read_bytes()
    data = msgspec.json.decode(raw, type=BoardFile)
    check(data)
    return data


BOARD = load()
COLOURS: tuple[str, ...] = BOARD.player_colours
REGIONS: tuple[str, ...] = tuple(r.id for r in BOARD.regions)  # board order: state tuples follow it
REGION: dict[str, Region] = {r.id: r for r in BOARD.regions}
REGION_INDEX: dict[str, int] = {r: i for i, r in enumerate(REGIONS)}
NEIGHBOURS: dict[str, tuple[str, ...]] = neighbours_of(BOARD)
CIRCLES: tuple[str, ...] = tuple(NEIGHBOURS)
CONNECTION_KIND: dict[frozenset[str], str] = {frozenset((c.a, c.b)): c.kind for c in BOARD.connections}
AIRPORTS: tuple[str, ...] = tuple(r.id for r in BOARD.regions if r.airport)
RATING: dict[str, Rating] = {r.id: r for r in BOARD.ratings}
RATING_TOKENS: tuple[str, ...] = tuple(r.id for r in BOARD.ratings for _ in range(r.count))
PILE: dict[str, Pile] = {p.kind: p for p in BOARD.piles}
CARDS: dict[str, Card] = {c.id: c for c in cards_of(BOARD)}
PILE_CARDS: dict[str, tuple[str, ...]] = {
    kind: tuple(c.id for c in CARDS.values() if c.kind == kind) for kind in PILE_KINDS
}
PHOTOS: tuple[str, ...] = tuple(p.id for p in BOARD.photos)
BACKPACKS: dict[str, tuple[str, ...]] = {
    colour: tuple(c.id for c in CARDS.values() if c.kind == "backpack" and c.colour == colour) for colour in COLOURS
}
HAND_SIZE = BOARD.hand_size
PHOTO_WITH_ALBUM = BOARD.photo_value.with_album
SET_POINTS = BOARD.set_points


def cubes_for(players: int) -> int:
    return BOARD.cubes[str(players)]


def spaces_for(players: int) -> int:
    return BOARD.spaces[str(players)]


def set_size(colour: str) -> int:
    return BOARD.set_size.grey if colour == GREY else BOARD.set_size.default


def hand_value(cards: tuple[str, ...] | list[str]) -> int:
    """What these cards pay, in EUR (rulebook, "Album Card"; ruling in the docs).

    Backpacks pay their face, Selfie and Plane cards their value, an Album 2 EUR; a Photo pays
    nothing alone and 1 EUR when at least one Album is played with it (each Photo counts once).
    """
    played = [CARDS[c] for c in cards]
    albums = sum(1 for c in played if c.kind == "album")
    photo = PHOTO_WITH_ALBUM if albums else BOARD.photo_value.alone
    return sum(photo if c.kind == "photo" else c.value for c in played)
