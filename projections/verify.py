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
from projections.export import WHOLE, DeckInfo, Export, Sent, events


@dataclass
class Report:
    """What was checked (``checked``, in words) and what failed (``problems``): fair when none did."""

    game: str = ""
    viewpoint: str = ""
    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def fair(self) -> bool:
        return not self.problems and bool(self.checked)


def verify(export: Export, games: Mapping[str, AnyGame]) -> Report:
    """Check an export (read with ``projections.export.read``)."""
    report = Report()
    head = export.header
    if head is None:
        report.problems.append("a log of the first export format: it has no header, no commands, no commitments")
        return report
    report.game, report.viewpoint = head.game, head.viewpoint
    game = games.get(head.game)
    if game is None:
        report.problems.append(f"this code has no game {head.game!r}")
        return report
    try:
        facts = events(game, export)
    except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as exc:
        report.problems.append(f"a fact does not read as a fact of {game.title}: {exc}")
        return report
    versions = [line.version for line in export.lines]
    if head.viewpoint in WHOLE and versions != list(range(1, len(versions) + 1)):
        report.problems.append("the facts' versions do not run 1, 2, 3... with no gap")
        return report
    if not facts or not isinstance(facts[0], TableOpened):
        report.problems.append("the first fact is not the table's opening")
        return report
    if facts[0].seed_hash is None:
        report.problems.append("the table opened before fair play: it committed to no seed, there is nothing to check")
        return report
    made = [DeckInfo(v, f.count, f.root) for v, f in zip(versions, facts, strict=True) if isinstance(f, DeckCommitted)]
    if head.commitments.seed_hash != facts[0].seed_hash or head.commitments.decks != made:
        report.problems.append("the header's commitments are not the ones the facts make")
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
        report.problems.append("the seed is not in the export: it is revealed once the table is over")
        return
    if fair.seed_hash(seed) != opened.seed_hash:
        report.problems.append("the revealed seed's SHA-256 is not the hash TableOpened committed to")
        return
    report.checked.append("the server seed: its SHA-256 is the hash committed to when the table opened")
    if game.rules_version != opened.rules:
        report.notes.append(f"the table played rules version {opened.rules}; this code plays {game.rules_version}")
    commands = msgspec.json.Decoder(command_union(game))
    table = evolve(game, None, opened)
    at, steps, counted = 1, 0, {"command": 0, "seat": 0, "table": 0, "chat": 0}
    while at < len(facts):
        version = at + 1
        step = sent.get(version)
        try:
            made, kind = _decided(game, table, facts, at, step, commands)
        except Rejected as exc:
            report.problems.append(
                f"version {version}: the rules refuse the step found there ({exc.code}: {exc.message})"
            )
            return
        except _Unaccounted as exc:
            report.problems.append(f"version {version}: {exc}")
            return
        found = facts[at : at + len(made)]
        if made != found or (step is not None and step.last != at + len(made)):
            report.problems.append(_difference(version, made, found))
            return
        for fact in made:
            table = evolve(game, table, fact)
        at += len(made)
        steps += 1
        counted[kind] += 1
    report.checked.append(
        f"every step decided again, its facts as exported: {counted['command']} commands, {counted['seat']} seats "
        f"taken (the last dealt), {counted['table']} table facts; {len(facts)} facts, none unaccounted for"
    )
    if counted["chat"]:
        report.notes.append(f"{table.chat.facts} chat facts are taken as exported: chat draws nothing")
    _commitments(game, table, facts, report)
    people = [s.seat for s in table.seats if s is not None and s.bot is None]
    silent = [seat for seat in people if not table.entropies[seat]]
    report.checked.append(
        f"the table key: the seed keyed over every seat's entropy ({len(people) - len(silent)} of "
        f"{len(people)} people's seats added their own)"
    )
    if silent:
        report.notes.append(f"seat(s) {', '.join(map(str, silent))} added no entropy of their own")
    chosen = [s.seat for s in table.seats if s is not None and s.bot is not None and table.entropies[s.seat]]
    if chosen:
        report.notes.append(f"the bot seat(s) {', '.join(map(str, chosen))} added entropy: the server chose it")
    ended = outcome(game, table) if status(game, table) == "finished" else None
    if msgspec.json.encode(ended) != msgspec.json.encode(claimed):  # as JSON: a dict's keys are strings there
        report.problems.append("the outcome the game's facts lead to is not the one the export's header gives")
        return
    if ended is not None:
        report.checked.append("the outcome: the facts lead to the one the header gives")
    elif not any(isinstance(f, SeedRevealed) for f in facts):
        report.notes.append("the table is not over: its seed is not revealed yet")


class _Unaccounted(Exception):
    pass


def _decided(
    game: AnyGame, table: Table, facts: Sequence[Any], at: int, step: Sent | None, commands: Any
) -> tuple[list[Any], str]:
    """The facts the step at ``facts[at]`` makes when decided again, and what kind of step it is."""
    fact = facts[at]
    if type(fact) in CHAT_FACT_TYPES:  # chat draws nothing: its facts are taken as they are
        return list(facts[at : step.last if step is not None else at + 1]), "chat"
    if step is not None:
        if step.command is None:
            raise _Unaccounted("its command was not kept (a step from before commands were kept)")
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
    raise _Unaccounted(f"{type(fact).__name__} is no command's, and no step of the table's own makes it")


def _chance(table: Table, entropy: str = "") -> Any:
    drawn = chance(table, entropy)
    assert drawn is not None  # a table with a seed
    return drawn


def _difference(version: int, made: list[Any], found: Sequence[Any]) -> str:
    for i, (mine, theirs) in enumerate(zip(made, found, strict=False)):
        if mine != theirs:
            return (
                f"version {version + i}: the rules, the seed and the entropies give "
                f"{_short(mine)}, the export has {_short(theirs)}"
            )
    return (
        f"version {version}: the step decided again makes {len(made)} facts, the export has {len(found)} "
        "before the next step"
    )


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
                report.problems.append(f"version {version}: the commitment's top is not its items' and salts'")
                return
            decks[version] = fact
        elif isinstance(fact, CardsOpened):
            for opening in fact.openings:
                deck = decks.get(opening.commitment)
                if deck is None or not fair.opens(opening, deck):
                    report.problems.append(f"version {version}: an opening for seat {opening.seat} does not open")
                    return
                checked += 1
    report.checked.append(
        f"{len(decks)} commitments rebuilt from their items and salts; {checked} openings open their commitment"
    )


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
                    report.problems.append(f"version {version}: seat {seat} was sent seat {opening.seat}'s opening")
                    return
                deck = decks.get(opening.commitment)
                if deck is None or not fair.opens(opening, deck):
                    report.problems.append(
                        f"version {version}: the opening of {opening.item} does not open its commitment"
                    )
                    return
                if opening.item not in seen:
                    report.problems.append(f"version {version}: {opening.item} was opened, but no fact sent it")
                    return
                mine += 1
        seen |= _strings(msgspec.to_builtins(fact))
    report.checked.append(
        f"{mine} of seat {seat}'s cards opened: each was at its place in a deck committed before it was dealt"
    )
    opened = facts[0]
    if revealed is None:
        report.notes.append("the table is not over: the seed, and with it every salt, is revealed at its end")
        return
    if fair.seed_hash(revealed) != opened.seed_hash:
        report.problems.append("the revealed seed's SHA-256 is not the hash TableOpened committed to")
        return
    key = fair.table_key(revealed, [entropies.get(s, "") for s in range(opened.players)])
    for version, fact in zip(versions, facts, strict=True):
        if isinstance(fact, CardsOpened):
            for opening in fact.openings:
                if fair.salt(key, opening.commitment, opening.position).hex() != opening.salt:
                    report.problems.append(f"version {version}: a salt is not the one the revealed seed derives")
                    return
    report.checked.append("the seed: its hash is the one committed to, and it derives every salt of the openings")


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


__all__ = ["CLOCK", "Report", "verify"]
