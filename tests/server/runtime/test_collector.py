"""The garbage collector's policy: survivors of every collection are frozen, a thaw collects the
cycles among them, and stopping gives the process its collector back as it was."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from server.runtime.collector import THRESHOLDS, Collector


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


async def test_the_survivors_of_a_full_collection_are_frozen_on_the_loops_next_turn(thawed: None) -> None:
    collector = Collector(thaw_every=0)
    collector.start()
    try:
        kept = [Node() for _ in range(100)]
        gc.collect()
        assert any(o is kept for o in gc.get_objects())  # not yet: the freeze waits for the loop
        await asyncio.sleep(0)
        assert not any(o is kept for o in gc.get_objects())
        assert gc.get_freeze_count() > len(kept)
    finally:
        collector.stop()


@pytest.mark.parametrize("generation", [0, 1])
async def test_the_survivors_of_a_young_or_middle_collection_are_frozen_too(thawed: None, generation: int) -> None:
    collector = Collector(thaw_every=0)
    collector.start()
    try:
        kept = [Node() for _ in range(100)]
        gc.collect(generation)
        await asyncio.sleep(0)
        assert not any(o is kept for o in gc.get_objects())
    finally:
        collector.stop()


async def test_a_cycle_frozen_while_alive_is_collected_by_the_next_thaw(thawed: None) -> None:
    collector = Collector(thaw_every=0)
    collector.start()
    try:
        ref = await frozen_cycle()
        assert ref() is not None  # a frozen cycle waits
        pause, found = collector.thaw()
        assert ref() is None
        assert pause >= 0
        assert found >= 2  # the two nodes (and their attribute dictionaries)
        await asyncio.sleep(0)
        assert gc.get_freeze_count() > 0  # the thaw's survivors are frozen again
    finally:
        collector.stop()


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


async def test_thaws_run_on_their_interval(thawed: None) -> None:
    collector = Collector(thaw_every=0.01)
    collector.start()
    try:
        ref = await frozen_cycle()
        assert ref() is not None
        thawing = asyncio.create_task(collector.thaws())
        await asyncio.sleep(0.1)
        thawing.cancel()
        assert ref() is None
    finally:
        collector.stop()
