"""A seeded bot for Itchy Feet over the API: it builds each move pick by pick among the options the
server offers an awaited seat, leaning towards the end of the game with the domain tests' player
(tests/domain/itchy_feet/player.py: travel when it can, spare cards leave, wanted ones arrive).

It reads only what its seat may: its own table view (hand, country, discard pile), and the moves.
A move is walked from ``legal-commands``: its first step, and, for a move whose complete commands
are listed there (at most 200 of them), the picks of those commands; any other move (an offer, a
recycle from a long discard pile) goes on with ``POST /moves``, one pick at a time.
"""

from __future__ import annotations

import random
from typing import Any

from tests.domain.itchy_feet.player import Seen, choose
from tests.server.conftest import Running

Command = dict[str, Any]
Picks = list[tuple[str, Any]]


def picks_of(command: Command) -> Picks:
    """The picks that build ``command``: its type, then each field's values in order (a list one by one)."""
    out: Picks = [("type", command["type"])]
    for field, value in command.items():
        if field == "type" or value is None:
            continue
        out += [(field, v) for v in value] if isinstance(value, list) else [(field, value)]
    return out


def local_step(listed: list[Command], made: Picks) -> tuple[list[tuple[str, Any]], Command | None]:
    """The step after ``made`` among fully listed commands: the next picks, and the command they make."""
    options: dict[tuple[str, Any], None] = {}
    done = None
    for command in listed:
        picks = picks_of(command)
        if picks[: len(made)] != made:
            continue
        if len(picks) == len(made):
            done = command
        else:
            field, value = picks[len(made)]
            options[(field, _key(value))] = None
    return list(options), done


class ItchyBot:
    def __init__(self, seed: object, postcards: bool = False) -> None:
        self.rng = random.Random(str(seed))
        self.postcards = postcards

    def seen(self, view: dict[str, Any], seat: int) -> Seen:
        me = view["seats"][seat]
        country = me["country"] if me["country"] is not None else view["centre"]
        return Seen(tuple(me["hand"]), tuple(view["discard"]), country, self.postcards, view["deck_count"])

    async def move(self, server: Running, game_id: str, token: str, seat: int) -> Command | None:
        """A complete command for ``seat`` (None: it has no move now)."""
        seen = self.seen((await table(server, game_id, token))["view"], seat)
        answer = await legal_answer(server, game_id, token)
        first = answer["step"]
        if not first.get("options"):
            return None
        options = first["options"]
        index = choose([(o["field"], o["value"]) for o in options], False, [], seen, self.rng)
        assert index is not None
        if options[index].get("command") is not None:
            command: Command = options[index]["command"]
            return command
        made: Picks = [("type", options[index]["value"])]
        listed = [c for c in answer["commands"] if c["type"] == made[0][1]]
        for _ in range(64):
            ends: dict[tuple[str, Any], Command] = {}  # the options that end the move, and their commands
            if listed:
                pairs, done = local_step(listed, made)
            else:
                step = await server_step(server, game_id, token, made)
                offered = step.get("options", [])
                pairs, done = [(o["field"], _key(o["value"])) for o in offered], step.get("command")
                ends = {(o["field"], _key(o["value"])): o["command"] for o in offered if o.get("command") is not None}
            index = choose(pairs, done is not None, made, seen, self.rng)
            if index is None:
                assert done is not None
                return done
            if pairs[index] in ends:
                return ends[pairs[index]]
            made.append(pairs[index])
        raise AssertionError(f"no command within 64 picks: {made}")


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


async def table(server: Running, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = await server.get(f"/api/v1/games/{game_id}", token)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


async def legal_answer(server: Running, game_id: str, token: str) -> dict[str, Any]:
    r = await server.get(f"/api/v1/games/{game_id}/legal-commands", token)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


async def legal(server: Running, game_id: str, token: str) -> list[Command]:
    """The complete commands listed for the seat (the moves that have at most 200 of them)."""
    commands: list[Command] = (await legal_answer(server, game_id, token))["commands"]
    return commands


async def server_step(server: Running, game_id: str, token: str, made: Picks) -> dict[str, Any]:
    body = {"picks": [{"field": f, "value": list(v) if isinstance(v, tuple) else v} for f, v in made]}
    r = await server.http.post(
        f"/api/v1/games/{game_id}/moves", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 200, r.text
    step: dict[str, Any] = r.json()["step"]
    return step


async def round_(server: Running, game_id: str, tokens: list[str], bot: ItchyBot, sent: int) -> int:
    """One GET of the table, then a move of each awaited seat in a random order (one move built
    and one command sent each) while they stay awaited: several seats are awaited at once only to
    pass or spring a Mousetrap, or to discard down to the limit, and a pass or a discard leaves
    the others awaited. Stops after any other command. The number of commands sent; 0 once
    nobody is awaited."""
    awaiting = (await table(server, game_id))["awaiting"]
    seats = sorted({a["seat"] for a in awaiting})
    bot.rng.shuffle(seats)
    done = 0
    for seat in seats:
        command = await bot.move(server, game_id, tokens[seat], seat)
        if command is None:  # no longer awaited (the last pass resolved the action, say)
            break
        r = await server.send(game_id, tokens[seat], command, command_id=f"bot-{sent + done}")
        assert r.status_code == 200, r.text
        done += 1
        if command["type"] not in ("PassReaction", "DiscardDownToSeven"):
            break
    return done


async def play(server: Running, game_id: str, tokens: list[str], bot: ItchyBot, max_commands: int) -> int:
    """Play until nobody is awaited or ``max_commands`` were sent; the number of commands sent."""
    sent = 0
    while sent < max_commands:
        done = await round_(server, game_id, tokens, bot, sent)
        if not done:
            break
        sent += done
    return sent
