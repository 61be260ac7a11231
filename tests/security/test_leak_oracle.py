"""Hidden information, attacked over the wire: a leak oracle for every game.

For random games of every game in the catalog, played to a random point through a
real ``ludoteca serve`` (log level debug, its log captured), everything each seat and
the spectator receives is collected: REST bodies and headers (the table, legal
commands with their first step, the steps of random walks of picks through POST
/moves, the event feed, replays at every version, the export refused before the end),
errors for commands (sent, and asked about with POST /check) and for picks naming hidden
cards, and every WebSocket message (updates with their step, the answers to ``moves``
requests). The stored log (read with the admin export) tells the oracle which strings each
viewer may not see; none may occur in what it received, and none hidden from the spectator
may occur in the server's log lines.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any, get_args

import msgspec
import pytest
from websockets.asyncio.client import connect

from domain.catalog import GAMES
from domain.engine import AnyGame, Ctx
from domain.fair import CardsOpened
from domain.table import Table, decide, evolve, open_table, status, take_seat
from domain.words import LANGUAGES
from projections.notices import Notice, told
from projections.twins import whole
from server.service.bodies import FORMS, Voice, email_body, webhook_body
from server.storage.store import EventStore
from tests.projections.test_no_leak import interchangeable, probes, swap
from tests.reliability.harness import ADMIN, Api, auth, figure, own_redis, redis_client, replica
from tests.reliability.sizes import SIZE, limit
from tests.security.oracle import hidden_from, leaks, log_from_export
from tests.server.service.test_games import replica as game_service
from tests.support.processes import Serve
from tests.support.replies import as_bytes, entries_of, key_names


@pytest.fixture(scope="module")
def serve() -> Iterator[Serve]:
    with own_redis("everysec") as redis:
        # Each seat's token bucket wide: the oracle walks picks as fast as it can, as no person does
        # (tests/security/test_rest_rate.py holds the default bucket to its promise).
        server = replica(redis.url, LUDOTECA_WS_RATE="1000", LUDOTECA_WS_BURST="1000")
        server.args[server.args.index("--log-level") + 1] = "debug"
        with server:
            yield server


@pytest.fixture
async def api(serve: Serve) -> AsyncIterator[Api]:
    async with Api([serve.url]) as api:
        yield api


def headers_text(r: Any) -> str:
    return "\n".join(f"{k}: {v}" for k, v in r.headers.items())


Walked = list[tuple[list[dict[str, Any]], dict[str, Any]]]  # the picks so far, and the step they lead to


async def walk(
    api: Api, game_id: str, token: str | None, first: dict[str, Any], rng: random.Random, texts: list[str]
) -> Walked:
    """A random walk of picks through POST /moves from ``first``: every step met (each answer's
    body and headers go to ``texts``), until a pick ends the move."""
    picks: list[dict[str, Any]] = []
    step: dict[str, Any] = first
    met: Walked = [([], first)]
    while len(picks) < 16:
        going_on = [o for o in step.get("options", []) if "command" not in o]
        if not going_on:
            break
        option = rng.choice(going_on)
        picks = [*picks, {"field": option["field"], "value": option["value"]}]
        r = await api.at(0).post(f"/api/v1/games/{game_id}/moves", json={"picks": picks}, headers=auth(token))
        texts += [r.text, headers_text(r)]
        assert r.status_code != 500, r.text
        assert r.status_code == 200, r.text
        step = r.json()["step"]
        met.append((picks, step))
    return met


def pick_probes(game: AnyGame, met: Walked, names: list[str]) -> list[list[dict[str, Any]]]:
    """Picks naming ``names``: as a move's type, as each field of every move of the first step,
    and as the next pick of every step met on a walk."""
    kinds = {k.__struct_config__.tag: k for k in get_args(game.command_type) or (game.command_type,)}
    made: list[list[dict[str, Any]]] = []
    for name in names:
        made.append([{"field": "type", "value": name}])
        for option in met[0][1].get("options", []):
            kind = kinds.get(option["value"])
            for field in msgspec.structs.fields(kind) if kind is not None else ():
                made.append([{"field": "type", "value": option["value"]}, {"field": field.encode_name, "value": name}])
        for picks, step in met:
            for field in dict.fromkeys(o["field"] for o in step.get("options", [])):
                made.append([*picks, {"field": field, "value": name}])
    return made


PICK_PROBES = 20  # probes of picks naming hidden cards, per viewer and game


@pytest.mark.timeout(limit(180))
@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_nothing_any_viewer_receives_names_a_card_hidden_from_it(api: Api, serve: Serve, kind: str) -> None:
    game = GAMES[kind]
    rng = random.Random(f"leak-{kind}")
    checked = hidden_total = probed = walks = 0
    for n in range(SIZE.leak_games):
        players = rng.randint(game.min_players, game.max_players)
        game_id, tokens = await api.started(players, kind)
        viewers: list[str | None] = [*tokens, None]
        ws_url = serve.url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/ws"
        sockets = [await connect(ws_url) for _ in viewers]
        inboxes: list[list[str]] = [[] for _ in viewers]
        for ws, token in zip(sockets, viewers, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": token, "after": 0}))
        texts: list[list[str]] = [[] for _ in viewers]
        for turn in range(rng.randint(0, 40)):
            answers = await asyncio.gather(
                *(api.at(0).get(f"/api/v1/games/{game_id}/legal-commands", headers=auth(t)) for t in tokens)
            )
            for i, r in enumerate(answers):
                texts[i] += [r.text, headers_text(r)]
            awaited = [s for s, r in enumerate(answers) if r.json()["commands"]]
            if not awaited:
                break
            seat = rng.choice(awaited)
            met = await walk(api, game_id, tokens[seat], answers[seat].json()["step"], rng, texts[seat])
            walks += 1
            if turn % 4 == 0:  # the same over the socket: every viewer asks, the seat down its walk
                for i, ws in enumerate(sockets):
                    picks = met[-1][0] if i == seat else []
                    await ws.send(json.dumps({"type": "moves", "picks": picks, "request_id": f"m{turn}"}))
            r = await api.send(game_id, tokens[seat], rng.choice(answers[seat].json()["commands"]))
            assert r.status_code == 200, r.text
            texts[seat] += [r.text, headers_text(r)]
        table = await api.table(game_id)
        version = table["version"]
        export = await api.at(0).get(f"/api/v1/games/{game_id}/export", headers=auth(ADMIN))
        log = log_from_export(game, export.text)
        for i, token in enumerate(viewers):
            h = auth(token)
            own = "seat" if token else "spectator"
            reads = [
                api.at(0).get(f"/api/v1/games/{game_id}", headers=h),
                api.at(0).get(f"/api/v1/games/{game_id}/events", headers=h),
                api.at(0).get(f"/api/v1/games/{game_id}/export", headers=h),
                # the viewer's own export: a seat's any time, a spectator's
                api.at(0).get(f"/api/v1/games/{game_id}/export", params={"as": own}, headers=h),
                *(
                    api.at(0).get(f"/api/v1/games/{game_id}/replay", params={"version": v}, headers=h)
                    for v in range(1, version + 1, max(1, version // 8))
                ),
            ]
            for r in await asyncio.gather(*reads):
                texts[i] += [r.text, headers_text(r)]
        async with asyncio.timeout(10):
            for ws, box in zip(sockets, inboxes, strict=True):
                while not box or not is_update_at(box[-1], version):
                    box.append(str(await ws.recv()))
        for ws in sockets:
            await ws.close()
        finished = table["status"] == "finished"
        for i, token in enumerate(viewers):
            viewer = None if token is None else i
            hidden = hidden_from(game, log, viewer)
            assert not finished or not hidden, "a finished game hides nothing"
            # fair play's secrets are among what is checked: the server seed, and other seats' salts
            assert finished or log[0].seed in hidden
            others = [
                o.salt for e in whole(game, log) if isinstance(e, CardsOpened) for o in e.openings if o.seat != viewer
            ]
            assert finished or set(others) <= hidden
            if hidden and not finished:
                named = rng.sample(sorted(hidden), min(3, len(hidden)))
                for command in probes(game, named) if viewer is not None else ():
                    if not msgspec.structs.fields(command):
                        continue  # names nothing
                    body = {"command": msgspec.to_builtins(command), "command_id": f"probe-{n}"}
                    r = await api.at(0).post(f"/api/v1/games/{game_id}/commands", json=body, headers=auth(token))
                    assert r.status_code != 500, r.text
                    assert not leaks(hidden - set(named), r.text, headers_text(r)), r.text
                    # asked about without sending it: the same answer, telling no more
                    body = {"command": msgspec.to_builtins(command)}
                    c = await api.at(0).post(f"/api/v1/games/{game_id}/check", json=body, headers=auth(token))
                    if r.status_code in (409, 422) and r.json()["error"] != "command_id_reused":
                        assert c.status_code == 200 and c.json()["refusal"] == r.json(), (r.text, c.text)
                    elif r.status_code != 200:
                        assert c.status_code == r.status_code, (r.text, c.text)
                    assert not leaks(hidden - set(named), c.text, headers_text(c)), c.text
                r = await api.at(0).get(f"/api/v1/games/{game_id}/legal-commands", headers=auth(token))
                texts[i] += [r.text, headers_text(r)]
                met = await walk(api, game_id, token, r.json()["step"], rng, texts[i])
                made = pick_probes(game, met, named)
                for picks in rng.sample(made, min(PICK_PROBES, len(made))):
                    r = await api.at(0).post(
                        f"/api/v1/games/{game_id}/moves", json={"picks": picks}, headers=auth(token)
                    )
                    assert r.status_code in (200, 422), r.text
                    assert not leaks(hidden - set(named), r.text, headers_text(r)), r.text
                    probed += 1
            found = leaks(hidden, *texts[i], *inboxes[i])
            assert not found, f"viewer {viewer} of {game_id} received hidden {sorted(found)[:5]}"
            checked += 1
            hidden_total += len(hidden)
        spectator_hidden = hidden_from(game, log, None)
        assert not leaks(spectator_hidden, serve.output(), bare=True), "a hidden card reached the server's log"
    figure(
        f"leak oracle ({kind})",
        f"{SIZE.leak_games} random games, {checked} viewers: {hidden_total} hidden strings checked against "
        f"REST bodies and headers, WebSocket messages, steps of {walks} random walks of picks and {probed} "
        "picks naming hidden cards, errors, replays and log lines: 0 leaked",
    )


def is_update_at(message: str, version: int) -> bool:
    """Whether a socket message is the update that brings the viewer to ``version``."""
    body = json.loads(message)
    return bool(body.get("type") == "update" and body["version"] >= version)


RANDOM_STATE = re.compile(rb"seed|rng|random|getstate", re.IGNORECASE)


@pytest.mark.timeout(limit(60))
async def test_the_only_random_state_stored_is_each_tables_committed_seed_which_no_viewer_reads_before_the_end(
    api: Api, serve: Serve
) -> None:
    # The server draws each table's seed from the operating system (random.SystemRandom): no
    # generator state could be stored, logged or sent. Every shuffle and draw derives from that
    # seed and the seats' entropy (docs/fair-play.md): the seed is the one secret kept.
    assert isinstance(game_service(EventStore(redis_client(serve.environ["REDIS_URL"]))).rng, random.SystemRandom)
    with pytest.raises(NotImplementedError):
        random.SystemRandom().getstate()
    rng = random.Random("no-seed")
    seeds: dict[str, str] = {}
    for kind in sorted(GAMES):
        game_id, tokens = await api.started(GAMES[kind].min_players, kind)
        for _ in range(5):
            _, seat, commands = await api.awaited(game_id, tokens)
            if seat < 0 or not commands:
                break
            await api.send(game_id, tokens[seat], rng.choice(commands))
        export = await api.at(0).get(f"/api/v1/games/{game_id}/export", headers=auth(ADMIN))
        seeds[game_id] = log_from_export(GAMES[kind], export.text)[0].seed
        for token in [None, *tokens]:  # no viewer reads it while the game goes on, whatever it asks
            h = auth(token)
            for path in ("", "/events", "/export?as=spectator", "/export?as=seat" if token else "/events?after=1"):
                r = await api.at(0).get(f"/api/v1/games/{game_id}{path}", headers=h)
                assert r.status_code == 200 and seeds[game_id] not in r.text, path
    # And nothing else is kept in Redis: after games of every kind were dealt and played a little, no
    # key, hash field or stream field names a seed or a generator, and the only event fields that do
    # are TableOpened's seed and its hash.
    redis = redis_client(serve.environ["REDIS_URL"])
    names: list[bytes] = []
    fields_named: set[bytes] = set()
    events = 0
    try:
        async for key in redis.scan_iter(count=1000):
            names.append(as_bytes(key))
            key_type = as_bytes(await redis.type(key))  # not ``kind``: that names a game above
            if key_type == b"hash":
                names += key_names(await redis.hkeys(key))
            elif key_type == b"stream":
                for _, fields in entries_of(await redis.xrange(key)):
                    names += fields.keys()
                    if b"e" in fields:
                        events += 1
                        event = json.loads(fields[b"e"])
                        named = {k.encode() for k in keys_of(event) if RANDOM_STATE.search(k.encode())}
                        assert not named or event["type"] == "TableOpened", event["type"]
                        fields_named |= named
    finally:
        await redis.aclose()
    assert events > 0
    assert [n for n in names if RANDOM_STATE.search(n)] == []
    assert fields_named == {b"seed", b"seed_hash"}


def keys_of(value: Any) -> Iterator[str]:
    """Every object key in a JSON value, however deep."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_of(v)


# -- notifications: twin games, told alike ------------------------------------------------------


def played_with_players(game: AnyGame, players: int, seed: int, steps: int) -> tuple[list[Any], list[tuple[int, str]]]:
    """A random game whose every seat a player holds: its stored log, and where each append ends
    with its sender (``(events so far, "seat:<n>")``; the seats' own appends start the game)."""
    rng = random.Random(seed)
    ctx = Ctx(rng=rng)
    log: list[Any] = [open_table(game, players, {})]
    table = evolve(game, None, log[0])
    appends: list[tuple[int, str]] = [(1, "")]
    for seat in range(players):
        for event in take_seat(game, table, None, "", None, ctx, player=f"p{seat}"):
            log.append(event)
            table = evolve(game, table, event)
        appends.append((len(log), ""))
    for _ in range(steps):
        if status(game, table) != "active":
            break
        seat, command = next(
            (s, c) for s in range(players) if (c := game.random_command(table.state, s, rng)) is not None
        )
        for event in decide(game, table, command, seat, ctx):
            log.append(event)
            table = evolve(game, table, event)
        appends.append((len(log), f"seat:{seat}"))
    return log, appends


def notices_of(game: AnyGame, log: list[Any], appends: list[tuple[int, str]], seat: int) -> list[Notice]:
    """Every notice ``seat`` is told over the log, append by append."""
    found: list[Notice] = []
    table: Table | None = None
    done = 0
    for end, by in appends:
        before = table
        for event in log[done:end]:
            table = evolve(game, table, event)
        done = end
        assert table is not None
        found += [n for n in told(game, "g", before, table, by or None) if n.seat == seat]
    return found


VOICES = [Voice(lang, GAMES) for lang in LANGUAGES]  # every language a notice is sent in


def bodies(notices: list[Notice]) -> list[bytes]:
    """Every body those notices are sent in, in every language: each webhook form, each one's email, and their
    digest."""
    url, unsubscribe = "https://ludoteca.example", "https://ludoteca.example/api/v1/unsubscribe?token=p.x"
    found = [webhook_body(n, form, url, voice) for n in notices for form in FORMS for voice in VOICES]
    emails = [email_body([n], "Ana", url, unsubscribe, voice) for n in notices for voice in VOICES]
    if len(notices) > 1:
        emails += [email_body(notices, "Ana", url, unsubscribe, voice) for voice in VOICES]
    return found + [f"{e.subject}\n{e.text}\n{e.html}".encode() for e in emails]


@pytest.mark.timeout(limit(60))
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_twin_games_tell_each_seat_the_same_bytes_by_webhook_and_email(kind: str) -> None:
    """Two games identical but for cards one seat may not see (a permutation of one hidden pile)
    tell that seat the same notices, in byte-identical webhook bodies (plain, Discord, Slack) and
    emails (subject, text, HTML, digests), and none names a card hidden from it."""
    game = GAMES[kind]
    rng = random.Random(f"twins-{kind}")
    compared = told_total = 0
    for _ in range(SIZE.twin_games):
        players = rng.randint(game.min_players, game.max_players)
        log, appends = played_with_players(game, players, rng.randrange(2**32), rng.randint(5, 80))
        for seat in range(players):
            hidden = hidden_from(game, log, seat)
            groups = interchangeable(log, sorted(hidden))
            mine = bodies(notices_of(game, log, appends, seat))
            assert not leaks(hidden, *mine) and not leaks(hidden, *mine, bare=True)
            told_total += len(mine)
            if not groups:
                continue
            group = rng.choice(groups)
            shuffled = rng.sample(group, len(group))
            twin = swap(game, log, dict(zip(group, shuffled, strict=True)))
            assert bodies(notices_of(game, twin, appends, seat)) == mine
            compared += 1
    assert compared > 0
    figure(
        f"notification twins ({kind})",
        f"{SIZE.twin_games} random games, {compared} seats with hidden cards permuted: {told_total} webhook and "
        "email bodies, byte-identical between twins, 0 hidden strings in them",
    )
