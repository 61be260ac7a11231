"""The message format (words/format.py): CLDR plurals, lists and digits per language, select, terms, seats,
and a malformed message refused; Accept-Language and POSIX locales read as one of our languages."""

from __future__ import annotations

import pytest

from domain import words
from domain.words.format import MessageError, Words, negotiate, parameters

CARDS = "{count, plural, =0 {no cards} one {# card} other {# cards}}"
CARTAS = "{count, plural, one {# carta} other {# cartas}}"


def test_plural_categories_are_each_languages_own() -> None:
    assert [Words("en").format(CARDS, {"count": n}) for n in (0, 1, 2)] == ["no cards", "1 card", "2 cards"]
    # European Portuguese says "0 cartas" (Brazil's rule would say "0 carta"), as Galician and Spanish do
    for lang in ("pt", "gl", "es"):
        assert [Words(lang).format(CARTAS, {"count": n}) for n in (0, 1, 2)] == ["0 cartas", "1 carta", "2 cartas"]


def test_a_list_counts_as_its_length_and_joins_the_languages_way() -> None:
    names = ["Ana", "Rui", "Eva"]
    said = {
        lang: Words(lang).format("{names, plural, one {{names, list}} other {{names, list}!}}", {"names": names})
        for lang in words.LANGUAGES
    }
    assert said == {
        "en": "Ana, Rui, and Eva!",
        "pt": "Ana, Rui e Eva!",
        "gl": "Ana, Rui e Eva!",
        "es": "Ana, Rui y Eva!",
    }


def test_numbers_are_written_with_the_languages_digits_when_asked() -> None:
    assert Words("en").format("{n, number}", {"n": 12345}) == "12,345"
    assert Words("pt").format("{n, number}", {"n": 12345}) == "12\u00a0345"
    assert Words("pt").format("{n} {x}", {"n": 12345, "x": 1.5}) == "12345 1,5"  # a version stays its digits


def test_select_reads_true_false_and_a_hidden_null() -> None:
    message = "{card, select, null {a card} other {{card}}} {open, select, true {open} other {shut}}"
    assert Words().format(message, {"card": None, "open": True}) == "a card open"
    assert Words().format(message, {"card": "7", "open": False}) == "7 shut"


def test_terms_and_seats_come_from_the_catalog_and_the_table() -> None:
    say = Words("gl", {"pile.plane": "Avión", "seat": "Xogador {number}"}, ["Ana"])
    assert say.format("{pile, term, pile}, {piles, term, pile}", {"pile": "plane", "piles": ["plane", "boat"]}) == (
        "Avión, Avión e boat"  # a value with no term is shown as printed
    )
    assert say.format("{a, seat} / {b, seat}", {"a": 0, "b": 2}) == "Ana / Xogador 3"


def test_a_default_named_seat_is_named_in_the_language_and_a_name_given_as_it_is() -> None:
    """A seat taken without a name has its default one stored in English ("Player 2", "Casual bot 3"): it is
    said with the terms ``seat`` and ``bot_seat`` (docs/i18n.md, "Seats' names")."""
    bot_seat = "{bot, term, bot_name} {number}"
    terms = {
        "gl": {"seat": "Xogador {number}", "bot_seat": bot_seat, "bot_name.greedy": "Bot cobizoso"},
        "pt": {"seat": "Jogador {number}", "bot_seat": bot_seat, "bot_name.casual": "Bot casual"},
        "es": {"seat": "Jugador {number}", "bot_seat": bot_seat, "bot_name.casual": "Bot casual"},
    }
    said = {lang: Words(lang, t) for lang, t in terms.items()}
    assert [w.seat_name(1, "Player 2", None, named=False) for w in said.values()] == [
        "Xogador 2", "Jogador 2", "Jugador 2"
    ]  # fmt: skip
    assert [w.seat_name(2, "Casual bot 3", "casual", named=False) for w in said.values()] == [
        "casual 3", "Bot casual 3", "Bot casual 3"
    ]  # fmt: skip
    assert said["gl"].seat_name(3, "Greedy bot 4", "greedy:2") == "Bot cobizoso 4"  # an event's: no ``named``
    assert said["gl"].seat_name(3, "Ana", "greedy") == "Ana"  # a name given stays as it is
    assert said["gl"].seat_name(1, "Player 2", "greedy", named=False) == "Xogador 2"  # a person's, who left
    assert said["gl"].seat_name(1, "Player 2", None, named=True) == "Player 2"  # given, though the default's
    assert Words("pt").default_seat(2, "casual") == "Casual bot 3"  # no terms: the stored English
    # a table's messages name such a seat in the language too
    named = Words("pt", terms["pt"], ["Ana", "", said["pt"].seat_name(2, "Casual bot 3", "casual", False)])
    assert named.format("{a, seat}, {b, seat}, {c, seat}", {"a": 0, "b": 1, "c": 2}) == "Ana, Jogador 2, Bot casual 3"


def test_a_refusals_seat_names_are_said_as_the_reader_reads_them() -> None:
    """``names`` beside ``awaiting`` (not_your_turn): a default one in the language, by the bots the terms name;
    the names the caller knows of the seats first."""
    terms = {"seat": "Xogador {number}", "bot_seat": "{bot, term, bot_name} {number}", "bot_name.greedy": "Bot cobi"}
    details = {"awaiting": [0, 1, 2], "names": ["Player 1", "Greedy bot 2", "Ana"], "turn": None}
    said = Words("gl", terms).seats_said(details)
    assert said == {**details, "names": ["Xogador 1", "Bot cobi 2", "Ana"]}
    assert Words("gl", terms, ["Eva"]).seats_said(details)["names"] == ["Eva", "Bot cobi 2", "Ana"]
    assert Words("gl", terms).seats_said({"names": ["Player 1"]}) == {"names": ["Player 1"]}  # no seats: as it is
    assert Words("gl", {}).seat_name(1, "Greedy bot 2") == "Greedy bot 2"  # no terms, no bots known: as it is


def test_apostrophes_are_plain_text_and_a_missing_parameter_shows_its_name() -> None:
    assert Words().format("It's {who}'s turn; {missing}", {"who": "Ana"}) == "It's Ana's turn; {missing}"


@pytest.mark.parametrize(
    "broken", ["{", "}", "{x, plural, one {#}}", "{x, select, a {b} other {c}", "{x, gender}", "{x, term}", "{, }"]
)
def test_a_message_that_breaks_the_format_is_refused(broken: str) -> None:
    with pytest.raises(MessageError):
        Words().format(broken)


def test_parameters_name_every_placeholder_however_deep() -> None:
    found = parameters("{a, select, x {{b} {c, term, kind}} other {{d, plural, one {#} other {{e, seat}}}}}")
    assert found == {"a": "select", "b": "", "c": "term:kind", "d": "plural", "e": "seat"}


def test_accept_language_picks_the_first_of_ours_by_weight() -> None:
    assert negotiate("gl-ES,gl;q=0.9,en;q=0.5") == "gl"
    assert negotiate("fr, en;q=0.1, pt-BR;q=0.8") == "pt"
    assert negotiate("es;q=0, en") == "en"
    assert negotiate("fr, de") is None and negotiate(None) is None and negotiate("q=;;,") is None


def test_a_posix_locale_names_one_of_our_languages() -> None:
    assert words.format_lang("gl_ES.UTF-8") == "gl" and words.format_lang("pt_PT@euro") == "pt"
    assert words.format_lang("C") is None and words.format_lang("fr_FR.UTF-8") is None
