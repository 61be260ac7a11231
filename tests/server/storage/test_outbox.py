"""The notifications' outbox on a real Redis: posted items are claimed once per lease, a claim whose
replica died is claimed again when its lease runs out, failures come back later, a player's emails
are spaced and gather what comes meanwhile, and nothing is lost between a claim and a post."""

from __future__ import annotations

import asyncio

from server.storage.connection import Client
from server.storage.outbox import Letter, Outbox, hook_item, mail_item


def hook(notice_id: str) -> Letter:
    return Letter(hook_item(notice_id), f'{{"id":"{notice_id}"}}'.encode())


def mail(player_id: str, notice_id: str) -> Letter:
    return Letter(mail_item(player_id), f'{{"id":"{notice_id}"}}'.encode(), player_id)


async def test_a_posted_item_is_claimed_once_then_again_after_its_lease_runs_out(redis: Client) -> None:
    outbox = Outbox(redis)
    await outbox.post([hook("g.5.0.move"), hook("g.5.0.move")])  # posted twice, kept once
    assert await outbox.waiting() == 1
    [first] = await outbox.claim(lease_ms=300, most=10)
    assert first.item == "w:g.5.0.move" and first.attempt == 1 and first.notice == b'{"id":"g.5.0.move"}'
    assert await outbox.claim(lease_ms=300, most=10) == []  # held by the first claim
    await asyncio.sleep(0.4)  # the claiming replica died mid-send: its lease runs out
    [again] = await outbox.claim(lease_ms=300, most=10)
    assert again.item == first.item and again.attempt == 2
    await outbox.done(again.item)
    assert await outbox.waiting() == 0 and await outbox.claim(lease_ms=300, most=10) == []


async def test_a_failed_delivery_comes_back_later_and_only_its_own_claim_moves_it(redis: Client) -> None:
    outbox = Outbox(redis)
    await outbox.post([hook("n1")])
    [claimed] = await outbox.claim(lease_ms=50, most=1)
    await asyncio.sleep(0.1)
    [stolen] = await outbox.claim(lease_ms=10_000, most=1)  # another replica took it over
    assert not await outbox.later(claimed.item, claimed.attempt, 0)  # the stale claim cannot move it
    assert await outbox.claim(lease_ms=10_000, most=1) == []
    assert await outbox.later(stolen.item, stolen.attempt, 100)
    assert await outbox.claim(lease_ms=10_000, most=1) == []
    await asyncio.sleep(0.15)
    [later] = await outbox.claim(lease_ms=10_000, most=1)
    assert later.attempt == 3
    assert await outbox.later(later.item, later.attempt, 0, counted=False)  # quiet hours: not an attempt
    [after_quiet] = await outbox.claim(lease_ms=10_000, most=1)
    assert after_quiet.attempt == 3


async def test_a_players_emails_are_spaced_and_what_comes_meanwhile_makes_one_digest(redis: Client) -> None:
    outbox = Outbox(redis)
    await outbox.post([mail("p1", "a")])
    [claimed] = await outbox.claim(lease_ms=10_000, most=5)
    assert claimed.item == "m:p1" and claimed.notice == b""
    assert await outbox.mail("p1", 50) == [b'{"id":"a"}']
    await outbox.post([mail("p1", "b")])  # arrives while the first email is being sent
    assert await outbox.mailed("p1", 1, spacing_ms=300) == 1  # "b" waits for the spacing
    await outbox.post([mail("p1", "c")])
    assert await outbox.claim(lease_ms=10_000, most=5) == []
    await asyncio.sleep(0.35)
    [digest] = await outbox.claim(lease_ms=10_000, most=5)
    assert digest.item == "m:p1" and digest.attempt == 1
    assert await outbox.mail("p1", 50) == [b'{"id":"b"}', b'{"id":"c"}']
    assert await outbox.mailed("p1", 2, spacing_ms=0) == 0
    [empty] = await outbox.claim(lease_ms=10_000, most=5)
    assert await outbox.mail("p1", 50) == []
    await outbox.post([mail("p1", "d")])  # posted between the look and the drop: the item stays
    assert not await outbox.drop_mail("p1")
    [kept] = await outbox.claim(lease_ms=10_000, most=5)
    assert kept.item == empty.item and await outbox.mail("p1", 50) == [b'{"id":"d"}']
    await outbox.forget("p1")
    assert await outbox.waiting() == 0 and await outbox.mail("p1", 50) == []


async def test_claims_take_the_earliest_due_and_never_more_than_asked(redis: Client) -> None:
    outbox = Outbox(redis)
    await outbox.post([hook(f"n{i}") for i in range(5)] + [mail("p1", "x"), mail("p2", "y")])
    first = await outbox.claim(lease_ms=10_000, most=4)
    rest = await outbox.claim(lease_ms=10_000, most=10)
    assert len(first) == 4 and len(rest) == 3
    assert {c.item for c in first + rest} == {*(f"w:n{i}" for i in range(5)), "m:p1", "m:p2"}
    assert await outbox.claim(lease_ms=10_000, most=0) == []
