"""The garbage collector's policy: survivors of every collection are frozen, a census in a copy of
the process counts the cycles among them, a thaw collects them, and stopping gives the process
its collector back as it was."""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import socket
import time
import weakref
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.runtime.collector import PAUSE, THRESHOLDS, YOUNG, Collector, follow


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


async def frozen_cycle() -> weakref.ref[Node]:
    """Two objects that refer to each other, frozen while alive, then dropped: garbage only a
    collection of the frozen finds (a running collector's callback freezes on the loop's turn)."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    ref = weakref.ref(a)
    gc.collect()
    await asyncio.sleep(0)
    del a, b
    gc.collect()
    return ref


@pytest.fixture
def thawed() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.fixture
async def collector(thawed: None) -> AsyncIterator[Collector]:
    """A collector started on the test's loop (no periodic look of its own), stopped after it."""
    started = Collector(thaw_every=0)
    started.start()
    yield started
    started.stop()


async def test_the_survivors_of_a_full_collection_are_frozen_on_the_loops_next_turn(collector: Collector) -> None:
    kept = [Node() for _ in range(100)]
    gc.collect()
    assert any(o is kept for o in gc.get_objects())  # not yet: the freeze waits for the loop
    await asyncio.sleep(0)
    assert not any(o is kept for o in gc.get_objects())
    assert gc.get_freeze_count() > len(kept)


@pytest.mark.parametrize("generation", [0, 1])
async def test_the_survivors_of_a_young_or_middle_collection_are_frozen_too(
    collector: Collector, generation: int
) -> None:
    kept = [Node() for _ in range(100)]
    gc.collect(generation)
    await asyncio.sleep(0)
    assert not any(o is kept for o in gc.get_objects())


async def test_each_collection_is_timed_with_its_generation(thawed: None) -> None:
    """What each collection held the process (``ludoteca_gc_pause_seconds``): a full one, then a young one."""
    timed: list[tuple[int, float]] = []
    started = Collector(thaw_every=0, timed=lambda generation, seconds: timed.append((generation, seconds)))
    started.start()
    try:
        kept = [Node() for _ in range(10_000)]
        timed.clear()  # start() collected once itself, and the allocations may have
        gc.collect()
        gc.collect(0)
    finally:
        started.stop()
    assert [generation for generation, _ in timed] == [2, 0]
    assert all(0 < seconds < 10 for _, seconds in timed)
    assert kept


async def test_in_a_heap_that_holds_steady_the_young_generation_outgrows_its_count(collector: Collector) -> None:
    """Why the young threshold follows the pauses: CPython collects the young generation once its
    allocations less its deallocations pass the threshold, and a frozen object's death is a
    deallocation too. Where most new objects replace frozen ones (a move's table replaces the table
    before it), the count rises slowly while the young generation fills: here 15 of every 16 replace
    one, and the first collection walks many times the threshold."""
    heap = [[[n]] for n in range(200_000)]  # lists, which the collector tracks (a dict of ints it does not)
    gc.collect()
    await asyncio.sleep(0)  # frozen on the loop's turn
    young: list[tuple[int, int]] = []  # at each young collection: the objects it walks, the threshold

    def look(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 0:
            young.append((len(gc.get_objects(0)), gc.get_threshold()[0]))

    gc.callbacks.insert(0, look)
    kept = []
    try:
        for n in range(len(heap)):
            if n % 16 == 15:
                kept.append([[n]])  # one object in 16 is more
            else:
                heap[n] = [[n]]  # the others replace a frozen one, which dies
            if n % 100 == 0:
                await asyncio.sleep(0)  # the survivors of each collection frozen, as on the server's loop
    finally:
        gc.callbacks.remove(look)
    walked, threshold = young[0]
    assert walked > 4 * threshold


async def test_a_long_young_collection_brings_the_threshold_down_and_a_full_one_does_not(thawed: None) -> None:
    """The threshold follows the young generation's pauses; the server's own full collections (its
    start, a thaw) walk everything and say nothing of the young generation."""
    collector = Collector(thaw_every=0)
    collector.start()
    try:
        collector.collected("start", {"generation": 2})
        time.sleep(8 * PAUSE)
        collector.collected("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
        assert gc.get_threshold()[0] == collector.young == THRESHOLDS[0]
        collector.collected("start", {"generation": 0})
        time.sleep(4 * PAUSE)
        collector.collected("stop", {"generation": 0, "collected": 0, "uncollectable": 0})
        assert gc.get_threshold() == (collector.young, *THRESHOLDS[1:])
        assert collector.young <= THRESHOLDS[0] // 4  # four times too long: a quarter
    finally:
        collector.stop()


def test_the_young_threshold_comes_down_at_once_after_a_long_pause_and_rises_slowly() -> None:
    assert follow(8_000, 4 * PAUSE) == 2_000  # four times too long: a quarter
    assert follow(2_000, PAUSE / 4) == 2_200  # shorter: a tenth more
    assert follow(5_000, PAUSE) == 5_500
    assert follow(YOUNG[1], PAUSE / 100) == YOUNG[1]  # within its bounds
    assert follow(YOUNG[0], 100 * PAUSE) == YOUNG[0]


async def test_a_cycle_frozen_while_alive_is_collected_by_the_next_thaw(collector: Collector) -> None:
    ref = await frozen_cycle()
    assert ref() is not None  # a frozen cycle waits
    pause, found = collector.thaw()
    assert ref() is None
    assert pause >= 0
    assert found >= 2  # the two nodes (and their attribute dictionaries)
    await asyncio.sleep(0)
    assert gc.get_freeze_count() > 0  # the thaw's survivors are frozen again


async def test_stopping_gives_back_the_threshold_the_callbacks_and_the_frozen_objects(thawed: None) -> None:
    before = gc.get_threshold()
    collector = Collector(thaw_every=0)
    collector.start()
    assert gc.get_threshold() == THRESHOLDS
    assert collector.collected in gc.callbacks
    assert gc.get_freeze_count() > 0
    collector.stop()
    assert gc.get_threshold() == before
    assert collector.collected not in gc.callbacks
    assert gc.get_freeze_count() == 0


def copies() -> list[int]:
    """This process's children that are copies of it (a fork runs the same command line)."""
    own = Path("/proc/self/cmdline").read_bytes()
    tasks = Path("/proc/self/task").iterdir()
    children = [int(pid) for task in tasks for pid in (task / "children").read_text().split()]
    found = []
    for pid in children:
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes() == own:
                found.append(pid)
        except FileNotFoundError:
            pass
    return found


class Writer:
    """Garbage whose finalizer writes to a socket and leaves a mark in a file."""

    def __init__(self, sock: socket.socket, mark: Path) -> None:
        self.sock, self.mark = sock, mark
        self.me = self

    def __del__(self) -> None:
        self.mark.write_text("finalized")
        self.sock.send(b"from the garbage")


async def test_a_census_counts_the_frozen_garbage_in_a_copy_and_leaves_the_servers_heap_as_it_was(
    collector: Collector,
) -> None:
    ref = await frozen_cycle()
    paused, counted = await collector.census()
    assert counted is not None and counted >= 2  # the two nodes (and their attribute dictionaries)
    assert paused >= 0
    assert ref() is not None  # counted in the copy, still here
    assert gc.get_freeze_count() > 0


async def test_a_server_that_stops_during_a_census_leaves_no_copy_behind(collector: Collector) -> None:
    counting = asyncio.create_task(collector.census())
    await asyncio.sleep(0)  # forked: the copy is counting
    counting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await counting
    for _ in range(100):  # killed, and reaped by the thread that waited for its count
        if not copies():
            break
        await asyncio.sleep(0.05)
    assert not copies()


async def test_the_garbage_a_census_finalizes_touches_no_socket_of_the_server(
    collector: Collector, tmp_path: Path
) -> None:
    ours, theirs = socket.socketpair()
    try:
        mark = tmp_path / "mark"
        writer = Writer(ours, mark)  # a cycle: it refers to itself
        gc.collect()
        await asyncio.sleep(0)  # frozen while alive...
        del writer  # ...then garbage only a collection of the frozen finds
        _, counted = await collector.census()
        assert counted is not None and counted >= 1
        assert mark.read_text() == "finalized"  # the copy ran the finalizer
        theirs.setblocking(False)
        with pytest.raises(BlockingIOError):
            theirs.recv(100)  # ...and its send reached nothing: the copy had let go of the socket
        ours.send(b"still ours")
        theirs.setblocking(True)
        assert theirs.recv(100) == b"still ours"
    finally:
        gc.unfreeze()
        gc.collect()  # the real process finalizes the writer here, which sends once, before the close
        ours.close()
        theirs.close()


async def test_a_look_thaws_only_when_the_census_finds_enough(collector: Collector) -> None:
    collector.thaw_every = 0.01
    collector.thaw_above = 10**9
    ref = await frozen_cycle()
    looking = asyncio.create_task(collector.thaws())
    await asyncio.sleep(0.3)
    looking.cancel()
    assert ref() is not None  # counted, too few to thaw for
    collector.thaw_above = 1
    looking = asyncio.create_task(collector.thaws())
    for _ in range(100):
        await asyncio.sleep(0.05)
        if ref() is None:
            break
    looking.cancel()
    assert ref() is None


async def test_thaws_run_on_their_interval(collector: Collector) -> None:
    collector.thaw_every = 0.01
    collector.thaw_above = 0
    ref = await frozen_cycle()
    assert ref() is not None
    thawing = asyncio.create_task(collector.thaws())
    await asyncio.sleep(0.1)
    thawing.cancel()
    assert ref() is None


@pytest.fixture
def descriptors() -> Iterator[None]:
    """1,100 descriptors open, as a server holding a thousand sockets has: the census's own
    pipes then get numbers past 1,024, where ``select.select`` cannot watch them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1_200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4_096), hard))
    pipes = [os.pipe() for _ in range(550)]
    try:
        yield
    finally:
        for read, write in pipes:
            os.close(read)
            os.close(write)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_the_copy_counts_at_the_lowest_cpu_priority(
    collector: Collector, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy's second of collecting waits for the replicas on the same cores, not they for it
    (docs/performance.md: the slices' tail at 4,000 to 5,000 tables halved)."""
    reached = tmp_path / "niceness"
    real = os.nice

    def nice(increment: int) -> int:
        niceness = real(increment)
        reached.write_text(str(niceness))  # from the copy: the file outlives it
        return niceness

    monkeypatch.setattr(os, "nice", nice)
    _, counted = await collector.census()
    assert counted is not None
    assert reached.read_text() == "19"
    assert real(0) < 19  # the server itself runs on as it was


async def test_a_census_counts_with_a_thousand_sockets_open(collector: Collector, descriptors: None) -> None:
    ref = await frozen_cycle()
    _, counted = await collector.census()
    assert counted is not None and counted >= 2
    assert ref() is not None


async def test_a_look_that_fails_does_not_end_the_looks(collector: Collector, caplog: pytest.LogCaptureFixture) -> None:
    """A look that raises is logged, and the next one runs on time: one failure must not leave the
    server without its hourly look for the rest of its life."""
    looks = 0

    async def failing() -> None:
        nonlocal looks
        looks += 1
        raise OSError("no copy today")

    failures = []
    collector.thaw_every = 0.01
    collector.failed = lambda: failures.append(looks)
    collector.look = failing  # type: ignore[method-assign]
    looking = asyncio.create_task(collector.thaws())
    for _ in range(100):
        await asyncio.sleep(0.02)
        if looks >= 3:
            break
    looking.cancel()
    assert looks >= 3
    assert failures[:3] == [1, 2, 3]  # each counted (ludoteca_gc_look_failures_total)
    assert "no copy today" in caplog.text
