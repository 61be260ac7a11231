"""Check values (server/storage/checks.py): HMAC-SHA256 of the history's head under the shared secret."""

from __future__ import annotations

import hmac

import pytest

from server.storage.checks import CHECK_BYTES, Checks
from server.storage.connection import Client
from server.storage.keys import CHECK_SECRET
from server.storage.store import Head


@pytest.mark.parametrize("length", [1, 32, 64, 65, 200])
async def test_a_check_is_the_standard_hmac_of_game_version_and_link(redis: Client, length: int) -> None:
    secret = bytes(range(length))
    await redis.set(CHECK_SECRET.at(), secret)
    checks = Checks(redis)
    await checks.ready()
    head = Head(7, "0123456789abcdef")
    expected = hmac.digest(secret, b"g-1 7 0123456789abcdef", "sha256")[:CHECK_BYTES].hex()
    assert checks.of("g-1", head) == expected
    assert checks.of("g-1", head) == expected  # the keyed hashes are copied, never used up
    assert checks.of("g-2", head) != expected


async def test_no_check_before_the_secret_is_read_or_without_a_link(redis: Client) -> None:
    checks = Checks(redis)
    assert checks.of("g-1", Head(3, "ab")) == ""
    await checks.ready()
    assert checks.of("g-1", Head(0)) == ""
    assert checks.of("g-1", Head(3, "ab")) != ""


async def test_a_new_secret_is_read_again_when_a_check_does_not_match(redis: Client) -> None:
    checks = Checks(redis)
    await checks.ready()
    head = Head(4, "cd")
    await redis.set(CHECK_SECRET.at(), b"another replica's secret")
    other = hmac.digest(b"another replica's secret", b"g-1 4 cd", "sha256")[:CHECK_BYTES].hex()
    assert await checks.matches("g-1", head, other)
    assert checks.of("g-1", head) == other
