"""Building a move pick by pick (docs/sdk.md, "Building a move"; docs/API.md, "Building a move").

A move starts from a step (``legal()``'s first step, an update's ``step``, or one the server answers) and grows
one pick at a time: ``pick`` asks the server for the next step, so a pick that was not offered is refused there
(:class:`RuleViolation` ``not_offered``). Once ``command`` is set the move may be sent, or picked on where the
step offers more (Miss Liz's streets: one cell or several). ``commands`` lists every complete command below a
step, walking its picks through the server, and gives up past ``limit``.

:class:`Move` goes with the blocking client, :class:`AsyncMove` with the async one. Both are values: a pick
answers a new move and leaves the one it was made on as it was, so a walk can try each option in turn.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

import msgspec

from clients.python.errors import Conflict
from clients.python.models import LegalCommands, MoveStep, Option, Pick, PickValue, Step, StepMessage, Update

if TYPE_CHECKING:
    from clients.python.aio import AsyncClient, AsyncStream
    from clients.python.models import CommandAnswer
    from clients.python.sync import Client, Stream

__all__ = ["AsyncMove", "Choice", "Move", "Start", "starting"]

Tagged = dict[str, Any]
Start = LegalCommands | Update | MoveStep | StepMessage  # what a move may start from
Choice = Option | Pick | str  # an option offered, a pick, or a field's name (then its value follows)
NOTHING = Step()
LIMIT = 200  # commands listed at most, as legal() lists a move's


def starting(start: Start) -> tuple[int, tuple[Pick, ...], Step]:
    """The version, the picks made and the step that ``start`` carries."""
    if isinstance(start, LegalCommands):
        return start.version, (), start.step
    if isinstance(start, Update):
        return start.version, (), start.step or NOTHING  # no step: the game does not await this seat
    return start.version, tuple(start.picks), start.step


def pick_of(choice: Choice, value: PickValue | tuple[int, ...] | None) -> Pick:
    if isinstance(choice, Option):
        return choice.pick
    if isinstance(choice, Pick):
        return choice
    if value is None:
        raise TypeError(f"pick({choice!r}, value): a field's pick needs its value")
    return Pick(choice, list(value) if isinstance(value, tuple) else value)


class Building:
    """What a move is, whichever client builds it: the picks made, and the step they reach at ``version``."""

    def __init__(self, game_id: str, version: int, step: Step, picks: tuple[Pick, ...] = ()) -> None:
        self.game_id = game_id
        self.version = version  # the version the step was computed at (and the one a send expects)
        self.step = step
        self.picks = picks

    @property
    def options(self) -> list[Option]:
        """What may be picked next (an option with ``command`` ends the move: send that command)."""
        return self.step.options

    @property
    def command(self) -> Tagged | None:
        """The command the picks make, once they make one."""
        return self.step.command

    @property
    def complete(self) -> bool:
        return self.step.command is not None

    @property
    def empty(self) -> bool:
        """Nothing to pick and nothing to send: the seat has no move here."""
        return self.step.empty

    def ready(self) -> Tagged:
        """The command to send; ``ValueError`` while the picks make none."""
        if self.step.command is None:
            fields = sorted({o.field for o in self.step.options})
            raise ValueError(f"the move is not complete: pick {' or '.join(fields) or 'nothing (no move)'} next")
        return self.step.command

    def _same_version(self, after: Building) -> None:
        if after.version != self.version:
            raise Conflict(
                409,
                "version_conflict",
                f"The table moved on (to version {after.version}) while its commands were listed; look again.",
                {"version": after.version},
            )

    def __repr__(self) -> str:
        picks = ", ".join(f"{p.field}={p.value!r}" for p in self.picks)
        at = f"{self.game_id} at {self.version}, picks [{picks}]"
        return f"{type(self).__name__}({at}: {len(self.options)} options, command {self.command})"


class Found:
    """Complete commands met on a walk, each once, up to a limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.commands: dict[bytes, Tagged] = {}

    def add(self, command: Tagged) -> bool:
        """Keep ``command``; ``False`` once there are more than the limit."""
        self.commands.setdefault(msgspec.json.encode(command), command)
        return len(self.commands) <= self.limit


class Move(Building):
    """A move the blocking client builds: ``move.pick(option)``, ``move.pick("centre", card)``, ``move.send()``."""

    def __init__(
        self,
        client: Client,
        game_id: str,
        version: int,
        step: Step,
        picks: tuple[Pick, ...] = (),
        stream: Stream | None = None,
    ) -> None:
        super().__init__(game_id, version, step, picks)
        self.client = client
        self.stream = stream  # asks each step on this socket rather than with POST /moves

    def pick(self, choice: Choice, value: PickValue | tuple[int, ...] | None = None) -> Move:
        """The move after one more pick: an option offered, a :class:`Pick`, or a field and its value."""
        picks = [*self.picks, pick_of(choice, value)]
        answer = self.stream.moves(picks) if self.stream is not None else self.client.moves(self.game_id, picks)
        return Move(self.client, self.game_id, answer.version, answer.step, tuple(answer.picks), self.stream)

    def send(self, command_id: str | None = None) -> CommandAnswer:
        """Send the command the picks make, expecting the version it was built at (else :class:`Conflict`)."""
        return self.client.send(self.game_id, self.ready(), command_id, self.version)

    def walk(self) -> Iterator[Tagged]:
        """Every complete command below this step, depth first, asking the server for the steps on the way."""
        if self.command is not None:
            yield self.command
        for option in self.options:
            if option.command is not None:
                yield option.command
                continue
            after = self.pick(option)
            self._same_version(after)
            yield from after.walk()

    def commands(self, limit: int = LIMIT) -> list[Tagged] | None:
        """Every complete command below this step, each once; ``None`` when there are more than ``limit``."""
        found = Found(limit)
        for command in self.walk():
            if not found.add(command):
                return None
        return list(found.commands.values())


class AsyncMove(Building):
    """A move the async client builds: ``await move.pick(option)``, ``await move.send()``."""

    def __init__(
        self,
        client: AsyncClient,
        game_id: str,
        version: int,
        step: Step,
        picks: tuple[Pick, ...] = (),
        stream: AsyncStream | None = None,
    ) -> None:
        super().__init__(game_id, version, step, picks)
        self.client = client
        self.stream = stream

    async def pick(self, choice: Choice, value: PickValue | tuple[int, ...] | None = None) -> AsyncMove:
        """The move after one more pick: an option offered, a :class:`Pick`, or a field and its value."""
        picks = [*self.picks, pick_of(choice, value)]
        if self.stream is not None:
            answer: MoveStep | StepMessage = await self.stream.moves(picks)
        else:
            answer = await self.client.moves(self.game_id, picks)
        return AsyncMove(self.client, self.game_id, answer.version, answer.step, tuple(answer.picks), self.stream)

    async def send(self, command_id: str | None = None) -> CommandAnswer:
        """Send the command the picks make, expecting the version it was built at (else :class:`Conflict`)."""
        return await self.client.send(self.game_id, self.ready(), command_id, self.version)

    async def walk(self) -> AsyncGenerator[Tagged, None]:
        """Every complete command below this step, depth first, asking the server for the steps on the way."""
        if self.command is not None:
            yield self.command
        for option in self.options:
            if option.command is not None:
                yield option.command
                continue
            after = await self.pick(option)
            self._same_version(after)
            async for command in after.walk():
                yield command

    async def commands(self, limit: int = LIMIT) -> list[Tagged] | None:
        """Every complete command below this step, each once; ``None`` when there are more than ``limit``."""
        found = Found(limit)
        async with aclosing(self.walk()) as walk:
            async for command in walk:
                if not found.add(command):
                    return None
        return list(found.commands.values())
