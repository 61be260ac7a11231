"""Presence against a real Redis: keys per connection, read by any replica, expiring with a dead one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from server.storage.connection import connect
from server.storage.presence import PRESENCE_CHANNEL, RENEW_BATCH, Here, Presence

GAME = "g1"


async def test_connected_seats_with_their_oldest_connection_and_the_spectators(redis: aioredis.Redis) -> None:
    one, two = Presence(redis), Presence(redis)  # two replicas
    a = await one.arrive(GAME, 0, 1_000)
    await two.arrive(GAME, 0, 2_000)  # the same seat on a second device
    await two.arrive(GAME, 2, 3_000)
    await one.arrive(GAME, None, 4_000)
    assert await one.present(GAME) == Here({0: 1_000, 2: 3_000}, 1)
    await one.leave(a, 5_000)
    assert await two.present(GAME) == Here({0: 2_000, 2: 3_000}, 1)
    assert await one.present("another") == Here({}, 0)


async def test_a_dead_replicas_connections_expire_and_a_live_one_renews_its_own(redis: aioredis.Redis) -> None:
    dead, alive = Presence(redis, ttl_ms=300), Presence(redis, ttl_ms=300)
    await dead.arrive(GAME, 1, 10)
    await alive.arrive(GAME, 0, 20)
    for _ in range(4):
        await asyncio.sleep(0.1)
        await alive.renew()  # the dead replica renews nothing
    assert await alive.present(GAME) == Here({0: 20}, 0)
    assert len(await redis.smembers(f"lt:{{{GAME}}}:present")) == 1  # the expired member was dropped


async def test_a_renewal_keeps_every_connection_of_every_game_in_batches(redis: aioredis.Redis) -> None:
    presence = Presence(redis, ttl_ms=60_000)
    games = [f"g{n}" for n in range(500)]  # 500 games of 4 seats: two batches of connections, then their sets
    for game in games:
        for seat in range(4):
            await presence.arrive(game, seat, 7)
    presence.ttl_ms = 600_000  # what a renewal sets is told from what an arrival set
    await presence.renew()
    for conn, (game, _) in presence.local.items():
        assert await redis.pttl(f"lt:{{{game}}}:presence:{conn}") > 60_000
    for game in games:
        assert await redis.pttl(f"lt:{{{game}}}:present") > 4 * 60_000
        assert await presence.present(game) == Here({s: 7 for s in range(4)}, 0)


async def test_a_socket_that_closes_while_a_renewal_runs_is_not_renewed_back(redis: aioredis.Redis) -> None:
    """Its key is deleted by the close; a later batch of the same renewal must not set it again (the
    socket would show as present for a whole time to live)."""
    presence = Presence(redis, ttl_ms=60_000)
    conns = [await presence.arrive(GAME, seat % 4, 7) for seat in range(RENEW_BATCH + 10)]
    last = conns[-1]  # in the renewal's second batch
    send = presence._send
    closed: list[str] = []

    async def a_close_during_the_first_batch(commands: list[tuple[str | int, ...]]) -> None:
        if not closed:
            await presence.leave(last, 8)  # written to Redis before the batch is answered
            closed.append(last)
        await send(commands)

    presence._send = a_close_during_the_first_batch  # type: ignore[method-assign]
    await presence.renew()
    assert closed
    assert not await redis.exists(f"lt:{{{GAME}}}:presence:{last}")
    assert await redis.pttl(f"lt:{{{GAME}}}:presence:{conns[0]}") > 0


async def test_every_change_is_published_for_the_other_replicas(redis: aioredis.Redis) -> None:
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(PRESENCE_CHANNEL)
    presence = Presence(redis)
    conn = await presence.arrive(GAME, 1, 5)
    await presence.leave(conn, 6)
    got: list[bytes] = []
    while len(got) < 2:
        message = await pubsub.get_message(timeout=2.0)
        if message is not None:
            got.append(message["data"])
    assert got == [GAME.encode(), GAME.encode()]
    close: Callable[[], Awaitable[None]] = pubsub.aclose  # annotated from redis-py 8.2 on, not before
    await close()


async def test_a_thousand_sockets_closing_at_once_take_a_few_round_trips_and_leave_the_pool_to_others(
    redis: aioredis.Redis, redis_url: str
) -> None:
    """A burst of closes (a proxy restarted) is written in batches, one connection at a time:
    meanwhile other requests on the same small pool are served."""
    small = connect(redis_url, max_connections=4, socket_timeout=0.5)
    presence = Presence(small)
    conns = [await presence.arrive(f"g{n % 100}", n % 4 if n % 5 else None, n) for n in range(1000)]
    before = await commands_run(redis)
    others = [small.ping() for _ in range(50)]
    await asyncio.gather(*[presence.leave(c) for c in conns], *others)
    run = await commands_run(redis) - before
    assert run < 1000, f"{run} Redis commands for 1,000 closes (7 or 8 each, one close at a time)"
    assert [await presence.present(f"g{g}") for g in range(100)] == [Here({}, 0)] * 100
    away = await presence.away_since(2**62, limit=1000)
    assert sorted(away) == sorted({(f"g{n % 100}", n % 4) for n in range(1000) if n % 5})  # every seat, once
    await small.aclose()


async def commands_run(redis: aioredis.Redis) -> int:
    stats = await redis.info("commandstats")
    return sum(int(v["calls"]) for v in stats.values())


async def reads(redis: aioredis.Redis) -> int:
    """The read events Redis has processed, one per batch of commands a client sent at once (the
    INFO asking is one of them)."""
    return int((await redis.info("stats"))["total_reads_processed"])


async def test_an_arrival_takes_one_round_trip_and_a_seat_one_more_and_a_table_leaving_two(
    redis: aioredis.Redis,
) -> None:
    """Every socket's opening and closing pays these: the clock, the keys and the publish are one
    script; the away list, which spans games, another call."""
    presence = Presence(redis)
    await presence.arrive("warm", None)  # the scripts are loaded
    before = await reads(redis)
    watcher = await presence.arrive(GAME, None)
    assert await reads(redis) - before == 1 + 1
    before = await reads(redis)
    seats = [await presence.arrive(GAME, seat) for seat in range(4)]
    assert await reads(redis) - before == 4 * 2 + 1
    present = await presence.present(GAME)
    assert list(present.seats) == [0, 1, 2, 3] and present.spectators == 1
    before = await reads(redis)
    await asyncio.gather(*(presence.leave(conn) for conn in seats))
    assert await reads(redis) - before == 2 + 1
    assert await presence.present(GAME) == Here({}, 1)
    assert sorted(await presence.away_since(2**62)) == [(GAME, seat) for seat in range(4)]
    await presence.leave(watcher)
