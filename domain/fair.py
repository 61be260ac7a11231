"""Fair play: chance that nobody can stack, and cards each seat can check (docs/fair-play.md).

The construction, in full (a verifier in any language needs nothing else):

- **The server seed.** 32 random bytes the server draws when a table opens. ``TableOpened``
  carries its commitment, ``seed_hash`` = SHA-256(seed) in hex, and the seed itself in a field
  no viewer sees until the table is over (then ``SeedRevealed`` repeats it for everyone).
- **Each seat's entropy.** A string a seat's own device draws (``SeatTaken.entropy``, public;
  the server's bots add none: they could be made to grind it).
- **The table key.** Once every seat has sat: K = HMAC-SHA256(seed, "ludoteca table key" ||
  for each seat in seat order: its entropy's UTF-8 length as 2 bytes, big-endian, then the bytes).
- **Chance for one step.** The step decided on the table at version v draws from the byte stream
  HMAC-SHA256(K, "ludoteca chance" || v as 8 bytes || i as 8 bytes) for i = 0, 1, 2...,
  read 8 bytes at a time as big-endian 64-bit numbers x. A number below n is x mod n, drawing
  again while x >= 2^64 - (2^64 mod n) (no bias); a shuffle is Fisher-Yates from the last place
  down, swapping place i with a number below i + 1. The setup's step is the one of the last seat.
- **Commitments.** Every value a step writes hidden from every seat (a deck's order, tiles set
  aside unseen) is committed in the same step, in a ``DeckCommitted`` fact right after it: its
  items (strings; nested lists flattened in order) as the leaves of a Merkle tree. Item p of the
  commitment at version c has the salt S = the first 16 bytes of HMAC-SHA256(K, "ludoteca salt"
  || c as 8 bytes || p as 4 bytes); its leaf is SHA-256(0x00 || S || p as 4 bytes || item UTF-8);
  a node is SHA-256(0x01 || left || right); a level of odd length passes its last node up as it
  is. ``root`` is the top, in hex.
- **Openings.** When a step shows a committed item to a seat and to nobody else (a card drawn into
  a hand), that seat alone receives its opening in the step's ``CardsOpened`` fact: the
  commitment's version, the item's place, the item, its salt and the sibling hashes from the leaf
  up (the side of each follows from the place and the count). The stored fact keeps the first
  three and the seat; the salt and the path are made from the table key and the commitment's
  items whenever the fact is shown (a few bytes stored where they take several hundred).

Everything here is a pure function; the randomness is the seed's, drawn by the server.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from contextlib import suppress
from typing import Any, NamedTuple

import msgspec

from domain import messages

SEED_BYTES = 32
ENTROPY_MOST = 128  # characters a seat's entropy may have
KEY_LABEL = b"ludoteca table key"
CHANCE_LABEL = b"ludoteca chance"
SALT_LABEL = b"ludoteca salt"
TWO_64 = 1 << 64
HASH = 32  # bytes of a SHA-256 digest
SALT = 16  # bytes of a salt


def seed_hash(seed: str) -> str:
    """The commitment to a server seed (hex): SHA-256 of its bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def table_key(seed: str, entropies: Sequence[str]) -> bytes:
    """K: the server seed keyed over every seat's entropy, in seat order."""
    message = KEY_LABEL + b"".join(len(e.encode()).to_bytes(2, "big") + e.encode() for e in entropies)
    return hmac.digest(bytes.fromhex(seed), message, "sha256")


class Chance:
    """The chance of one step (``domain.engine.Rng``): a byte stream of HMAC-SHA256 blocks in counter
    mode, keyed by the table key and labelled by the version the step is decided on."""

    def __init__(self, key: bytes, version: int) -> None:
        self.mac = hmac.new(key, CHANCE_LABEL + version.to_bytes(8, "big"), "sha256")  # keyed once, copied per block
        self.block = 0
        self.words: list[int] = []

    def number(self) -> int:
        """The next 64-bit number of the stream."""
        if not self.words:
            mac = self.mac.copy()
            mac.update(self.block.to_bytes(8, "big"))
            self.block += 1
            digest = mac.digest()
            self.words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]  # popped from the end
        return self.words.pop()

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each as likely."""
        if not 0 < n <= TWO_64:
            raise ValueError(f"cannot draw below {n}")
        limit = TWO_64 - TWO_64 % n
        while True:
            x = self.number()
            if x < limit:
                return x % n

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step == 0:
            raise ValueError("zero step for randrange()")
        count = (stop - start + step - (1 if step > 0 else -1)) // step
        if count <= 0:
            raise ValueError(f"empty range for randrange({start}, {stop}, {step})")
        return start + step * self.below(count)

    def shuffle(self, x: list[Any]) -> None:
        for i in reversed(range(1, len(x))):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]


# -- the facts ---------------------------------------------------------------------------


class DeckCommitted(messages.Event):
    """The event before this one wrote a value hidden from every seat (a shuffled deck's order):
    its ``count`` items are committed as the leaves of a Merkle tree whose top is ``root``.
    ``items`` (the value, flattened) is hidden from every viewer until the table is over."""

    count: int
    root: str
    items: tuple[str, ...] | None = None


class Opening(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What one seat needs to check one item it was shown against a commitment: the commitment's
    version, the item's place in it, the item, its salt and the sibling hashes from the leaf up."""

    seat: int
    commitment: int
    position: int
    item: str
    # Stored without these two (None): ``shown`` makes them each time the fact is shown. A log
    # written before keeps them stored.
    salt: str | None = None
    path: tuple[str, ...] | None = None


class CardsOpened(messages.Event):
    """The step before this fact showed seats committed items: each seat sees only its own openings
    (the fact closes every step that showed any seat something privately, with or without openings)."""

    openings: tuple[Opening, ...] = ()


class SeedRevealed(messages.Event):
    """The table is over: the server seed, whose hash ``TableOpened.seed_hash`` committed to. With
    every seat's entropy it gives the table key, and with the key every shuffle, draw and salt."""

    seed: str


FAIR_EVENTS: tuple[type[msgspec.Struct], ...] = (DeckCommitted, CardsOpened, SeedRevealed)


class Commitment(msgspec.Struct, frozen=True):
    """A commitment the table keeps, to open its items later: its version, top and items, and the
    places opened so far (in the order they were)."""

    version: int
    root: str
    items: tuple[str, ...]
    opened: tuple[int, ...] = ()


# -- the Merkle tree -----------------------------------------------------------------------


def salt(key: bytes, commitment: int, position: int) -> bytes:
    return hmac.digest(key, SALT_LABEL + commitment.to_bytes(8, "big") + position.to_bytes(4, "big"), "sha256")[:SALT]


def _salted(keyed: hmac.HMAC, position: int) -> bytes:
    keyed.update(position.to_bytes(4, "big"))
    return keyed.digest()[:SALT]


def leaf(salt_: bytes, position: int, item: str) -> bytes:
    return hashlib.sha256(b"\x00" + salt_ + position.to_bytes(4, "big") + item.encode()).digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


EMPTY_ROOT = hashlib.sha256(b"").hexdigest()  # the top of a commitment with no items


class Tree(NamedTuple):
    """A commitment's tree, packed: its items, their salts end to end, and each level's hashes end
    to end, the leaves first (a few kilobytes where a tuple of digests would take three times that)."""

    items: tuple[str, ...]
    salts: bytes
    levels: tuple[bytes, ...]


# The trees of the commitments under way, by key and version, the least recently used first: a
# draw opens one item of a tree of up to a hundred, and its salt and path need every leaf. A tree
# is made again when it has been let go (about 200 us for a hundred items); a pure function's memory.
# Its items are compared too: a step checked and thrown away, or one that lost a race to append, may
# have committed other items at the same version of the same table.
_TREES: OrderedDict[tuple[bytes, int], Tree] = OrderedDict()
_TREES_KEPT = 1024  # two or three for each table played on at once, a few megabytes at most


def tree(key: bytes, commitment: int, items: tuple[str, ...]) -> Tree:
    """A commitment's tree (its items may not be empty)."""
    at = (key, commitment)
    known = _TREES.get(at)
    if known is not None and (known.items is items or known.items == items):
        with suppress(KeyError):  # let go meanwhile by another thread that seals
            _TREES.move_to_end(at)
        return known
    keyed = hmac.new(key, SALT_LABEL + commitment.to_bytes(8, "big"), "sha256")  # copied per item: each salt's
    salts = [_salted(keyed.copy(), p) for p in range(len(items))]  # HMAC without keying it again (1.9 -> 1.3 us)
    level = b"".join(leaf(s, p, item) for p, (s, item) in enumerate(zip(salts, items, strict=True)))
    found = [level]
    while len(level) > HASH:
        up = [node(level[i : i + HASH], level[i + HASH : i + 2 * HASH]) for i in range(0, len(level) - HASH, 2 * HASH)]
        if len(level) // HASH % 2:
            up.append(level[-HASH:])
        level = b"".join(up)
        found.append(level)
    made = Tree(items, b"".join(salts), tuple(found))
    _TREES[at] = made
    if len(_TREES) > _TREES_KEPT:
        _TREES.popitem(last=False)
    return made


def root(key: bytes, commitment: int, items: tuple[str, ...]) -> str:
    return tree(key, commitment, items).levels[-1].hex() if items else EMPTY_ROOT


def path(key: bytes, commitment: int, items: tuple[str, ...], position: int) -> tuple[str, ...]:
    """The sibling hashes from item ``position``'s leaf up to the top."""
    return _siblings(tree(key, commitment, items).levels, position)


def proof(key: bytes, commitment: int, items: tuple[str, ...], position: int) -> tuple[str, tuple[str, ...]]:
    """Item ``position``'s salt (``salt``, in hex) and :func:`path`, from one look at the tree."""
    made = tree(key, commitment, items)
    return made.salts[position * SALT : (position + 1) * SALT].hex(), _siblings(made.levels, position)


def _siblings(levels: tuple[bytes, ...], position: int) -> tuple[str, ...]:
    siblings = []
    for level in levels[:-1]:
        at = (position ^ 1) * HASH
        if at < len(level):
            siblings.append(level[at : at + HASH].hex())
        position //= 2
    return tuple(siblings)


def root_from(leaf_: bytes, position: int, count: int, siblings: Sequence[str]) -> str | None:
    """The top that a leaf at ``position`` of ``count`` and its sibling hashes lead to (``None``: the
    path does not have the length the place and count call for)."""
    if not 0 <= position < count:
        return None
    here, used = leaf_, 0
    while count > 1:
        if position ^ 1 < count:
            if used >= len(siblings):
                return None
            other = bytes.fromhex(siblings[used])
            used += 1
            here = node(here, other) if position % 2 == 0 else node(other, here)
        position //= 2
        count = (count + 1) // 2
    return here.hex() if used == len(siblings) else None


def opens(opening: Opening, committed: DeckCommitted) -> bool:
    """Whether ``opening`` shows its item at its place under ``committed``'s root: what a seat checks."""
    if opening.salt is None or opening.path is None:
        return False
    try:
        made = leaf(bytes.fromhex(opening.salt), opening.position, opening.item)
        return root_from(made, opening.position, committed.count, opening.path) == committed.root
    except ValueError:  # not hex
        return False


def flatten(value: Any) -> tuple[str, ...]:
    """A hidden value's items in order: strings as they are, lists flattened, anything else as JSON."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        return tuple(item for part in value for item in flatten(part))
    return (msgspec.json.encode(value).decode(),)


# -- sealing a step ----------------------------------------------------------------------------


def seal(
    redact: Any,
    players: int,
    key: bytes,
    version: int,
    commitments: tuple[Commitment, ...],
    events: Iterable[Any],
    is_table_fact: Any,
) -> list[Any]:
    """The step's events decided on the table at ``version``, with a ``DeckCommitted`` after each
    value hidden from every seat and, when any event showed a seat something privately, a closing
    ``CardsOpened`` with the openings of the committed items only that seat was shown (each item
    is opened once, from its latest commitment). ``redact`` is the game's."""
    out: list[Any] = []
    made = commitments
    seen: set[tuple[int, int]] = set()  # opened in this step
    openings: list[Opening] = []
    private = False
    for event in events:
        out.append(event)
        if is_table_fact(event):
            continue
        public = redact(event, None)
        if public is event:
            continue  # the same for everyone (the common case: one look-up)
        private = True
        forms = [redact(event, seat) for seat in range(players)]
        for name in event.__struct_fields__:
            value = getattr(event, name)
            if value is None or getattr(public, name) == value:
                continue
            seers = [seat for seat in range(players) if getattr(forms[seat], name) == value]
            if not seers:
                items = flatten(value)
                at = version + len(out) + 1
                commitment = Commitment(at, root(key, at, items), items)
                made = (*made, commitment)
                out.append(DeckCommitted(count=len(items), root=commitment.root, items=items))
                continue
            for item in flatten(value):
                found = _latest(made, item)
                if found is None:
                    continue
                commitment, position = found
                where = (commitment.version, position)
                if where in seen or position in commitment.opened:
                    continue
                seen.add(where)
                openings += [
                    Opening(seat=seat, commitment=commitment.version, position=position, item=item) for seat in seers
                ]
    if private:
        out.append(CardsOpened(openings=tuple(openings)))
    return out


def _latest(commitments: Sequence[Commitment], item: str) -> tuple[Commitment, int] | None:
    for commitment in reversed(commitments):
        if item in commitment.items:
            return commitment, commitment.items.index(item)
    return None


# -- who sees the facts --------------------------------------------------------------------------


def own_openings(event: CardsOpened, viewer: int | None) -> CardsOpened:
    """A seat sees its own openings and no other seat's (the spectator: none)."""
    mine = tuple(o for o in event.openings if o.seat == viewer)
    return event if len(mine) == len(event.openings) else CardsOpened(openings=mine)


def shown(event: CardsOpened, key: bytes, commitments: Sequence[Commitment]) -> CardsOpened:
    """``event`` as it is shown: each opening with its salt and its path, made from the table key and
    the items of its commitment (an opening stored with them, by a log written before, as it is)."""
    if all(o.salt is not None for o in event.openings):
        return event
    return CardsOpened(openings=tuple(o if o.salt is not None else _made(o, key, commitments) for o in event.openings))


def _made(opening: Opening, key: bytes, commitments: Sequence[Commitment]) -> Opening:
    """``opening`` with its salt and path (as it is, if its commitment is none of these: a forged log)."""
    at = opening.commitment
    items = next((c.items for c in reversed(commitments) if c.version == at), None)  # most often a recent one
    if not items or not 0 <= opening.position < len(items):
        return opening
    salt_, path_ = proof(key, at, items, opening.position)
    return Opening(
        seat=opening.seat, commitment=at, position=opening.position, item=opening.item, salt=salt_, path=path_
    )


def stored(event: CardsOpened) -> CardsOpened:
    """``event`` as it is stored now: its openings without their salts and paths."""
    return CardsOpened(openings=tuple(msgspec.structs.replace(o, salt=None, path=None) for o in event.openings))
