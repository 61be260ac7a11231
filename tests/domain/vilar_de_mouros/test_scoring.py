"""Scoring (rulebook, "Scores") and each tie-breaker, with the rulings from the docs page."""

from __future__ import annotations

from msgspec.structs import replace

from domain.vilar_de_mouros import GAME
from domain.vilar_de_mouros.scoring import score_cards

from .helpers import over

PALCO = "1982-palco-historico"  # village + stage, year 1982 (the rulebook's example)
TRIO_1982 = ["1982-the-durutti-column", "1982-tom-robinson-band", "1982-gnr"]  # 1 + 1 + 2 cows, no category
TRIO_1971 = ["1971-quarteto-1111", "1971-pop-five-music-incorporated", "1971-bridge"]  # 2 + 1 + 1 cows
VILLAGE_TRIO = ["1965-ponte-romanica-sobre-o-coura", "1968-azenhas-do-coura", "1965-rancho-folclorico-da-aldeia"]
YEAR_2022 = ["2022-placebo", "2022-limp-bizkit", "2022-bauhaus", "2022-gary-numan"]  # 3 + 2 + 2 + 1 cows


def test_collection_of_three_related_cards_scores_the_sum_of_its_cows() -> None:
    result = score_cards(0, TRIO_1982)
    assert result.points == 4
    assert [(c.target, c.complete, c.points) for c in result.collections] == [("1982", True, 4)]


def test_one_or_two_related_cards_without_bonus_score_nothing() -> None:
    result = score_cards(0, TRIO_1982[:2])
    assert result.points == 0 and result.collections == []
    assert result.remainder_points == 2


def test_bonus_card_doubles_a_complete_collection() -> None:
    assert score_cards(0, [*TRIO_1982, "bonus-1982"]).points == 8


def test_bonus_card_lets_an_incomplete_collection_score_face_value() -> None:
    result = score_cards(0, ["1982-the-durutti-column", "1982-gnr", "bonus-1982"])
    assert result.points == 3
    assert [(c.complete, c.bonuses) for c in result.collections] == [(False, ["bonus-1982"])]
    assert score_cards(0, ["1982-gnr", "bonus-1982"]).points == 2  # a single card too


def test_second_bonus_card_on_one_collection_does_not_double_again() -> None:
    one = score_cards(0, [*VILLAGE_TRIO, "bonus-village-1"])
    two = score_cards(0, [*VILLAGE_TRIO, "bonus-village-1", "bonus-village-2"])
    assert one.points == two.points == 8
    assert two.collections[-1].bonuses == ["bonus-village-1", "bonus-village-2"]


def test_bonus_card_without_matching_cards_scores_nothing() -> None:
    result = score_cards(0, [*TRIO_1982, "bonus-2024"])
    assert result.points == 4 and result.unused_bonuses == ["bonus-2024"]


def test_bonus_cards_carry_no_cows() -> None:
    result = score_cards(0, ["bonus-1982", "bonus-village-1", "bonus-stage-1"])
    assert (result.points, result.remainder_points, result.complete_collections) == (0, 0, 0)


def test_palco_historico_counts_in_three_collections() -> None:
    """The rulebook's example: Palco Histórico adds to Aldeia/Village, 1982 and Palcos/Stages."""
    village = ["1965-ponte-romanica-sobre-o-coura", "1968-azenhas-do-coura"]  # 2 + 1 cows
    year = ["1982-the-durutti-column", "1982-tom-robinson-band"]  # 1 + 1
    stages = ["1971-amalia-rodrigues", "1968-banda-da-guarda-nacional-republicana"]  # 3 + 2
    result = score_cards(0, [PALCO, *village, *year, *stages])
    by_target = {c.target: c for c in result.collections}
    assert {t for t, c in by_target.items() if PALCO in c.cards} == {"village", "1982", "stage"}
    assert (by_target["village"].points, by_target["1982"].points, by_target["stage"].points) == (5, 4, 7)
    assert result.points == 16  # Palco Histórico's 2 cows count three times
    assert score_cards(0, [PALCO, *village, *year, *stages, "bonus-stage-1"]).points == 23


def test_palco_historico_with_bonus_cards_in_all_three() -> None:
    """ "...can add up to 3 collections or bonuses": alone, with a bonus card for each of its targets."""
    result = score_cards(0, [PALCO, "bonus-village-1", "bonus-1982", "bonus-stage-1"])
    assert result.points == 6 and {c.target for c in result.collections} == {"village", "1982", "stage"}


def test_hand_and_personal_area_score_together() -> None:
    state = over([[TRIO_1982[0]], TRIO_1971])
    state = replace(state, personal=((TRIO_1982[1], TRIO_1982[2], "bonus-1982"), ()))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == [8, 4]


def test_most_points_wins() -> None:
    outcome = GAME.outcome(over([TRIO_1982, [*TRIO_1971, "bonus-1971"]]))
    assert outcome is not None
    assert (outcome.scores, outcome.places, outcome.winners) == ([4, 8], [2, 1], [1])


def test_tie_break_1_points_of_the_remainder_cards() -> None:
    a = [*TRIO_1982, "2022-gary-numan"]  # 4 points, remainder 1 cow
    b = TRIO_1971  # 4 points, no remainder
    outcome = GAME.outcome(over([b, a]))
    assert outcome is not None and outcome.scores == [4, 4]
    assert [s.remainder_points for s in outcome.breakdown] == [0, 1]
    assert (outcome.places, outcome.winners) == ([2, 1], [1])


def test_tie_break_2_number_of_1965_68_cards() -> None:
    a = [*TRIO_1982, "1968-adriano-correia-de-oliveira"]  # 4 points, remainder 2, one 1965/68 card
    b = [*TRIO_1971, "2022-limp-bizkit"]  # 4 points, remainder 2, none
    outcome = GAME.outcome(over([a, b]))
    assert outcome is not None
    assert [s.remainder_points for s in outcome.breakdown] == [2, 2]
    assert [s.first_edition_cards for s in outcome.breakdown] == [1, 0]
    assert outcome.winners == [0]


def test_tie_break_2_counts_1965_and_1968_alike() -> None:
    a = [*TRIO_1982, "1965-cartaz"]  # the 1965 poster, 2 cows, alone
    b = [*TRIO_1971, "1968-adriano-correia-de-oliveira"]  # 2 cows, alone
    outcome = GAME.outcome(over([a, b]))
    assert outcome is not None and [s.first_edition_cards for s in outcome.breakdown] == [1, 1]
    assert outcome.winners == [0, 1]


def test_tie_break_3_highest_number_of_collections() -> None:
    a = YEAR_2022  # one collection of 8
    b = [*TRIO_1982, *TRIO_1971]  # two collections of 4
    outcome = GAME.outcome(over([a, b]))
    assert outcome is not None and outcome.scores == [8, 8]
    assert [s.complete_collections for s in outcome.breakdown] == [1, 2]
    assert outcome.winners == [1] and outcome.places == [2, 1]


def test_full_tie_is_a_shared_win() -> None:
    outcome = GAME.outcome(over([TRIO_1982, TRIO_1971, ["2022-gary-numan"]]))
    assert outcome is not None
    assert (outcome.places, outcome.winners) == ([1, 1, 3], [0, 1])


def test_no_outcome_while_the_game_goes_on() -> None:
    state = replace(over([TRIO_1982, TRIO_1971]), phase="action", current=0)
    assert GAME.outcome(state) is None
