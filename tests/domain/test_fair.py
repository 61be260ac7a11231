"""Fair play's construction (domain/fair.py): chance from the seed and every seat's entropy, commitments
each seat can check its own cards against, and the facts the table writes for them."""

from __future__ import annotations

import collections
import hashlib
import hmac
import random
from typing import Any

import msgspec
import pytest

from domain import fair
from domain.catalog import GAMES
from domain.engine import Ctx
from domain.fair import CardsOpened, DeckCommitted, SeedRevealed
from domain.table import (
    Table,
    TableOpened,
    chance,
    decide,
    decision,
    evolve,
    fold,
    open_table,
    openings_shown,
    redact_fact,
    status,
    take_seat,
)
from projections.twins import whole
from projections.views import feed

SEED = "00" * 31 + "01"


def test_chance_is_hmac_sha256_in_counter_mode_over_the_seed_and_every_seats_entropy_in_seat_order() -> None:
    key = fair.table_key(SEED, ["ab", "", "cd"])
    assert key == hmac.digest(bytes.fromhex(SEED), b"ludoteca table key\x00\x02ab\x00\x00\x00\x02cd", "sha256")
    assert fair.table_key(SEED, ["cd", "", "ab"]) != key  # seat order counts
    first = hmac.digest(key, b"ludoteca chance" + (7).to_bytes(8, "big") + (0).to_bytes(8, "big"), "sha256")
    drawn = fair.Chance(key, 7)
    assert drawn.number() == int.from_bytes(first[:8], "big")
    assert drawn.number() == int.from_bytes(first[8:16], "big")


def test_a_draw_below_n_is_unbiased_and_a_shuffle_is_fisher_yates() -> None:
    drawn = fair.Chance(fair.table_key(SEED, []), 1)
    counts = collections.Counter(drawn.randrange(3) for _ in range(30_000))
    assert set(counts) == {0, 1, 2} and all(9_400 < n < 10_600 for n in counts.values())
    assert all(10 <= drawn.randrange(10, 20) < 20 for _ in range(100))
    assert all(drawn.randrange(0, 10, 5) in (0, 5) for _ in range(100))
    with pytest.raises(ValueError):
        drawn.randrange(0)
    # Fisher-Yates from the last place down, each swap with a number below i + 1: the same numbers
    # drawn by hand give the same order.
    again, shuffled = fair.Chance(fair.table_key(SEED, []), 2), list(range(10))
    fair.Chance(fair.table_key(SEED, []), 2).shuffle(shuffled)
    by_hand = list(range(10))
    for i in reversed(range(1, 10)):
        j = again.below(i + 1)
        by_hand[i], by_hand[j] = by_hand[j], by_hand[i]
    assert shuffled == by_hand and sorted(shuffled) == list(range(10))


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 13, 84])
def test_every_item_of_a_commitment_opens_at_its_place_and_at_no_other(count: int) -> None:
    key = fair.table_key(SEED, ["x"])
    items = tuple(f"card-{i}" for i in range(count))
    committed = DeckCommitted(count=count, root=fair.root(key, 9, items))
    for position, item in enumerate(items):
        salt = fair.salt(key, 9, position).hex()
        path = fair.path(key, 9, items, position)
        opening = fair.Opening(seat=0, commitment=9, position=position, item=item, salt=salt, path=path)
        assert fair.opens(opening, committed)
        other = items[(position + 1) % count]
        if other != item:  # another card in this place, or this card in another place, opens nothing
            forged = fair.Opening(seat=0, commitment=9, position=position, item=other, salt=salt, path=path)
            assert not fair.opens(forged, committed)
        if count > 1:
            moved = fair.Opening(seat=0, commitment=9, position=(position + 1) % count, item=item, salt=salt, path=path)
            assert not fair.opens(moved, committed)


def test_a_leaf_is_the_salted_hash_of_its_place_and_item_and_a_node_of_its_two_children() -> None:
    key = fair.table_key(SEED, [])
    salt = fair.salt(key, 4, 1)
    assert salt == hmac.digest(key, b"ludoteca salt" + (4).to_bytes(8, "big") + (1).to_bytes(4, "big"), "sha256")[:16]
    leaves = [hashlib.sha256(b"\x00" + fair.salt(key, 4, p) + p.to_bytes(4, "big") + c.encode()).digest()
              for p, c in enumerate("abc")]  # fmt: skip
    left = hashlib.sha256(b"\x01" + leaves[0] + leaves[1]).digest()
    assert fair.root(key, 4, ("a", "b", "c")) == hashlib.sha256(b"\x01" + left + leaves[2]).hexdigest()
    assert fair.seed_hash(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_a_tree_let_go_is_made_again_the_same_and_the_trees_used_last_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fair, "_TREES", collections.OrderedDict())
    monkeypatch.setattr(fair, "_TREES_KEPT", 2)
    key, items = fair.table_key(SEED, ["x"]), tuple(f"card-{i}" for i in range(13))
    first = fair.tree(key, 1, items)
    assert first.salts == b"".join(fair.salt(key, 1, p) for p in range(13))  # the salts as ``salt`` makes them
    assert fair.proof(key, 1, items, 5) == (fair.salt(key, 1, 5).hex(), fair.path(key, 1, items, 5))
    fair.tree(key, 2, items)
    fair.tree(key, 1, items)  # used again: the oldest now is 2
    fair.tree(key, 3, items)
    assert list(fair._TREES) == [(key, 1), (key, 3)]
    assert fair.tree(key, 2, items) == fair.tree(key, 2, items)  # made again, the same
    assert fair.root(key, 1, items) == first.levels[-1].hex()


def test_other_items_committed_at_the_same_version_of_the_same_table_have_their_own_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A step checked and thrown away, or one that lost a race to append, may have committed other
    # items at the version the step kept commits at: a tree kept for the first must not serve the second.
    monkeypatch.setattr(fair, "_TREES", collections.OrderedDict())
    key = fair.table_key(SEED, ["x"])
    checked, kept = ("a", "b", "c"), ("c", "a", "b")
    assert fair.root(key, 7, checked) != fair.root(key, 7, kept)
    assert fair.path(key, 7, checked, 0) != fair.path(key, 7, kept, 0)
    made = fair.tree(key, 7, kept)
    fair._TREES.clear()
    assert fair.tree(key, 7, kept) == made  # as made with nothing kept


def dealt(game_id: str, players: int, seed: int, steps: int) -> tuple[list[Any], Table]:
    """A game dealt as the server deals (a seed, each seat's entropy), played at random."""
    game = GAMES[game_id]
    rng = random.Random(seed)
    log: list[Any] = [open_table(game, players, {}, seed=rng.randbytes(32).hex())]
    table = evolve(game, None, log[0])
    for _ in range(players):
        entropy = rng.randbytes(8).hex()
        for event in take_seat(game, table, None, "", None, Ctx(rng=chance(table, entropy) or rng), entropy=entropy):
            log.append(event)
            table = evolve(game, table, event)
    for _ in range(steps):
        if status(game, table) != "active":
            break
        seat, command = next(
            (s, c) for s in range(players) if (c := game.random_command(table.state, s, rng)) is not None
        )
        for event in decide(game, table, command, seat, Ctx(rng=chance(table) or rng)):
            log.append(event)
            table = evolve(game, table, event)
    return log, table


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_hidden_deal_is_committed_before_a_card_of_it_is_drawn_and_each_seat_opens_only_its_own(
    game_id: str,
) -> None:
    game = GAMES[game_id]
    for seed in range(3):
        log, table = dealt(game_id, game.max_players, seed, 400)
        commitments: dict[int, DeckCommitted] = {}
        opened = 0
        for version, event in enumerate(log, 1):
            if isinstance(event, DeckCommitted):
                commitments[version] = event
                assert event.items is not None and len(event.items) == event.count
            elif isinstance(event, CardsOpened):
                assert all(o.salt is None and o.path is None for o in event.openings)  # stored without them
                for opening, whole in zip(event.openings, openings_shown(table, event).openings, strict=True):
                    assert opening.commitment < version and fair.opens(whole, commitments[opening.commitment])
                    # the seat was sent the card in this step, and no other seat was sent its opening
                    mine = feed(game, enumerate(log, 1), opening.seat, False, table)
                    shown = [e.event for e in mine if e.version < version]
                    assert any(opening.item in str(e) for e in shown)
                    for other in [None, *range(game.max_players)]:
                        seen = redact_fact(event, other)
                        assert (opening in seen.openings) == (other == opening.seat)
                    opened += 1
        assert commitments, "every game deals something face down"
        assert opened or game_id == "miss-liz-parks" or status(game, table) != "active"
        revealed = [e for e in log if isinstance(e, SeedRevealed)]
        assert revealed == ([SeedRevealed(seed=log[0].seed)] if status(game, table) == "finished" else [])


def test_an_opening_is_stored_without_its_salt_and_path_and_shown_as_one_a_log_kept_whole_shows() -> None:
    game = GAMES["vilar-de-mouros"]
    log, table = dealt("vilar-de-mouros", 3, 2, 12)
    opened = [e for e in log if isinstance(e, CardsOpened) and e.openings]
    assert opened and not any(
        b'"salt"' in msgspec.json.encode(e) or b'"path"' in msgspec.json.encode(e) for e in opened
    )
    kept = whole(game, log)  # as a log written before the salts and paths were made when shown
    assert all(o.salt and o.path is not None for e in kept if isinstance(e, CardsOpened) for o in e.openings)
    for viewer in [None, *range(3)]:
        assert feed(game, enumerate(kept, 1), viewer, False, table) == feed(
            game, enumerate(log, 1), viewer, False, table
        )
    assert [fair.stored(e) if isinstance(e, CardsOpened) else e for e in kept] == log


def test_an_opening_of_no_commitment_or_no_place_the_table_made_is_shown_as_stored() -> None:
    key = fair.table_key(SEED, ["x"])
    made = fair.Commitment(3, fair.root(key, 3, ("a", "b")), ("a", "b"))
    forged = CardsOpened(
        openings=(
            fair.Opening(seat=0, commitment=9, position=0, item="a"),
            fair.Opening(seat=0, commitment=3, position=5, item="a"),
        )
    )
    assert fair.shown(forged, key, [made]) == forged  # an imported log's, checked by nobody's cards
    [good] = fair.shown(
        CardsOpened(openings=(fair.Opening(seat=0, commitment=3, position=1, item="b"),)), key, [made]
    ).openings
    assert fair.opens(good, DeckCommitted(count=2, root=made.root))


@pytest.mark.parametrize("game_id", ["vilar-de-mouros", "miss-liz-parks"])
def test_a_decision_hands_on_the_table_its_events_fold_to_even_on_the_step_that_ends_the_table(game_id: str) -> None:
    game = GAMES[game_id]
    log, table = dealt(game_id, game.min_players, 0, 0)
    rng = random.Random(0)
    while status(game, table) == "active":
        seat, command = next(
            (s, c) for s in range(game.min_players) if (c := game.random_command(table.state, s, rng)) is not None
        )
        decided = decision(game, table, command, seat, Ctx(rng=chance(table) or rng))
        assert decided.events == decide(game, table, command, seat, Ctx(rng=chance(table) or rng))
        assert decided.after == fold(game, table, decided.events)
        table = decided.after
    assert decided.events[-1] == SeedRevealed(seed=log[0].seed)


def test_no_viewer_sees_the_seed_or_what_a_commitment_covers_before_the_table_is_over() -> None:
    log, _ = dealt("vilar-de-mouros", 3, 1, 5)
    opened = log[0]
    assert isinstance(opened, TableOpened) and opened.seed is not None
    for viewer in [None, 0, 1, 2]:
        assert redact_fact(opened, viewer).seed is None
        assert redact_fact(opened, viewer).seed_hash == fair.seed_hash(opened.seed)
        assert all(redact_fact(e, viewer).items is None for e in log if isinstance(e, DeckCommitted))


def test_a_table_from_before_fair_play_draws_from_the_rng_it_is_lent_and_writes_no_fair_facts() -> None:
    game = GAMES["vilar-de-mouros"]
    table = evolve(game, None, open_table(game, 2, {}))
    assert chance(table) is None
    events = take_seat(game, table, None, "", None, Ctx(rng=random.Random(1)))
    table = evolve(game, table, events[0])
    events = take_seat(game, table, None, "", None, Ctx(rng=random.Random(1)))
    assert not [e for e in events if type(e) in fair.FAIR_EVENTS]
