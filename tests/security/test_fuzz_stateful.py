"""Hypothesis stateful fuzzing of every game in the catalog, over the real server API.

One ``ludoteca serve`` process on the test Redis (127.0.0.1); for each game a
``RuleBasedStateMachine`` opens a table with a random number of players and mixes, in
a random order: a legal command from an awaited seat (from GET legal-commands), a
malformed body, an unknown command type, a command from a seat that is not awaited, a
command naming things that do not exist, a spectator's command, a stale
``expected_version``, a move built pick by pick (POST /moves), random picks and
malformed picks. Illegal and malformed ones must answer the documented 4xx code
and leave every Redis key of the game byte for byte as it was (its whole contents);
building a move, whatever its picks, writes nothing; legal commands answer 200, and
the versions stay 1..N with no gap. After every step the
admin's export (the event feed of the whole log) equals the stream, and every seat's
and the spectator's feed is the stream's versions in order (less any event a game
leaves out of that viewer's feed), ending at the same head.

Sizes: a few short runs per game in CI, many long ones with ``LUDOTECA_SOAK=1``;
within the hypothesis profile (``LUDOTECA_HYPOTHESIS``) for everything else.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import redis
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from domain.catalog import GAMES
from tests.reliability.harness import ADMIN, auth, figure, replica
from tests.reliability.sizes import SOAK, limit
from tests.support.processes import Serve
from tests.support.replies import entries_of, fields_of, key_names

EXAMPLES, STEPS = (200, 100) if SOAK else (10, 20)
NOWHERE = "no-such-thing-anywhere"


@pytest.fixture(scope="module")
def serve(redis_url: str) -> Iterator[Serve]:
    with replica(redis_url) as running:
        yield running


def as_stored(event: dict[str, Any]) -> dict[str, Any]:
    """An exported fact as the stream stores it: its openings without the salts and paths made when shown."""
    if event.get("type") != "CardsOpened":
        return event
    kept = [{k: v for k, v in o.items() if k not in ("salt", "path")} for o in event["openings"]]
    return {**event, "openings": kept}


def contents(store: redis.Redis, key: bytes) -> Any:
    kind = store.type(key)
    if kind == b"hash":
        return sorted(fields_of(store.hgetall(key)).items())
    if kind == b"stream":
        return [(i, sorted(f.items())) for i, f in entries_of(store.xrange(key))]
    if kind == b"string":
        return store.get(key)
    if kind == b"zset":
        return store.zrange(key, 0, -1, withscores=True)
    if kind == b"set":
        return sorted(store.smembers(key))
    return (kind, store.dump(key))


def nowhere(value: Any) -> Any:
    """A value of the same shape as ``value`` that names nothing in any game."""
    if isinstance(value, list):
        return [nowhere(v) for v in value]
    return 10**6 if isinstance(value, int) else NOWHERE


def draws(data: st.DataObject, *labels: str) -> list[int]:
    """One number per label, drawn first and always alike: the server shuffles each new table,
    so what is legal (and whether the game is still on) differs between runs, and hypothesis
    requires that what it draws never depend on that. Each number picks among whatever the
    options turn out to be (``number % len(options)``)."""
    return [data.draw(st.integers(0, 2**16), label=label) for label in labels]


class Counts:
    """What every machine of one game sent, for the figures."""

    def __init__(self) -> None:
        self.legal = 0
        self.refused = 0
        self.picks = 0  # POST /moves requests that must write nothing, and their statuses
        self.moves: dict[int, int] = {}
        self.statuses: dict[int, int] = {}


def machine(game: str, url: str, redis_url: str, counts: Counts) -> type[RuleBasedStateMachine]:
    http = httpx.Client(base_url=url, timeout=10)
    store = redis.Redis.from_url(redis_url)
    ids = itertools.count()
    spec = GAMES[game]

    class Fuzz(RuleBasedStateMachine):
        game_id = ""
        tokens: list[str]
        version = 0
        finished = False

        # -- helpers ------------------------------------------------------------

        def keys(self) -> dict[bytes, Any]:
            """Every key of the game and everything in it, byte for byte.

            Not ``DUMP``: a hash that outgrew its compact encoding is serialized in its
            table's order, which a mere read (an incremental rehash step) can change.
            """
            return {k: contents(store, k) for k in sorted(key_names(store.keys(f"lt:{{{self.game_id}}}:*")))}

        def stream(self) -> list[tuple[int, bytes]]:
            entries = entries_of(store.xrange(f"lt:{{{self.game_id}}}:events"))
            return [(int(i.decode().partition("-")[2]), f[b"e"]) for i, f in entries]

        def awaited(self) -> dict[int, list[Any]]:
            """Each seat with legal commands now, and its commands."""
            found = {}
            for seat, token in enumerate(self.tokens):
                r = http.get(f"/api/v1/games/{self.game_id}/legal-commands", headers=auth(token))
                assert r.status_code == 200, r.text
                if r.json()["commands"]:
                    found[seat] = r.json()["commands"]
            return found

        def post(self, token: str | None, body: Any, raw: bytes | None = None) -> httpx.Response:
            content = raw if raw is not None else json.dumps(body).encode()
            headers = {**auth(token), "Content-Type": "application/json"}
            return http.post(f"/api/v1/games/{self.game_id}/commands", content=content, headers=headers)

        def send(self, token: str | None, command: Any, **extra: Any) -> httpx.Response:
            return self.post(token, {"command": command, "command_id": f"f{next(ids)}", **extra})

        def refused(
            self, call: Callable[[], httpx.Response], status: int | tuple[int, ...], codes: tuple[str, ...] = ()
        ) -> Any:
            before = self.keys()
            r = call()
            counts.refused += 1
            counts.statuses[r.status_code] = counts.statuses.get(r.status_code, 0) + 1
            assert r.status_code in (status if isinstance(status, tuple) else (status,)), r.text
            body = r.json()
            assert set(body) == {"error", "message", "details"}, body
            assert not codes or body["error"] in codes, body
            assert isinstance(body["message"], str) and body["message"]
            after = self.keys()
            changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
            assert not changed, f"a refused command ({r.text}) changed the game's keys {changed}"
            return body

        def moves(self, token: str | None, body: Any) -> httpx.Response:
            return http.post(f"/api/v1/games/{self.game_id}/moves", json=body, headers=auth(token))

        def unchanged(self, call: Callable[[], httpx.Response]) -> httpx.Response:
            """``call``, which must leave every key of the game as it was."""
            before = self.keys()
            r = call()
            counts.picks += 1
            counts.moves[r.status_code] = counts.moves.get(r.status_code, 0) + 1
            assert r.status_code != 500, r.text
            assert self.keys() == before, f"building a move ({r.text}) changed the game's keys"
            return r

        def pick(self, seat: int, command: int) -> tuple[int, Any]:
            """An awaited seat and one of its legal commands (a game that ended is replaced first)."""
            if self.finished:
                self.open_table(len(self.tokens))
            awaited = self.awaited()
            chosen = sorted(awaited)[seat % len(awaited)]
            return chosen, awaited[chosen][command % len(awaited[chosen])]

        # -- set-up -------------------------------------------------------------

        @initialize(players=st.integers(spec.min_players, spec.max_players))
        def open_table(self, players: int) -> None:
            self.finished = False
            r = http.post("/api/v1/games", json={"game": game, "players": players, "options": {}})
            assert r.status_code == 201, r.text
            self.game_id = r.json()["game_id"]
            self.tokens = []
            for i in range(players):
                r = http.post(f"/api/v1/games/{self.game_id}/seats", json={"name": f"F{i}"})
                assert r.status_code == 201, r.text
                self.tokens.append(r.json()["token"])
            self.version = len(self.stream())
            awaited = self.awaited()  # one legal command first: every run fuzzes a game under way
            r = self.send(self.tokens[min(awaited)], awaited[min(awaited)][0], expected_version=self.version)
            assert r.status_code == 200, r.text
            counts.legal += 1
            self.version = r.json()["version"]

        # -- rules --------------------------------------------------------------

        # No rule has a precondition on the game's state (that too would make the draws depend
        # on the server's shuffles): a rule that needs a game under way finds a new one when
        # the last has ended.

        @rule(data=st.data(), times=st.integers(1, 8))
        def legal_commands(self, data: st.DataObject, times: int) -> None:
            numbers = draws(data, *(["seat", "command"] * times))
            for seat, command in zip(numbers[::2], numbers[1::2], strict=True):
                self.legal_command(seat, command)

        def legal_command(self, seat: int, index: int) -> None:
            seat, command = self.pick(seat, index)
            r = self.send(self.tokens[seat], command, expected_version=self.version)
            counts.legal += 1
            assert r.status_code == 200, (command, r.text)
            answer = r.json()
            assert answer["version"] > self.version
            versions = [e["version"] for e in answer["events"]]
            assert versions == sorted(set(versions)) and all(self.version < v <= answer["version"] for v in versions)
            self.version = answer["version"]
            status = http.get(f"/api/v1/games/{self.game_id}").json()["status"]
            self.finished = status == "finished"
            if not self.finished:
                assert self.awaited(), "an active game awaits nobody"

        @rule(
            seat=st.integers(0, 5),
            raw=st.one_of(
                st.binary(max_size=80),
                st.text(max_size=40).map(str.encode),
                st.sampled_from([b"", b"{", b"null", b"[]", b'"x"', b"{}", b'{"command_id": "x"}']),
            ),
        )
        def malformed_body(self, seat: int, raw: bytes) -> None:
            self.refused(lambda: self.post(self.tokens[seat % len(self.tokens)], None, raw), 400, ("malformed",))

        @rule(
            seat=st.integers(0, 5),
            envelope=st.sampled_from(
                [
                    {"command": {"type": "X"}},  # no command_id
                    {"command_id": "x"},  # no command
                    {"command": {"type": "X"}, "command_id": ""},
                    {"command": {"type": "X"}, "command_id": "x" * 101},
                    {"command": {"type": "X"}, "command_id": 7},
                    {"command": {"type": "X"}, "command_id": "x", "expected_version": "one"},
                    {"command": {"type": "X"}, "command_id": "x", "speed": 3},
                    {"command": [], "command_id": "x"},
                    {"command": None, "command_id": "x"},
                ]
            ),
        )
        def malformed_envelope(self, seat: int, envelope: dict[str, Any]) -> None:
            self.refused(lambda: self.post(self.tokens[seat % len(self.tokens)], envelope), 400, ("malformed",))

        @rule(seat=st.integers(0, 5), name=st.text(max_size=20))
        def unknown_command_type(self, seat: int, name: str) -> None:
            command = {"type": f"Zz{name}"}
            body = self.refused(lambda: self.send(self.tokens[seat % len(self.tokens)], command), 400, ("malformed",))
            assert body["details"].get("field") == "command.type", body

        @rule(data=st.data())
        def from_a_seat_not_awaited(self, data: st.DataObject) -> None:
            idle_seat, index = draws(data, "idle seat", "command")
            _, command = self.pick(0, index)  # a command of the first awaited seat
            awaited = self.awaited()
            idle = [s for s in range(len(self.tokens)) if s not in awaited]
            if not idle:  # every seat is awaited (a simultaneous phase): nobody to send out of turn
                return
            seat = idle[idle_seat % len(idle)]
            body = self.refused(lambda: self.send(self.tokens[seat], command), 422)
            # Out of turn; in a phase where several seats choose at once, a seat that has
            # already chosen may be told so more precisely (Miss Liz: nothing_to_keep).
            assert body["error"] != "internal", body

        @rule(data=st.data())
        def naming_what_does_not_exist(self, data: st.DataObject) -> None:
            seat_number, command_number, field_number = draws(data, "seat", "command", "field")
            seat, command = self.pick(seat_number, command_number)
            fields = [k for k, v in command.items() if k != "type" and isinstance(v, str | int | list) and v != []]
            if not fields:
                return
            field = fields[field_number % len(fields)]
            value = command[field]
            if "True" in repr(value) or "False" in repr(value):
                return  # a flag names nothing

            bad = nowhere(value)
            forged = {**command, field: bad}
            # A name the rules do not know is refused by them (422); a field whose every value
            # the command's type lists (Portugal's pile kinds) refuses it when decoded (400).
            body = self.refused(lambda: self.send(self.tokens[seat], forged), (400, 422))
            assert body["error"] not in ("internal", "not_your_turn"), body
            if body["error"] == "malformed":  # and then it names the very field
                assert body["details"].get("field", "").startswith(f"command.{field}"), body

        @rule(data=st.data())
        def from_a_spectator(self, data: st.DataObject) -> None:
            [index] = draws(data, "command")
            awaited = self.awaited()
            command = awaited[min(awaited)][index % len(awaited[min(awaited)])] if awaited else {"type": "X"}
            self.refused(lambda: self.send(None, command), 403, ("spectator",))

        @rule(data=st.data(), behind=st.integers(1, 3))
        def stale_expected_version(self, data: st.DataObject, behind: int) -> None:
            seat, command = self.pick(*draws(data, "seat", "command"))
            call = lambda: self.send(self.tokens[seat], command, expected_version=self.version - behind)  # noqa: E731
            body = self.refused(call, 409, ("version_conflict",))
            assert body["details"]["version"] == self.version

        @rule(data=st.data())
        def build_a_move(self, data: st.DataObject) -> None:
            """A random walk of picks from an awaited seat's first step: every step answered, nothing written."""
            seat_number, *choices = draws(data, "seat", *(f"pick {i}" for i in range(8)))
            seat, _ = self.pick(seat_number, 0)
            token = self.tokens[seat]
            step = http.get(f"/api/v1/games/{self.game_id}/legal-commands", headers=auth(token)).json()["step"]
            picks: list[dict[str, Any]] = []
            for choice in choices:
                going_on = [o for o in step.get("options", []) if "command" not in o]
                if not going_on:
                    break
                option = going_on[choice % len(going_on)]
                picks.append({"field": option["field"], "value": option["value"]})
                r = self.unchanged(lambda: self.moves(token, {"picks": picks}))
                assert r.status_code == 200 and r.json()["picks"] == picks, r.text
                step = r.json()["step"]

        @rule(
            seat=st.integers(-1, 5),
            picks=st.lists(
                st.fixed_dictionaries(
                    {
                        "field": st.one_of(
                            st.sampled_from(["type", "card", "cell", "target", "give"]), st.text(max_size=8)
                        ),
                        "value": st.one_of(
                            st.text(max_size=12),
                            st.sampled_from([NOWHERE, "PlaceCards", "Draw", "BuyStreets", "TakeBonus"]),
                            st.integers(-3, 10**6),
                            st.lists(st.integers(-1, 8), max_size=3),
                        ),
                    }
                ),
                max_size=5,
            ),
        )
        def random_picks(self, seat: int, picks: list[dict[str, Any]]) -> None:
            """Picks made up: the step if they happen to be offered, else 422 not_offered naming one."""
            token = self.tokens[seat % len(self.tokens)] if seat >= 0 else None
            r = self.unchanged(lambda: self.moves(token, {"picks": picks}))
            if r.status_code == 422:
                body = r.json()
                assert body["error"] == "not_offered", body
                assert body["details"]["field"] in [f"picks[{i}]" for i in range(len(picks))], body
            else:
                assert r.status_code == 200, r.text

        @rule(
            seat=st.integers(0, 5),
            body=st.sampled_from(
                [
                    {},
                    {"picks": "type"},
                    {"picks": [{"field": "type"}]},
                    {"picks": [{"field": "type", "value": True}]},
                    {"picks": [{"field": "type", "value": 2.5}]},
                    {"picks": [{"field": "type", "value": None}]},
                    {"picks": [{"field": "type", "value": ["x"]}]},
                    {"picks": [{"field": "type", "value": "x", "kind": "move"}]},
                    {"picks": [], "speed": 3},
                    {"picks": [{"field": "type", "value": "x"}] * 65},
                ]
            ),
        )
        def malformed_picks(self, seat: int, body: dict[str, Any]) -> None:
            token = self.tokens[seat % len(self.tokens)]
            r = self.unchanged(lambda: self.moves(token, body))
            assert r.status_code == 400 and r.json()["error"] == "malformed", r.text

        # -- invariants ---------------------------------------------------------

        @invariant()
        def versions_are_contiguous_and_feeds_equal_the_stream(self) -> None:
            if not self.game_id:
                return
            stream = self.stream()
            versions = [v for v, _ in stream]
            assert versions == list(range(1, len(stream) + 1)), "a gap or a duplicate in the stream"
            assert versions[-1] == self.version
            # the admin's export: every event of the log, as stored but for the openings' salts and paths
            r = http.get(f"/api/v1/games/{self.game_id}/export", headers=auth(ADMIN))
            assert r.status_code == 200, r.text
            exported = [json.loads(line) for line in r.text.splitlines()[1:]]  # after the export's header
            assert [(e["version"], as_stored(e["event"])) for e in exported] == [(v, json.loads(d)) for v, d in stream]
            for token in [None, *self.tokens]:
                r = http.get(f"/api/v1/games/{self.game_id}/events", headers=auth(token), params={"limit": 1000})
                assert r.status_code == 200, r.text
                page = r.json()
                assert page["version"] == self.version
                seen = [e["version"] for e in page["events"]]
                assert seen == sorted(set(seen)) and set(seen) <= set(versions)
                assert seen[:1] == [1], "every feed starts with the table's own first event"

    return Fuzz


@pytest.mark.timeout(limit(40))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_commands_from_every_seat_change_nothing_unless_legal(serve: Serve, redis_url: str, game: str) -> None:
    counts = Counts()
    fuzz = machine(game, serve.url, redis_url, counts)
    fuzz.TestCase.settings = settings(
        settings.default,
        max_examples=EXAMPLES,
        stateful_step_count=STEPS,
        deadline=None,
        # Each run opens a new table whose setup the server shuffles: a failing run cannot be
        # replayed, so hypothesis reports it as found rather than shrinking it.
        phases=[Phase.generate],
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    fuzz.TestCase().runTest()
    assert counts.legal > 0 and counts.refused > 0 and counts.picks > 0
    statuses = ", ".join(f"{n} x {s}" for s, n in sorted(counts.statuses.items()))
    moves = ", ".join(f"{n} x {s}" for s, n in sorted(counts.moves.items()))
    figure(
        f"stateful fuzz ({game}): commands",
        f"{counts.legal} legal (all 200), {counts.refused} refused ({statuses}); {counts.picks} moves built or "
        f"made up ({moves}); 0 x 500, 0 keys changed by a refusal or a move",
    )
