"""``ludoteca verify``: what an export proves about a game's fairness (docs/fair-play.md).

An export of every fact (``everyone`` once the table is over, or the operator's ``server``) is
played again from its first fact: the seed against its commitment; the table key from the seed
and every seat's entropy; every step decided again - each command from its recorded sender,
seat and clock, each seat taken (the last one deals), each table called off or seat dropped -
with the chance the key gives, and its facts compared with the export's, commitments,
openings and the seed's reveal included; every commitment's top rebuilt from its items and
salts; every opening checked against its commitment; the outcome folded and compared with the
header's. A fact that no step accounts for is a problem too.

A seat's own export is checked as far as it can be: each of its openings against the commitment
made before it, each opened card among the facts it was sent, and, once the seed is revealed,
each salt as the seed derives it.

Each line of the report is said as a code and its parameters (:class:`Said`), so that it can be worded in
any language: the catalogs' ``verify`` part (server/service/words/<lang>.json) has one message per code,
its English the sentence ``str(said)`` gives (:data:`SENTENCES`, which the English catalog repeats).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain import fair
from domain.chat import CHAT_FACT_TYPES
from domain.engine import CLOCK, AnyGame, Ctx, Rejected
from domain.fair import CardsOpened, DeckCommitted, SeedRevealed
from domain.table import (
    ClockTicked,
    RematchOpened,
    SeatResigned,
    SeatTaken,
    Table,
    TableCancelled,
    TableOpened,
    cancel,
    cancel_by_operator,
    chance,
    command_union,
    decide,
    drop,
    evolve,
    open_rematch,
    outcome,
    remove_seat,
    status,
    take_seat,
)
from domain.words import DEFAULT
from domain.words.format import Words
from projections.export import WHOLE, DeckInfo, Export, Sent, events

# The English of every line a report says, by code, in the message format (docs/i18n.md): the catalogs'
# ``verify`` part has each in every language (tests/test_words.py sees that the English one is this).
SENTENCES: dict[str, str] = {
    "first_format": "a log of the first export format: it has no header, no commands, no commitments",
    "no_such_game": "this code has no game '{game}'",
    "unreadable_fact": "a fact does not read as a fact of {title}: {error}",
    "versions_gap": "the facts' versions do not run 1, 2, 3... with no gap",
    "not_opened_first": "the first fact is not the table's opening",
    "before_fair_play": "the table opened before fair play: it committed to no seed, there is nothing to check",
    "header_commitments": "the header's commitments are not the ones the facts make",
    "seed_missing": "the seed is not in the export: it is revealed once the table is over",
    "seed_hash_wrong": "the revealed seed's SHA-256 is not the hash TableOpened committed to",
    "seed_checked": "the server seed: its SHA-256 is the hash committed to when the table opened",
    "rules_version": "the table played rules version {played}; this code plays {plays}",
    "step_refused": "version {version}: the rules refuse the step found there ({refusal}: {message})",
    "command_not_kept": "version {version}: its command was not kept (a step from before commands were kept)",
    "unaccounted_fact": "version {version}: {fact} is no command's, and no step of the table's own makes it",
    "fact_differs": "version {version}: the rules, the seed and the entropies give {made}, the export has {found}",
    "fact_count_differs": (
        "version {version}: the step decided again makes {made} facts, the export has {found} before the next step"
    ),
    "steps_checked": (
        "every step decided again, its facts as exported: {commands} commands, {seats} seats taken (the last "
        "dealt), {table} table facts; {facts} facts, none unaccounted for"
    ),
    "chat_taken": "{chat} chat facts are taken as exported: chat draws nothing",
    "key_checked": (
        "the table key: the seed keyed over every seat's entropy ({added} of {people} people's seats added their own)"
    ),
    "no_entropy": (
        "{seats, plural, one {seat {seats, list} added no entropy of its own} "
        "other {seats {seats, list} added no entropy of their own}}"
    ),
    "bot_entropy": (
        "{seats, plural, one {the bot seat {seats, list} added entropy: the server chose it} "
        "other {the bot seats {seats, list} added entropy: the server chose it}}"
    ),
    "outcome_differs": "the outcome the game's facts lead to is not the one the export's header gives",
    "outcome_checked": "the outcome: the facts lead to the one the header gives",
    "not_over": "the table is not over: its seed is not revealed yet",
    "commitment_top": "version {version}: the commitment's top is not its items' and salts'",
    "opening_fails": "version {version}: an opening for seat {seat} does not open",
    "commitments_checked": (
        "{commitments} commitments rebuilt from their items and salts; {openings} openings open their commitment"
    ),
    "others_opening": "version {version}: seat {seat} was sent seat {other}'s opening",
    "own_opening_fails": "version {version}: the opening of {item} does not open its commitment",
    "opened_unsent": "version {version}: {item} was opened, but no fact sent it",
    "own_checked": (
        "{opened} of seat {seat}'s cards opened: each was at its place in a deck committed before it was dealt"
    ),
    "own_not_over": "the table is not over: the seed, and with it every salt, is revealed at its end",
    "salt_wrong": "version {version}: a salt is not the one the revealed seed derives",
    "own_seed_checked": "the seed: its hash is the one committed to, and it derives every salt of the openings",
}


class Said(msgspec.Struct, frozen=True):
    """One line of a report: its code (a key of :data:`SENTENCES` and of the catalogs' ``verify`` part) and the
    parameters its message is rendered with, plain values (numbers, strings, lists of numbers)."""

    code: str
    params: dict[str, Any] = {}

    def __str__(self) -> str:
        """The line in English."""
        return Words(DEFAULT).format(SENTENCES[self.code], self.params)


@dataclass
class Report:
    """What was checked, what failed and what is worth knowing, each line a :class:`Said` (``passed``,
    ``failed``, ``noted``; in English sentences: ``checked``, ``problems``, ``notes``): fair when none failed."""

    game: str = ""
    viewpoint: str = ""
    seat: int | None = None  # the seat of a seat's export
    passed: list[Said] = field(default_factory=list)
    failed: list[Said] = field(default_factory=list)
    noted: list[Said] = field(default_factory=list)

    @property
    def checked(self) -> list[str]:
        return [str(said) for said in self.passed]

    @property
    def problems(self) -> list[str]:
        return [str(said) for said in self.failed]

    @property
    def notes(self) -> list[str]:
        return [str(said) for said in self.noted]

    @property
    def fair(self) -> bool:
        return not self.failed and bool(self.passed)

    def codes(self) -> dict[str, list[Said]]:
        """Every line as its code and parameters, under the name of its English list."""
        return {"checked": self.passed, "problems": self.failed, "notes": self.noted}


def verify(export: Export, games: Mapping[str, AnyGame]) -> Report:
    """Check an export (read with ``projections.export.read``)."""
    report = Report()
    head = export.header
    if head is None:
        report.failed.append(Said("first_format"))
        return report
    report.game, report.viewpoint, report.seat = head.game, head.viewpoint, head.seat
    game = games.get(head.game)
    if game is None:
        report.failed.append(Said("no_such_game", {"game": head.game}))
        return report
    try:
        facts = events(game, export)
    except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as exc:
        report.failed.append(Said("unreadable_fact", {"game": head.game, "title": game.title, "error": str(exc)}))
        return report
    versions = [line.version for line in export.lines]
    if head.viewpoint in WHOLE and versions != list(range(1, len(versions) + 1)):
        report.failed.append(Said("versions_gap"))
        return report
    if not facts or not isinstance(facts[0], TableOpened):
        report.failed.append(Said("not_opened_first"))
        return report
    if facts[0].seed_hash is None:
        report.failed.append(Said("before_fair_play"))
        return report
    made = [DeckInfo(v, f.count, f.root) for v, f in zip(versions, facts, strict=True) if isinstance(f, DeckCommitted)]
    if head.commitments.seed_hash != facts[0].seed_hash or head.commitments.decks != made:
        report.failed.append(Said("header_commitments"))
        return report
    if head.viewpoint in WHOLE:
        _replay(game, facts, {line.version: line.sent for line in export.lines if line.sent}, head.outcome, report)
    else:
        _own(game, facts, versions, head.seat, report)
    return report


# -- every fact: the game played again ------------------------------------------------------------


def _replay(game: AnyGame, facts: list[Any], sent: dict[int, Sent], claimed: Any, report: Report) -> None:
    opened: TableOpened = facts[0]
    seed = opened.seed or next((f.seed for f in facts if isinstance(f, SeedRevealed)), None)
    if seed is None:
        report.failed.append(Said("seed_missing"))
        return
    if fair.seed_hash(seed) != opened.seed_hash:
        report.failed.append(Said("seed_hash_wrong"))
        return
    report.passed.append(Said("seed_checked"))
    if game.rules_version != opened.rules:
        report.noted.append(Said("rules_version", {"played": opened.rules, "plays": game.rules_version}))
    commands = msgspec.json.Decoder(command_union(game))
    table = evolve(game, None, opened)
    at, steps, counted = 1, 0, {"command": 0, "seat": 0, "table": 0, "chat": 0}
    while at < len(facts):
        version = at + 1
        step = sent.get(version)
        try:
            made, kind = _decided(game, table, facts, at, step, commands)
        except Rejected as exc:
            refused = {"version": version, "refusal": exc.code, "message": exc.message, "details": exc.details}
            report.failed.append(Said("step_refused", msgspec.to_builtins(refused)))
            return
        except _Unaccounted as exc:
            report.failed.append(Said(exc.code, {"version": version, **exc.params}))
            return
        found = [fair.stored(f) if type(f) is CardsOpened else f for f in facts[at : at + len(made)]]  # as decided
        if made != found or (step is not None and step.last != at + len(made)):
            report.failed.append(_difference(version, made, found))
            return
        for fact in made:
            table = evolve(game, table, fact)
        at += len(made)
        steps += 1
        counted[kind] += 1
    counts = {"commands": counted["command"], "seats": counted["seat"], "table": counted["table"], "facts": len(facts)}
    report.passed.append(Said("steps_checked", counts))
    if counted["chat"]:
        report.noted.append(Said("chat_taken", {"chat": table.chat.facts}))
    _commitments(game, table, facts, report)
    people = [s.seat for s in table.seats if s is not None and s.bot is None]
    silent = [seat for seat in people if not table.entropies[seat]]
    report.passed.append(Said("key_checked", {"added": len(people) - len(silent), "people": len(people)}))
    if silent:
        report.noted.append(Said("no_entropy", {"seats": silent}))
    chosen = [s.seat for s in table.seats if s is not None and s.bot is not None and table.entropies[s.seat]]
    if chosen:
        report.noted.append(Said("bot_entropy", {"seats": chosen}))
    ended = outcome(game, table) if status(game, table) == "finished" else None
    if msgspec.json.encode(ended) != msgspec.json.encode(claimed):  # as JSON: a dict's keys are strings there
        report.failed.append(Said("outcome_differs"))
        return
    if ended is not None:
        report.passed.append(Said("outcome_checked"))
    elif not any(isinstance(f, SeedRevealed) for f in facts):
        report.noted.append(Said("not_over"))


class _Unaccounted(Exception):
    """A fact no step accounts for: the code of what is said of it, and its parameters but the version."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def _decided(
    game: AnyGame, table: Table, facts: Sequence[Any], at: int, step: Sent | None, commands: Any
) -> tuple[list[Any], str]:
    """The facts the step at ``facts[at]`` makes when decided again, and what kind of step it is."""
    fact = facts[at]
    if type(fact) in CHAT_FACT_TYPES:  # chat draws nothing: its facts are taken as they are
        return list(facts[at : step.last if step is not None else at + 1]), "chat"
    if step is not None:
        if step.command is None:
            raise _Unaccounted("command_not_kept")
        command = commands.decode(msgspec.json.encode(step.command))
        return decide(game, table, command, step.seat, Ctx(rng=_chance(table), now_ms=step.at_ms)), "command"
    if isinstance(fact, SeatTaken):
        rest = facts[at + 1 :]
        tick = next((f.at_ms for f in rest[: len(rest)] if isinstance(f, ClockTicked)), 0)
        dealt = Ctx(rng=_chance(table, fact.entropy), now_ms=tick)
        name = fact.name if fact.player is None else ""
        return take_seat(game, table, fact.seat, name, fact.bot, dealt, True, fact.player, fact.entropy), "seat"
    if isinstance(fact, TableCancelled):
        return (cancel_by_operator if fact.by == "operator" else cancel)(game, table), "table"
    if isinstance(fact, SeatResigned) and fact.reason == "dropped":
        return drop(game, table, fact.seat), "table"
    if isinstance(fact, SeatResigned) and fact.reason == "removed":
        return remove_seat(game, table, fact.seat), "table"
    if isinstance(fact, RematchOpened):
        return open_rematch(game, table, fact.game_id), "table"
    raise _Unaccounted("unaccounted_fact", fact=type(fact).__name__)


def _chance(table: Table, entropy: str = "") -> Any:
    drawn = chance(table, entropy)
    assert drawn is not None  # a table with a seed
    return drawn


def _difference(version: int, made: list[Any], found: Sequence[Any]) -> Said:
    for i, (mine, theirs) in enumerate(zip(made, found, strict=False)):
        if mine != theirs:
            return Said("fact_differs", {"version": version + i, "made": _short(mine), "found": _short(theirs)})
    return Said("fact_count_differs", {"version": version, "made": len(made), "found": len(found)})


def _short(fact: Any) -> str:
    text = msgspec.json.encode(fact).decode()
    return text if len(text) <= 160 else text[:157] + "..."


def _commitments(game: AnyGame, table: Table, facts: list[Any], report: Report) -> None:
    assert table.key is not None
    key = bytes.fromhex(table.key)
    decks: dict[int, DeckCommitted] = {}
    checked = 0
    for version, fact in enumerate(facts, 1):
        if isinstance(fact, DeckCommitted):
            items = fact.items or ()
            if fact.count != len(items) or fair.root(key, version, items) != fact.root:
                report.failed.append(Said("commitment_top", {"version": version}))
                return
            decks[version] = fact
        elif isinstance(fact, CardsOpened):
            for opening in fact.openings:
                deck = decks.get(opening.commitment)
                if deck is None or not fair.opens(opening, deck):
                    report.failed.append(Said("opening_fails", {"version": version, "seat": opening.seat}))
                    return
                checked += 1
    report.passed.append(Said("commitments_checked", {"commitments": len(decks), "openings": checked}))


# -- one seat's export: its own openings -------------------------------------------------------------


def _own(game: AnyGame, facts: list[Any], versions: list[int], seat: int | None, report: Report) -> None:
    decks: dict[int, DeckCommitted] = {}
    seen: set[str] = set()  # every string the seat was sent so far
    mine, key = 0, None
    entropies: dict[int, str] = {}
    revealed = next((f.seed for f in facts if isinstance(f, SeedRevealed)), None)
    for version, fact in zip(versions, facts, strict=True):
        if isinstance(fact, SeatTaken):
            entropies[fact.seat] = fact.entropy
        if isinstance(fact, DeckCommitted):
            decks[version] = fact
        elif isinstance(fact, CardsOpened):
            for opening in fact.openings:
                if opening.seat != seat:
                    report.failed.append(
                        Said("others_opening", {"version": version, "seat": seat, "other": opening.seat})
                    )
                    return
                deck = decks.get(opening.commitment)
                if deck is None or not fair.opens(opening, deck):
                    report.failed.append(Said("own_opening_fails", {"version": version, "item": opening.item}))
                    return
                if opening.item not in seen:
                    report.failed.append(Said("opened_unsent", {"version": version, "item": opening.item}))
                    return
                mine += 1
        seen |= _strings(msgspec.to_builtins(fact))
    report.passed.append(Said("own_checked", {"opened": mine, "seat": seat}))
    opened = facts[0]
    if revealed is None:
        report.noted.append(Said("own_not_over"))
        return
    if fair.seed_hash(revealed) != opened.seed_hash:
        report.failed.append(Said("seed_hash_wrong"))
        return
    key = fair.table_key(revealed, [entropies.get(s, "") for s in range(opened.players)])
    for version, fact in zip(versions, facts, strict=True):
        if isinstance(fact, CardsOpened):
            for opening in fact.openings:
                if fair.salt(key, opening.commitment, opening.position).hex() != opening.salt:
                    report.failed.append(Said("salt_wrong", {"version": version}))
                    return
    report.passed.append(Said("own_seed_checked"))


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


__all__ = ["CLOCK", "SENTENCES", "Report", "Said", "verify"]
