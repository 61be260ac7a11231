"""``ludoteca audit URL``: the twin-game noninterference test, run against any deployment.

Hidden information holds when two games identical but for cards one viewer may not see tell that
viewer the same bytes. The audit deals random games from seeds it chooses (projections/twins.py:
the table's seed, each seat's entropy, random legal moves), makes each one's twin for one viewer
(a pile of cards hidden from it permuted), and brings both into the deployment with the admin's
import to play on (``POST /games/import?play=true``, which every other path refuses). Then it asks
both games, as the viewer and as a spectator, for everything a frontend asks for: the table, the
feed, the legal commands, the first step of a move and the step after each first pick, replays,
the exports, and refusals of commands naming the permuted cards; and it plays both on in lockstep
(a command legal in both, the same command id) and asks again after every step. Every answer is
compared byte for byte, once the two games' ids and the clock's readings (the two games are not
played at the same millisecond) are set aside. A difference is a leak.

It needs the admin token (``LUDOTECA_ADMIN_TOKEN``) and a deployment running this code's games.
The report names its seed: the same seed deals the same games and asks the same questions. Not
covered here, and covered by the suite (docs/reliability.md): notifications (a webhook receiver
the deployment can reach) and bots' answer times (the timing oracle).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from clients.python.aio import LIMITS
from domain.catalog import GAMES
from domain.engine import AnyGame
from domain.table import option_bounds, status
from projections.export import events as export_events
from projections.export import read as read_export
from projections.twins import hidden_from, played, tables, twin

API = "/api/v1"
REPLAYS = 3  # versions replayed per viewer and pair, besides the last
RETRIES = 10  # times a request is sent again after a 429


@dataclass
class Figures:
    pairs: int = 0
    answers: int = 0  # answers compared, pair by pair
    steps: int = 0  # commands played in lockstep
    hidden: int = 0  # cards permuted between twins


@dataclass
class Report:
    url: str
    seed: str
    games: dict[str, Figures] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    twins: list[str] = field(default_factory=list)  # the games imported, each called off once asked

    def lines(self) -> list[str]:
        out = [f"ludoteca audit {self.url} --seed {self.seed}"]
        for game, f in self.games.items():
            out.append(
                f"  {game}: {f.pairs} twin pairs, {f.hidden} cards permuted, {f.steps} commands in lockstep, "
                f"{f.answers} answers compared"
            )
        out += [f"  LEAK {leak}" for leak in self.leaks] or ["  no difference: nothing hidden reached a viewer"]
        out.append(f"  {len(self.twins)} twin games imported, each called off by the operator once asked")
        return out


def log_lines(game: AnyGame, log: list[Any]) -> bytes:
    """A log in the export's first format: a fact a line."""
    rows = [{"version": v, "schema": game.event_schema, "event": msgspec.to_builtins(e)} for v, e in enumerate(log, 1)]
    return b"".join(json.dumps(row).encode() + b"\n" for row in rows)


def steady(value: Any) -> Any:
    """An answer without what differs between any two games: a clock's readings in milliseconds, and
    the hashes of a commitment made since the twins were brought in (its top, an opening's path):
    they cover cards that differ between the twins, hidden by salts no seat has until the end."""
    if isinstance(value, dict):
        return {k: 0 if _differs(k, v) else steady(v) for k, v in value.items()}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


def _differs(key: str, value: Any) -> bool:
    return (key.endswith("_ms") and isinstance(value, int)) or (key in ("root", "path") and value is not None)


class Twins:
    """One pair of games on the deployment: the same requests to both, their answers compared."""

    def __init__(self, http: httpx.AsyncClient, game: str, ids: tuple[str, str], tokens: tuple[list[Any], list[Any]]):
        self.http, self.game, self.ids, self.tokens = http, game, ids, tokens
        self.differences: list[str] = []
        self.answers = 0

    def header(self, side: int, seat: int | None) -> dict[str, str]:
        token = None if seat is None else self.tokens[side][seat]
        return {"Authorization": f"Bearer {token}"} if token else {}

    async def ask(self, seat: int | None, method: str, path: str, **kwargs: Any) -> tuple[Any, Any]:
        """The same request to both games, as ``seat`` (``None``: a spectator); the two answers,
        compared (a difference is recorded), each as (status, body) with its game's id set aside."""
        answers = []
        for side in (0, 1):
            r = await self.send(method, API + path.format(game=self.ids[side]), self.header(side, seat), **kwargs)
            text = r.text.replace(self.ids[side], "<game>")
            try:
                body: Any = steady(json.loads(text))
            except json.JSONDecodeError:
                body = [
                    steady(json.loads(line)) if line.strip().startswith("{") else line for line in text.splitlines()
                ]
            answers.append((r.status_code, body))
        self.answers += 1
        if answers[0] != answers[1]:
            who = "a spectator" if seat is None else f"seat {seat}"
            where = first_difference(answers[0], answers[1])
            self.differences.append(f"{self.game}: {method} {path} as {who}: {where}")
        return answers[0], answers[1]

    async def send(self, method: str, url: str, headers: dict[str, str], **kwargs: Any) -> httpx.Response:
        """One request, again after ``Retry-After`` while the seat's rate says 429: the audit asks more
        than a player would, and a 429 in one twin only would read as a difference. (A command is sent
        under its id: the same again is answered as the first time.)"""
        for _ in range(RETRIES):
            r = await self.http.request(method, url, headers=headers, **kwargs)
            if r.status_code != 429:
                return r
            await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
        return r

    async def look(self, viewer: int) -> None:
        """Everything a frontend asks for, as the viewer and as a spectator."""
        for seat in (viewer, None):
            (_, table), _ = await self.ask(seat, "GET", "/games/{game}")
            await self.ask(seat, "GET", "/games/{game}/events", params={"after": 0, "limit": 1000})
            version = table.get("version", 1) if isinstance(table, dict) else 1
            for at in sorted({1, max(1, version // 2), version, *range(max(1, version - REPLAYS), version)}):
                await self.ask(seat, "GET", "/games/{game}/replay", params={"version": at})
            await self.ask(seat, "GET", "/games/{game}/export", params={"as": "spectator" if seat is None else "seat"})
        await self.ask(viewer, "GET", "/games/{game}/legal-commands")
        (_, step), _ = await self.ask(viewer, "POST", "/games/{game}/moves", json={"picks": []})
        options = step.get("step", {}).get("options", []) if isinstance(step, dict) else []
        for option in options[:8]:
            pick = {"field": option["field"], "value": option["value"]}
            await self.ask(viewer, "POST", "/games/{game}/moves", json={"picks": [pick]})

    async def probe(self, viewer: int, hidden: list[str], rng: random.Random) -> None:
        """Commands naming the permuted cards, from the viewer: refused (or taken) alike."""
        (_, legal), _ = await self.ask(viewer, "GET", "/games/{game}/legal-commands")
        commands = legal.get("commands", []) if isinstance(legal, dict) else []
        base = commands[0] if commands else {"type": "Nothing"}
        for card in rng.sample(hidden, min(3, len(hidden))):
            named = {k: (card if isinstance(v, str) and k != "type" else v) for k, v in base.items()}
            if named == base:
                named = {**base, "card": card}
            body = {"command": named, "command_id": f"audit-probe-{card}", "expected_version": legal.get("version")}
            await self.ask(viewer, "POST", "/games/{game}/commands", json=body)

    async def step(self, rng: random.Random, sent: int) -> bool:
        """One command legal in both games, from a seat the audit holds, played in both; whether one was."""
        (_, table), _ = await self.ask(None, "GET", "/games/{game}")
        if not isinstance(table, dict) or table.get("status") != "active":
            return False
        for awaited in table.get("awaiting", []):
            seat = awaited["seat"]
            if self.tokens[0][seat] is None:
                continue
            mine = [await self.legal(side, seat) for side in (0, 1)]
            both = [c for c in mine[0][1] if c in mine[1][1]]
            if not both:
                continue
            command = rng.choice(both)
            body = {"command": command, "command_id": f"audit-{sent}", "expected_version": mine[0][0]}
            for side in (0, 1):
                r = await self.send(
                    "POST", f"{API}/games/{self.ids[side]}/commands", self.header(side, seat), json=body
                )
                if r.status_code != 200:
                    self.differences.append(f"{self.game}: a command legal in both twins was refused: {r.text[:200]}")
                    return False
            return True
        return False

    async def legal(self, side: int, seat: int) -> tuple[int, list[Any]]:
        r = await self.send("GET", f"{API}/games/{self.ids[side]}/legal-commands", self.header(side, seat))
        answer = r.json() if r.status_code == 200 else {}
        return answer.get("version", 0), answer.get("commands", [])


async def call_off(http: httpx.AsyncClient, admin: dict[str, str], ids: tuple[str, str]) -> None:
    """End both twins as the operator (``TableCancelled``): they were brought in to be asked, not played,
    and would otherwise be listed as games under way."""
    headers = {"Authorization": admin["Authorization"]}
    for game_id in ids:
        r = await http.post(f"{API}/admin/games/{game_id}/cancel", json={"reason": "ludoteca audit"}, headers=headers)
        if r.status_code != 422:  # 422: it ended by itself meanwhile
            r.raise_for_status()


async def stored(http: httpx.AsyncClient, admin: dict[str, str], game: AnyGame, game_id: str) -> list[Any]:
    """The game's stored log, as the deployment holds it (the admin's export of every fact)."""
    r = await http.get(f"{API}/games/{game_id}/export", params={"as": "server"}, headers=admin)
    r.raise_for_status()
    return export_events(game, read_export(r.content))


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two answers first differ, briefly."""
    if type(a) is not type(b):
        return f"{path or 'the answer'}: {str(a)[:80]} / {str(b)[:80]}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return f"{path or 'the answer'}: {len(a)} items / {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'the answer'}: {str(a)[:80]} / {str(b)[:80]}"


async def audit(
    url: str, admin_token: str, games: list[str] | None = None, pairs: int = 4, steps: int = 6, seed: str = ""
) -> Report:
    """The audit of the deployment at ``url`` (its games among ``games``, every one this code hosts by
    default): ``pairs`` twin pairs a game, each played on ``steps`` commands in lockstep."""
    seed = seed or random.SystemRandom().randbytes(8).hex()
    report = Report(url, seed)
    admin = {"Authorization": f"Bearer {admin_token}", "Content-Type": "application/x-ndjson"}
    async with httpx.AsyncClient(base_url=url.rstrip("/"), timeout=30, limits=LIMITS) as http:
        r = await http.get(f"{API}/games/catalog")
        r.raise_for_status()
        hosted = [g["game"] for g in r.json()["games"] if g["game"] in GAMES]
        for game_id in [g for g in hosted if games is None or g in games]:
            rng = random.Random(f"{seed}:{game_id}")
            figures = report.games.setdefault(game_id, Figures())
            for _ in range(pairs * 4):  # some deals hide nothing from the viewer chosen: try again
                if figures.pairs >= pairs:
                    break
                await audit_pair(http, admin, GAMES[game_id], rng, steps, report, figures)
    return report


async def audit_pair(
    http: httpx.AsyncClient,
    admin: dict[str, str],
    game: AnyGame,
    rng: random.Random,
    steps: int,
    report: Report,
    figures: Figures,
) -> None:
    """One random game and its twin for one viewer, brought in, asked alike, played on in lockstep."""
    # Windows that stay open through the audit: a clock closing one in one twin and not yet in the
    # other would be a difference of timing, not of what is hidden.
    patient = {name: most for name, (_, most) in option_bounds(game.options_type).items() if name.endswith("_ms")}
    players = rng.randint(game.min_players, game.max_players)
    log = played(game, players, rng, rng.randint(3, 40), patient, now_ms=int(time.time() * 1000))
    viewer = rng.randrange(players)
    made = twin(game, log, viewer, rng)
    if made is None or status(game, list(tables(game, log))[-1]) == "finished":
        return
    twin_log, hidden = made
    imported = []
    for one in (log, twin_log):
        r = await http.post(f"{API}/games/import", params={"play": "true"}, content=log_lines(game, one), headers=admin)
        r.raise_for_status()
        imported.append(r.json())
    ids = (imported[0]["game_id"], imported[1]["game_id"])
    report.twins += ids
    twins = Twins(http, game.id, ids, (imported[0]["tokens"], imported[1]["tokens"]))
    try:
        await twins.look(viewer)
        await twins.probe(viewer, hidden, rng)
        for sent in range(steps):
            if not await twins.step(rng, sent):
                break
            figures.steps += 1
            logs = [await stored(http, admin, game, one) for one in ids]
            if not all(set(hidden) <= hidden_from(game, one, viewer) for one in logs):
                break  # a permuted card reached the viewer by the rules (a draw): twins no more
            await twins.look(viewer)
    finally:
        await call_off(http, admin, ids)
    figures.pairs += 1
    figures.hidden += len(hidden)
    figures.answers += twins.answers
    report.leaks += twins.differences
