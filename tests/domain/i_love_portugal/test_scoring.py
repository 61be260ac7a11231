"""Pricing (the rulebook's worked example), the end of the game, the final score, the tie-break."""

from __future__ import annotations

from msgspec.structs import replace

from domain.i_love_portugal import GAME
from domain.i_love_portugal.cards import hand_value
from domain.i_love_portugal.commands import BuyPhoto, EndTurnAndDraw
from domain.i_love_portugal.events import (
    FinalScoresCounted,
    HandDiscarded,
    LastCubePlaced,
    PhotosStopped,
    TurnPassedTo,
)
from domain.i_love_portugal.scoring import colour_sets, final_scores
from domain.i_love_portugal.state import STILL_ROUNDS, State, initial, last_seat, order_from_first

from .helpers import cards_of, play, started, with_hand

ALBUMS = cards_of("album")


def photos(region: str) -> list[str]:
    return [c for c in cards_of("photo") if c.startswith(f"photo-{region}-")]


# -- pricing -------------------------------------------------------------------------------------


def test_rulebook_worked_example_backpack_and_two_albums_with_two_photos_each_pay_10() -> None:
    hand = [cards_of("backpack", "red", 2)[0], ALBUMS[0], *photos("porto")[:2], ALBUMS[1], *photos("faro")[:2]]
    assert hand_value(hand) == 10


def test_a_photo_pays_nothing_without_an_album() -> None:
    assert hand_value(photos("porto")) == 0
    assert hand_value([*photos("porto")[:1], ALBUMS[0]]) == 3


def test_backpacks_pay_their_face_selfies_and_planes_3() -> None:
    assert hand_value(cards_of("backpack", "blue", 1)[:2] + cards_of("backpack", "blue", 2)[:1]) == 4
    assert hand_value(cards_of("selfie")[:1] + cards_of("plane")[:1]) == 6


# -- the end ---------------------------------------------------------------------------------------


def one_cube_left(state: State, seat: int) -> State:
    cubes = tuple(1 if s == seat else c for s, c in enumerate(state.cubes_left))
    state = replace(state, cubes_left=cubes, ratings=("rating-2",) * 20)
    return with_hand(state, seat, cards_of("backpack", "red", 2), at="porto")


def test_the_last_cube_lets_the_round_finish_up_to_the_player_right_of_the_first() -> None:
    state = started(4, seed=1)
    first = state.first
    assert first is not None and state.current == first
    state = one_cube_left(state, first)
    state, events = play(state, BuyPhoto())
    assert LastCubePlaced(seat=first) in events and state.final_round and state.phase == "turn"
    for seat in order_from_first(state)[:-1]:
        assert state.current == seat
        state, events = play(state, EndTurnAndDraw())
        assert isinstance(events[-1], TurnPassedTo)
    assert state.current == last_seat(state)
    state, events = play(state, EndTurnAndDraw())
    assert isinstance(events[-1], FinalScoresCounted) and GAME.outcome(state) is not None
    assert GAME.awaited(state) == [] and all(GAME.commands(state, s) == [] for s in range(4))


def test_the_last_cube_placed_by_the_player_right_of_the_first_ends_the_game_at_once() -> None:
    state = started(3, seed=2)
    last = last_seat(state)
    for _ in range(2):
        state, _ = play(state, EndTurnAndDraw())
    assert state.current == last
    state = one_cube_left(state, last)
    state, events = play(state, BuyPhoto())
    assert [type(e).__name__ for e in events] == [
        "PhotoBought",
        "LastCubePlaced",
        "HandDiscarded",
        "FinalScoresCounted",
    ]
    assert isinstance(events[2], HandDiscarded) and events[2].paid == 2
    assert state.phase == "over" and GAME.outcome(state) is not None


def test_twelve_whole_rounds_with_no_photo_bought_end_the_game() -> None:
    """A ruling of ours (rules 3): a seat that could place its last cube may refuse to while the
    others cannot place theirs, and only a last cube ends the rulebook's game. So once no photo
    was bought in 12 whole rounds, the round's last turn ends the game, its scores counted."""
    assert STILL_ROUNDS == 12
    state = started(2, seed=3)
    first, last = order_from_first(state)
    while state.quiet < STILL_ROUNDS * 2 - 1:
        state, events = play(state, EndTurnAndDraw())
        assert isinstance(events[-1], TurnPassedTo)
    assert state.current == first  # 11 whole rounds with no photo: the round goes on
    state, events = play(state, EndTurnAndDraw())
    assert isinstance(events[-1], TurnPassedTo) and state.current == last
    photo = with_hand(replace(state, ratings=("rating-2",) * 20), last, cards_of("backpack", "red", 2), at="porto")
    photo, events = play(photo, BuyPhoto())
    assert photo.quiet == 0
    photo, events = play(photo, EndTurnAndDraw())
    assert isinstance(events[-1], TurnPassedTo), "a photo bought in the round's last turn: the game goes on"
    state, events = play(state, EndTurnAndDraw())
    assert [type(e) for e in events] == [PhotosStopped, HandDiscarded, FinalScoresCounted]
    assert events[0] == PhotosStopped(rounds=12)
    assert state.phase == "over" and GAME.outcome(state) is not None


# -- the final score ---------------------------------------------------------------------------------


def over(players: int, cards: list[list[str]], scores: list[int], first: int = 0) -> State:
    state = initial(players)
    return replace(
        state,
        phase="over",
        first=first,
        hands=tuple(tuple(c) for c in cards),
        scores=tuple(scores),
    )


def test_three_photos_of_one_colour_score_10() -> None:
    purple = [photos("beja")[0], photos("aveiro")[0], photos("leiria")[0]]  # the rulebook's example
    assert [(s.colour, s.sets, s.points) for s in colour_sets(purple)] == [("purple", 1, 10)]


def test_two_grey_photos_score_10() -> None:
    grey = [photos("madeira")[0], photos("acores")[0]]  # the rulebook's example
    assert [(s.colour, s.points) for s in colour_sets(grey)] == [("grey", 10)]


def test_every_set_scores_so_six_of_a_colour_score_20() -> None:
    red = [*photos("porto"), *photos("evora")]  # as if: 6 red photos
    assert colour_sets(red)[0].points == 20
    assert colour_sets(red[:5])[0].points == 10


def test_only_photo_cards_count_towards_colour_sets() -> None:
    backpacks = cards_of("backpack", "purple")
    assert colour_sets(backpacks) == []
    state = over(2, [[*backpacks, photos("beja")[0]], []], [0, 0])
    assert final_scores(state)[0].points == 0


def test_the_final_score_counts_hand_draw_and_discard_piles() -> None:
    state = over(2, [[photos("beja")[0]], []], [7, 3])
    state = replace(state, draw=((photos("aveiro")[0],), ()), discards=((photos("leiria")[0],), ()))
    scores = final_scores(state)
    assert (scores[0].photo_points, scores[0].set_points, scores[0].points) == (7, 10, 17)


def test_scores_above_100_keep_counting() -> None:
    state = over(2, [[photos("madeira")[0], photos("acores")[0]], []], [98, 0])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == [108, 0]


def test_a_tie_goes_to_the_tied_player_latest_in_turn_order() -> None:
    state = over(4, [[], [], [], []], [20, 20, 5, 20], first=2)  # turn order 2, 3, 0, 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == [1] and outcome.places == [2, 1, 4, 3]


def test_no_outcome_while_the_game_goes_on() -> None:
    assert GAME.outcome(started(2)) is None
