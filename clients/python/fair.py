"""Fair play from a seat's side (docs/fair-play.md): the entropy a device draws when it sits, and the
"deal verified" check of the seat's own cards against the commitments, from the feed alone.

The construction is the server's (docs/fair-play.md, "The construction"), written again here from
that page: a client needs nothing of the server's code to check its cards.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ENTROPY_BYTES = 32
KEY_LABEL = b"ludoteca table key"
SALT_LABEL = b"ludoteca salt"


def new_entropy() -> str:
    """What a seat's device draws when it sits: 32 bytes from the operating system, in hex."""
    return secrets.token_hex(ENTROPY_BYTES)


def leaf(salt: bytes, position: int, item: str) -> bytes:
    return hashlib.sha256(b"\x00" + salt + position.to_bytes(4, "big") + item.encode()).digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from(leaf_: bytes, position: int, count: int, path: Sequence[str]) -> str | None:
    """The top a leaf at ``position`` of ``count`` leads to through ``path`` (``None``: a path of the
    wrong length for that place and count)."""
    if not 0 <= position < count:
        return None
    here, used = leaf_, 0
    while count > 1:
        if position ^ 1 < count:
            if used >= len(path):
                return None
            other = bytes.fromhex(path[used])
            used += 1
            here = node(here, other) if position % 2 == 0 else node(other, here)
        position //= 2
        count = (count + 1) // 2
    return here.hex() if used == len(path) else None


def opens(opening: Mapping[str, Any], commitment: Mapping[str, Any]) -> bool:
    """Whether an opening (from a ``CardsOpened`` fact) shows its item at its place under a
    ``DeckCommitted`` fact's ``root``."""
    try:
        made = leaf(bytes.fromhex(opening["salt"]), opening["position"], opening["item"])
        top = root_from(made, opening["position"], commitment["count"], opening["path"])
        return top is not None and top == str(commitment["root"])
    except (KeyError, TypeError, ValueError):
        return False


@dataclass(frozen=True)
class DealCheck:
    """One of the seat's cards checked: at its place in the commitment made at ``commitment`` (a version)."""

    item: str
    commitment: int
    position: int
    verified: bool


def deal_checks(feed: Iterable[tuple[int, Mapping[str, Any]]], seat: int) -> list[DealCheck]:
    """Every opening the seat was sent in ``feed`` (``(version, event)`` pairs, the seat's own feed),
    each checked against the commitment made before it: a "deal verified" mark per card."""
    commitments: dict[int, Mapping[str, Any]] = {}
    checks = []
    for version, event in feed:
        if event.get("type") == "DeckCommitted":
            commitments[version] = event
        elif event.get("type") == "CardsOpened":
            for opening in event.get("openings") or ():
                if opening.get("seat") != seat:
                    continue
                made = commitments.get(opening["commitment"])
                ok = made is not None and opens(opening, made)
                checks.append(DealCheck(opening["item"], opening["commitment"], opening["position"], ok))
    return checks


def seed_matches(seed: str, seed_hash: str) -> bool:
    """Whether a revealed server seed is the one ``TableOpened.seed_hash`` committed to."""
    try:
        return hashlib.sha256(bytes.fromhex(seed)).hexdigest() == seed_hash
    except ValueError:
        return False


def table_key(seed: str, entropies: Sequence[str]) -> bytes:
    """The table key: the seed keyed over every seat's entropy, in seat order."""
    message = KEY_LABEL + b"".join(len(e.encode()).to_bytes(2, "big") + e.encode() for e in entropies)
    return hmac.digest(bytes.fromhex(seed), message, "sha256")


def salt(key: bytes, commitment: int, position: int) -> str:
    """The salt the table key gives an item (to check an opening's once the seed is revealed)."""
    return hmac.digest(key, SALT_LABEL + commitment.to_bytes(8, "big") + position.to_bytes(4, "big"), "sha256")[
        :16
    ].hex()
