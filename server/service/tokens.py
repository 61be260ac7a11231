"""Seat and player tokens: 256 random bits, kept in Redis only as SHA-256 hashes.

A seat token is ``<game_id>.<random>`` and acts at one seat of one game; a player's token is
``player.<random>`` and acts at every seat its player holds (and as the player)."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


PLAYER_PREFIX = "player."


def new_player_token() -> str:
    return PLAYER_PREFIX + new_token()


def is_player_token(token: str) -> bool:
    return token.startswith(PLAYER_PREFIX)


def player_seat_key(player_id: str) -> str:
    """Where a game's tokens keep the seat a player holds (beside its seat tokens' hashes)."""
    return f"player:{player_id}"


def invite_key(invite: str) -> str:
    """Where a game's tokens keep the seat an invitation offers (by the invitation's hash)."""
    return f"invite:{token_hash(invite)}"


def address_key(address: str) -> str:
    """Where a game's tokens keep a seat taken from an address (by the address's hash): a rated table
    seats one player from each address."""
    return f"address:{token_hash(address)}"
