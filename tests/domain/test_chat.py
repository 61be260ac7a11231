"""Table chat (domain/chat.py): facts in the game's stream, read by whom they are meant for."""

from __future__ import annotations

import dataclasses
import random

import msgspec
import pytest

from domain import chat
from domain.catalog import GAMES
from domain.chat import CHAT_MOST, TEXT_MOST, HideMessage, HidingAsked, MessageHidden, MessageSaid, Mute, Say
from domain.engine import FULL, Ctx, Rejected
from domain.table import Resign, decide, decided_on, status
from projections.views import feed
from tests.domain.test_table_services import apply, started

GAME = GAMES["vilar-de-mouros"]


class Talk:
    """A started table and the facts appended to it since, so that a viewer's feed of them can be read."""

    def __init__(self, players: int = 3, bots: tuple[int, ...] = ()) -> None:
        self.table = started(GAME, players, bots)
        self.first = self.table.version + 1
        self.facts: list[object] = []

    def act(self, seat: int, command: object) -> Talk:
        return self.add(decide(GAME, self.table, command, seat, Ctx(rng=random.Random(0))))

    def add(self, events: list[object]) -> Talk:
        self.table = apply(GAME, self.table, events)
        self.facts += events
        return self

    @property
    def version(self) -> int:
        return self.table.version

    def read(self, viewer: int | None, first: int = 0) -> list[object]:
        """What ``viewer`` receives of the facts from version ``first`` on."""
        revealed = status(GAME, self.table) == "finished"
        seen = feed(GAME, enumerate(self.facts, self.first), viewer, revealed, self.table)
        return [e.event for e in seen if e.version >= first and type(e.event) in chat.CHAT_FACT_TYPES]

    def refused(self, seat: int, command: object) -> str:
        with pytest.raises(Rejected) as refused:
            decide(GAME, self.table, command, seat, Ctx(rng=random.Random(0)))
        return refused.value.code


def test_a_message_said_to_the_table_reaches_every_seat_and_the_spectators() -> None:
    talk = Talk().act(0, Say(text="Boa sorte a todos!"))
    for viewer in (0, 1, 2, None, FULL):
        assert talk.read(viewer) == [MessageSaid(text="Boa sorte a todos!", seat=0)]


def test_a_message_is_made_plain_empty_ones_and_long_ones_are_refused() -> None:
    talk = Talk().act(1, Say(text="  ola\u0301\u202e\u200b  \n\t amigos\x1b[2J "))
    assert talk.read(0) == [MessageSaid(text="olá amigos[2J", seat=1)]  # NFC, no bidi, zero-width or escape
    assert talk.refused(0, Say(text="\u200b \n")) == "empty_message"
    assert talk.refused(0, Say(text="a" * (TEXT_MOST + 1))) == "message_too_long"
    talk.act(0, Say(text="a" * TEXT_MOST))  # at the most: said


def test_a_private_line_reaches_only_its_two_seats_and_an_export_keeps_its_place_not_its_words() -> None:
    talk = Talk().act(0, Say(text="Segredo", to=2))
    assert talk.read(0) == talk.read(2) == [MessageSaid(text="Segredo", seat=0, to=2)]
    assert talk.read(1) == talk.read(None) == []
    assert talk.read(FULL) == [MessageSaid(text="", seat=0, to=2, removed="private")]
    for to in (0, 3, -1):
        assert talk.refused(0, Say(text="eco", to=to)) == "no_such_seat"


def test_a_seat_mutes_another_for_itself_alone() -> None:
    talk = Talk().act(1, Mute(seat=0)).act(0, Say(text="Ninguém me ouve?"))
    said = MessageSaid(text="Ninguém me ouve?", seat=0)
    assert said not in talk.read(1)
    assert talk.read(2) == [said]  # the mute is 1's own fact
    assert talk.read(0) == [said]
    assert talk.refused(1, Mute(seat=1)) == "no_such_seat"
    talk.act(1, Mute(seat=0, muted=False))
    assert said in talk.read(1)  # read again: it was never lost


def test_a_majority_of_the_others_hides_a_message_for_everyone_and_the_fact_stays() -> None:
    talk = Talk(4).act(0, Say(text="palavrão"))
    said_at = talk.version
    assert talk.refused(0, HideMessage(version=said_at)) == "own_message"
    talk.act(1, HideMessage(version=said_at))
    assert talk.read(2) == [MessageSaid(text="palavrão", seat=0)]  # one of three is no majority, and is 1's own
    talk.act(2, HideMessage(version=said_at))
    assert talk.read(3, first=talk.version) == [MessageHidden(version=said_at)]
    gone = MessageSaid(text="", seat=0, removed="hidden")
    for viewer in (0, 1, 2, 3, None, FULL):
        assert talk.read(viewer)[0] == gone
    assert HidingAsked(seat=1, version=said_at) in talk.read(1)
    assert talk.refused(3, HideMessage(version=said_at)) == "no_such_message"


def test_an_operator_hides_any_message() -> None:
    talk = Talk().act(0, Say(text="x", to=1))
    assert chat.hidden_by_operator(talk.table.chat, talk.version) == [
        MessageHidden(version=talk.version, by="operator")
    ]
    talk.add(chat.hidden_by_operator(talk.table.chat, talk.version))
    assert talk.read(1)[0] == MessageSaid(text="", seat=0, to=1, removed="hidden")
    assert chat.hidden_by_operator(talk.table.chat, talk.version - 1) == []  # hidden already
    with pytest.raises(Rejected):
        chat.hidden_by_operator(talk.table.chat, talk.version + 5)


def test_bots_have_no_say_in_hiding_one_other_person_is_a_majority() -> None:
    talk = Talk(3, bots=(2,)).act(0, Say(text="hm"))
    said_at = talk.version
    talk.act(1, HideMessage(version=said_at))
    assert MessageHidden(version=said_at) in talk.read(0)


def test_chat_is_not_play_it_makes_no_move_stale_and_does_not_count_towards_the_longest_game() -> None:
    game = dataclasses.replace(GAME, most_events=60)
    table = started(game, 2)
    before = table.version
    for n in range(80):
        table = apply(game, table, decide(game, table, Say(text=f"{n}"), n % 2, Ctx(rng=random.Random(0))))
    assert status(game, table) == "active"  # 80 messages past a longest game of 60 events
    assert decided_on(table, before) and decided_on(table, table.version) and not decided_on(table, before - 1)
    seat = game.awaited(table.state)[0].seat
    command = game.random_command(table.state, seat, random.Random(3))
    table = apply(game, table, decide(game, table, command, seat, Ctx(rng=random.Random(0))))
    assert not decided_on(table, before) and table.chat_after == 0


def test_a_table_holds_at_most_its_chat_and_a_finished_one_none() -> None:
    talk = Talk(2)
    full = msgspec.structs.replace(talk.table, chat=chat.Chat(facts=CHAT_MOST))
    with pytest.raises(Rejected) as refused:
        decide(GAME, full, Say(text="mais uma"), 0, Ctx(rng=random.Random(0)))
    assert refused.value.code == "chat_full"
    talk.act(0, Resign())
    assert status(GAME, talk.table) == "finished"
    assert talk.refused(1, Say(text="gg")) == "game_over"


def test_the_spectators_channel_is_read_by_seats_only_once_the_table_is_over() -> None:
    spoken = chat.said("Que jogada!", None, None, 2, player="p1")
    talk = Talk(2).add([spoken])
    assert talk.read(None) == talk.read(FULL) == [spoken]
    assert talk.read(0) == []
    talk.act(0, Resign())
    assert talk.read(0) == [spoken]
