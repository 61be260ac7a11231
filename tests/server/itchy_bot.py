"""A seeded bot for Itchy Feet over the API: it picks only among the legal commands of an awaited
seat, but leans towards the end of the game (docs/games/itchy-feet.md, "What legal_commands lists").

Policy, per awaited reason:

- ``action``: ``Travel`` whenever listed; a listed ``DitchForbidden`` / ``Smuggle`` most of the time
  (a forbidden object blocks travelling); a listed ``Recycle`` (it only ever takes a wanted card) or
  ``PlaySpecial`` often; ``OfferTrade`` and ``Steal`` now and then (offers are few: the listing
  stops after 3 rejections a turn); otherwise ``Draw``.
- ``trade_answer``: ``AcceptTrade`` when listed, most of the time; otherwise ``RejectTrade``.
- ``react``: ``PassReaction`` most of the time, a listed Mousetrap sometimes.
- ``discard``: any listed card (the listing offers spare cards first).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tests.server.conftest import Running

Command = dict[str, Any]


@dataclass
class Policy:
    ditch: float = 0.9
    recycle: float = 1.0
    special: float = 0.4
    offer: float = 0.3
    steal: float = 0.05
    accept: float = 1.0
    mousetrap: float = 0.02


class ItchyBot:
    def __init__(self, seed: object, policy: Policy | None = None) -> None:
        self.rng = random.Random(str(seed))
        self.policy = policy or Policy()

    def _maybe(self, p: float, options: list[Command]) -> Command | None:
        if options and self.rng.random() < p:
            return self.rng.choice(options)
        return None

    def choose(self, legal: list[Command]) -> Command:
        """One of ``legal`` (never anything else)."""
        assert legal, "the bot was asked to move with nothing legal"
        by: dict[str, list[Command]] = {}
        for command in legal:
            by.setdefault(command["type"], []).append(command)
        p = self.policy
        if "Travel" in by:
            return by["Travel"][0]
        if "PassReaction" in by:  # a reaction window
            return self._maybe(p.mousetrap, by.get("PlayMousetrap", [])) or by["PassReaction"][0]
        if "RejectTrade" in by:  # a trade answer
            return self._maybe(p.accept, by.get("AcceptTrade", [])) or by["RejectTrade"][0]
        if "DiscardDownToSeven" in by:
            return self.rng.choice(by["DiscardDownToSeven"])
        for kinds, chance in (
            (("DitchForbidden", "Smuggle"), p.ditch),
            (("Recycle",), p.recycle),
            (("PlaySpecial",), p.special),
            (("OfferTrade",), p.offer),
            (("Steal",), p.steal),
        ):
            picked = self._maybe(chance, [c for k in kinds for c in by.get(k, [])])
            if picked is not None:
                return picked
        if "Draw" in by:
            return by["Draw"][0]
        return self.rng.choice(legal)


async def table(server: Running, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = await server.get(f"/api/v1/games/{game_id}", token)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


async def legal(server: Running, game_id: str, token: str) -> list[Command]:
    r = await server.get(f"/api/v1/games/{game_id}/legal-commands", token)
    assert r.status_code == 200, r.text
    commands: list[Command] = r.json()["commands"]
    return commands


async def round_(server: Running, game_id: str, tokens: list[str], bot: ItchyBot, sent: int) -> int:
    """One GET of the table, then a move of each awaited seat in a random order (one
    ``legal-commands`` and one command each) while they stay awaited: several seats are awaited
    at once only to pass or spring a Mousetrap, or to discard down to the limit, and a pass or a
    discard leaves the others awaited. Stops after any other command. The number of commands
    sent; 0 once nobody is awaited."""
    awaiting = (await table(server, game_id))["awaiting"]
    seats = sorted({a["seat"] for a in awaiting})
    bot.rng.shuffle(seats)
    done = 0
    for seat in seats:
        commands = await legal(server, game_id, tokens[seat])
        if not commands:  # no longer awaited (the last pass resolved the action, say)
            break
        command = bot.choose(commands)
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
