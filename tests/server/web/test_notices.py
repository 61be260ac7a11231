"""Notifications over the API, to a real webhook receiver and a real SMTP server (aiosmtpd): a player
is told when its move comes, signed and with an id to dedupe on; its emails are spaced into digests
and carry a one-click unsubscribe; its preferences choose what and when; receivers that stall or
misbehave cost a bounded time; quotas hold; an erased player leaves no address behind."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from server.settings import Settings
from server.storage.outbox import Outbox, mail_item
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running
from tests.server.web.test_players import auth, new_player
from tests.support.processes import ROOT
from tests.support.receiver import Delivery, Mailbox, Receiver, mailbox
from tests.support.replies import as_bytes, fields_of, key_names
from tests.test_doc_examples import fenced

API = "/api/v1"
PUBLIC = "https://ludoteca.example"


def settings(redis_url: str, smtp_port: int, **changes: Any) -> Settings:
    """A server that may call the test's receiver on loopback (the operator's allow list), sends
    email to the test's SMTP server, and looks at its outbox often."""
    values: dict[str, Any] = {
        **NO_QUOTAS,
        "redis_url": redis_url,
        "admin_token": ADMIN,
        "public_url": PUBLIC,
        "webhook_allow": ("127.0.0.1",),
        "smtp_host": "127.0.0.1",
        "smtp_port": smtp_port,
        "smtp_tls": "none",
        "smtp_from": "tables@ludoteca.example",
        "outbox_interval": 0.05,
        "outbox_retry": 0.2,
        "outbox_lease": 10.0,
        "webhook_timeout": 1.0,
        "email_every": 0.04,  # 2.4 s between two emails to one player
        "webhooks_per_hour": 0,
        "webhooks_per_host_hour": 0,
        "emails_per_hour": 0,
        "emails_per_address_hour": 0,
        "destinations_per_hour": 0,
    }
    return Settings(**(values | changes))


@pytest.fixture
def smtp() -> Iterator[Mailbox]:
    with mailbox() as box:
        yield box


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str, smtp: Mailbox) -> AsyncIterator[Running]:
    async with running(settings(redis_url, smtp.port)) as api:
        yield api


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    async with Receiver() as r:
        yield r


async def table_with(server: Running, token: str) -> tuple[str, list[str]]:
    """A started two-seat table: seat 0 the player's, seat 1 a seat token's."""
    game_id = await server.create(2)
    r = await server.http.post(f"{API}/games/{game_id}/seats", json={}, headers=auth(token))
    assert r.status_code == 201 and r.json()["seat"] == 0, r.text
    other = (await server.http.post(f"{API}/games/{game_id}/seats", json={"name": "Rui"})).json()["token"]
    return game_id, [token, other]


async def awaiting(server: Running, game_id: str) -> tuple[int, set[int]]:
    table = (await server.get(f"{API}/games/{game_id}")).json()
    return table["version"], {a["seat"] for a in table["awaiting"]}


async def not_awaiting(server: Running, game_id: str, tokens: list[str], seat: int = 0) -> None:
    """Play ``seat``'s moves until the game awaits another seat."""
    while seat in (await awaiting(server, game_id))[1]:
        r = await server.get(f"{API}/games/{game_id}/legal-commands", tokens[seat])
        assert (await server.send(game_id, tokens[seat], r.json()["commands"][-1])).status_code == 200


async def turn_comes_back(server: Running, game_id: str, tokens: list[str], seat: int = 0) -> int:
    """Play until the game awaits ``seat`` having awaited others since: one new notice for it. The version then."""
    left = False
    for _ in range(100):
        version, seats = await awaiting(server, game_id)
        if seat in seats and left:
            return version
        left = left or seat not in seats
        mover = seat if seat in seats else min(seats)
        r = await server.get(f"{API}/games/{game_id}/legal-commands", tokens[mover])
        assert (await server.send(game_id, tokens[mover], r.json()["commands"][-1])).status_code == 200
    raise AssertionError("the turn never came back")


def verified(secret: str, delivery_headers: dict[str, str], body: bytes, tolerance: float = 300) -> bool:
    """The receiver's side of the signature (docs/players.md "Notifications")."""
    parts = dict(p.split("=", 1) for p in delivery_headers["ludoteca-signature"].split(","))
    expected = hmac.new(secret.encode(), f"{parts['t']}.".encode() + body, hashlib.sha256).hexdigest()
    return abs(time.time() - int(parts["t"])) <= tolerance and hmac.compare_digest(expected, parts["v1"])


async def put_webhook(server: Running, token: str, url: str, **extra: Any) -> httpx.Response:
    return await server.http.put(f"{API}/players/me/webhook", json={"url": url, **extra}, headers=auth(token))


async def test_a_webhook_is_set_read_and_taken_down(server: Running, receiver: Receiver) -> None:
    _, token = await new_player(server)
    assert (await server.get(f"{API}/players/me/webhook", token)).json()["error"] == "no_webhook"
    made = await put_webhook(server, token, receiver.url + "/hooks/ana")
    assert made.status_code == 200, made.text
    hook = made.json()
    assert hook["url"] == receiver.url + "/hooks/ana" and hook["format"] == "json"
    assert hook["secret"].startswith("whsec_") and len(hook["secret"]) > 30
    assert (await server.get(f"{API}/players/me/webhook", token)).json() == hook
    again = (await put_webhook(server, token, receiver.url + "/hooks/ana", format="discord")).json()
    assert again["secret"] == hook["secret"] and again["format"] == "discord"  # kept, unless asked
    rotated = (await put_webhook(server, token, receiver.url + "/hooks/ana", new_secret=True)).json()
    assert rotated["secret"] != hook["secret"]
    assert (await server.get(f"{API}/players/me/notifications", token)).json()["webhook"] is True
    dropped = await server.http.delete(f"{API}/players/me/webhook", headers=auth(token))
    assert dropped.json() == {"deleted": True}
    assert (await server.get(f"{API}/players/me/webhook", token)).status_code == 404
    assert (await put_webhook(server, "player.nope", receiver.url)).status_code == 401


REFUSED = [
    ("https://169.254.169.254/latest/meta-data/", "webhook_address_refused"),
    ("https://[::1]:9/x", "webhook_address_refused"),
    ("https://10.0.0.7/x", "webhook_address_refused"),
    ("https://[::ffff:127.0.0.2]/x", "webhook_address_refused"),
    ("https://no-such-host.invalid/x", "webhook_address_refused"),
    ("http://hooks.example.com/x", "bad_webhook_url"),
    ("https://me:secret@hooks.example.com/x", "bad_webhook_url"),
    ("file:///etc/passwd", "bad_webhook_url"),
]


async def test_a_webhook_naming_an_address_the_server_does_not_call_is_refused(server: Running) -> None:
    _, token = await new_player(server)
    for url, code in REFUSED:
        r = await put_webhook(server, token, url)
        assert r.status_code == 422 and r.json()["error"] == code and r.json()["details"]["field"] == "url", url
    assert (await server.get(f"{API}/players/me/webhook", token)).status_code == 404


async def test_loopback_is_refused_unless_the_operator_allows_it(redis_url: str, redis: aioredis.Redis) -> None:
    with mailbox() as box:
        async with running(settings(redis_url, box.port, webhook_allow=())) as api:
            _, token = await new_player(api)
            r = await put_webhook(api, token, "http://127.0.0.1:9/hook")
            assert r.status_code == 422 and r.json()["error"] == "bad_webhook_url"  # plain http to a host not allowed
            r = await put_webhook(api, token, "https://127.0.0.1:9/hook")
            assert r.status_code == 422 and r.json()["error"] == "webhook_address_refused"


async def test_a_player_is_told_by_webhook_when_its_move_comes_signed_and_with_an_id(
    server: Running, receiver: Receiver
) -> None:
    player_id, token = await new_player(server, "Ana")
    secret = (await put_webhook(server, token, receiver.url + "/hook")).json()["secret"]
    game_id, tokens = await table_with(server, token)
    version = await turn_comes_back(server, game_id, tokens)
    received = await receiver.wait_for(lambda r: any(json.loads(d.body)["version"] == version for d in r))
    # the notice of this turn (an earlier one may be delivered after it: at least once, in no set order)
    got = next(d for d in reversed(received) if json.loads(d.body)["version"] == version)
    body = json.loads(got.body)
    assert verified(secret, got.headers, got.body)
    assert not verified("whsec_another", got.headers, got.body)
    # docs/players.md's example verifies it as written.
    example: dict[str, Any] = {}
    exec(fenced(ROOT / "docs" / "players.md", "python", "import hashlib"), example)
    assert example["verify"](secret, got.headers["ludoteca-signature"], got.body)
    assert not example["verify"](secret, got.headers["ludoteca-signature"], got.body + b" ")
    assert got.path == "/hook" and got.headers["content-type"] == "application/json"
    assert got.headers["ludoteca-delivery"] == body["id"] == f"{game_id}.{version}.0.move"
    assert got.headers["ludoteca-event"] == "move" and got.headers["user-agent"].startswith("Ludoteca")
    assert body["game_id"] == game_id and body["seat"] == 0 and body["player"] == player_id
    assert body["event"] == "move" and body["reason"] == "action" and body["game"] == "vilar-de-mouros"
    assert body["url"] == f"{PUBLIC}/#/game/{game_id}" and body["text"] == "Vilar de Mouros: it is your move."
    # Discord's and Slack's bodies, for the next moves.
    await put_webhook(server, token, receiver.url + "/discord", format="discord")
    version = await turn_comes_back(server, game_id, tokens)
    [*_, got] = await receiver.wait_for(lambda r: r[-1].path == "/discord")
    assert json.loads(got.body) == {
        "content": f"Vilar de Mouros: it is your move. <{PUBLIC}/#/game/{game_id}>",
        "username": "Ludoteca",
        "allowed_mentions": {"parse": []},
    }
    assert got.headers["ludoteca-delivery"] == f"{game_id}.{version}.0.move" and verified(secret, got.headers, got.body)
    await put_webhook(server, token, receiver.url + "/slack", format="slack")
    await turn_comes_back(server, game_id, tokens)
    [*_, got] = await receiver.wait_for(lambda r: r[-1].path == "/slack")
    link = f"<{PUBLIC}/#/game/{game_id}|Open the table>"
    assert json.loads(got.body)["text"] == f"Vilar de Mouros: it is your move. {link}"


async def test_one_email_then_a_digest_with_one_click_unsubscribe(
    server: Running, smtp: Mailbox, redis: aioredis.Redis
) -> None:
    player_id, token = await new_player(server, "Ana <b>")
    game_id, tokens = await table_with(server, token)
    await not_awaiting(server, game_id, tokens)  # a first move of the player's is told before the address is set
    changed = await server.http.patch(
        f"{API}/players/me/notifications", json={"email": " Ana@Example.ORG "}, headers=auth(token)
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["email"] == "Ana@example.org" and changed.json()["email_sending"] is True
    await turn_comes_back(server, game_id, tokens)
    [first] = await smtp.wait_for(1)
    assert first["To"] == "Ana@example.org" and first["From"] == "tables@ludoteca.example"
    assert first["Subject"] == "Vilar de Mouros: it is your move." and first["Auto-Submitted"] == "auto-generated"
    assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = first["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{PUBLIC}/api/v1/unsubscribe?token={player_id}.")
    text = first.get_body(("plain",))
    html = first.get_body(("html",))
    assert text is not None and html is not None
    assert "Hello Ana <b>," in text.get_content() and f"{PUBLIC}/#/game/{game_id}" in text.get_content()
    assert "Hello Ana &lt;b&gt;," in html.get_content() and unsubscribe in text.get_content()
    # Two more turns within the spacing: they wait, and go out together.
    await turn_comes_back(server, game_id, tokens)
    await turn_comes_back(server, game_id, tokens)
    assert len(smtp.messages()) == 1
    [_, digest] = await smtp.wait_for(2)
    assert digest["Subject"] == "Ludoteca: 2 things happened at your tables"
    assert digest.get_body(("plain",)).get_content().count("it is your move") == 2  # type: ignore[union-attr]
    # The link, opened, changes nothing; its one-click POST (RFC 8058) stops the emails.
    path = unsubscribe.removeprefix(PUBLIC)
    page = await server.http.get(path)
    assert page.status_code == 200 and '<form method="post"' in page.text
    assert "email" in (await server.get(f"{API}/players/me/notifications", token)).json()["channels"]
    forged = await server.http.post(path[:-4] + "0000", content=b"List-Unsubscribe=One-Click")
    assert forged.status_code == 400 and forged.json()["error"] == "bad_unsubscribe_token"
    one_click = await server.http.post(
        path, content=b"List-Unsubscribe=One-Click", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert one_click.status_code == 200 and one_click.json() == {"unsubscribed": True}
    assert (await server.get(f"{API}/players/me/notifications", token)).json()["channels"] == ["webhook"]
    await turn_comes_back(server, game_id, tokens)
    assert await Outbox(redis).due_at(mail_item(player_id)) is None  # nothing more posted for email
    assert len(smtp.messages()) == 2


async def test_a_player_who_reads_galician_is_told_in_galician_by_email_and_by_webhook(
    server: Running, smtp: Mailbox, receiver: Receiver
) -> None:
    _, token = await new_player(server, "Uxía")
    chose = await server.http.patch(f"{API}/players/me", json={"lang": "gl"}, headers=auth(token))
    assert chose.status_code == 200, chose.text
    game_id, tokens = await table_with(server, token)
    await not_awaiting(server, game_id, tokens)
    changed = await server.http.patch(
        f"{API}/players/me/notifications", json={"email": "uxia@example.org"}, headers=auth(token)
    )
    assert changed.status_code == 200, changed.text
    await put_webhook(server, token, receiver.url + "/slack", format="slack")
    await turn_comes_back(server, game_id, tokens)
    [mail] = await smtp.wait_for(1)
    assert mail["Subject"] == "Vilar de Mouros: é a túa quenda."
    text = mail.get_body(("plain",))
    assert text is not None and "Ola Uxía," in text.get_content() and "Abrir a mesa: " in text.get_content()
    [*_, got] = await receiver.wait_for(lambda r: r[-1].path == "/slack")
    link = f"<{PUBLIC}/#/game/{game_id}|Abrir a mesa>"
    assert json.loads(got.body)["text"] == f"Vilar de Mouros: é a túa quenda. {link}"


async def test_preferences_choose_the_events_and_quiet_hours_hold_deliveries_back(
    server: Running, receiver: Receiver, redis: aioredis.Redis
) -> None:
    _, token = await new_player(server)
    await put_webhook(server, token, receiver.url + "/hook")
    me = f"{API}/players/me/notifications"
    defaults = (await server.get(me, token)).json()
    assert defaults == {
        "events": ["move", "trade", "window", "ended", "rematch"], "channels": ["webhook", "email"],
        "quiet_hours": None, "away_only": True, "email": None, "webhook": True, "email_sending": True,
    }  # fmt: skip
    only_endings = await server.http.patch(me, json={"events": ["ended"]}, headers=auth(token))
    assert only_endings.json()["events"] == ["ended"]
    game_id, tokens = await table_with(server, token)
    await turn_comes_back(server, game_id, tokens)
    outbox = Outbox(redis)
    assert await outbox.waiting() == 0 and receiver.received == []
    # Quiet hours around now (UTC): what comes is held until they end.
    hour = time.gmtime().tm_hour
    quiet = {"start": f"{(hour - 1) % 24:02d}:00", "end": f"{(hour + 2) % 24:02d}:00", "time_zone": "UTC"}
    r = await server.http.patch(me, json={"events": ["move"], "quiet_hours": quiet}, headers=auth(token))
    assert r.status_code == 200 and r.json()["quiet_hours"] == quiet
    version = await turn_comes_back(server, game_id, tokens)
    item = f"w:{game_id}.{version}.0.move"
    async with asyncio.timeout(5):
        while (due := await outbox.due_at(item)) is None or due < (time.time() + 3600) * 1000:
            await asyncio.sleep(0.05)
    assert receiver.received == []
    cleared = await server.http.patch(me, json={"quiet_hours": None}, headers=auth(token))
    assert cleared.json()["quiet_hours"] is None
    for bad, field in [
        ({"quiet_hours": {"start": "25:00", "end": "07:00"}}, "quiet_hours.start"),
        ({"quiet_hours": {"start": "22:00", "end": "07:00", "time_zone": "Mars/Olympus"}}, "quiet_hours.time_zone"),
        ({"email": "not-an-address"}, "email"),
    ]:
        refused = await server.http.patch(me, json=bad, headers=auth(token))
        assert refused.status_code == 422 and refused.json()["details"]["field"] == field, refused.text
    unknown = await server.http.patch(me, json={"events": ["everything"]}, headers=auth(token))
    assert unknown.status_code == 400 and unknown.json()["error"] == "malformed"


async def test_a_receiver_that_never_answers_costs_a_bounded_time_and_the_delivery_is_tried_again(
    server: Running,
) -> None:
    async with Receiver(hang=True) as stalled, Receiver() as quick:
        _, ana = await new_player(server, "Ana")
        _, eva = await new_player(server, "Eva")
        await put_webhook(server, ana, stalled.url)
        await put_webhook(server, eva, quick.url)
        ana_game, ana_tokens = await table_with(server, ana)
        eva_game, eva_tokens = await table_with(server, eva)
        await turn_comes_back(server, ana_game, ana_tokens)
        [first, *_] = await stalled.wait_for(lambda r: len(r) >= 1)
        sent = first.headers["ludoteca-delivery"]

        def tries(received: list[Delivery]) -> list[Delivery]:
            return [d for d in received if d.headers["ludoteca-delivery"] == sent]

        await turn_comes_back(server, eva_game, eva_tokens)
        await quick.wait_for(lambda r: len(r) >= 1, seconds=1)  # not held up by Ana's stalled receiver
        # Given up after the 1 s time-out, then tried again under the same id (a receiver dedupes on it).
        await stalled.wait_for(lambda r: len(tries(r)) >= 2, seconds=5)
        again = tries(stalled.received)[1]
        assert 1.0 <= again.at - first.at < 2.5
        stalled.hang = False
        await stalled.wait_for(lambda r: len(tries(r)) >= 3, seconds=5)


async def test_redirects_are_not_followed_and_an_endless_answer_is_read_no_further_than_a_cap(
    server: Running,
) -> None:
    async with Receiver(status=302) as moved, Receiver(endless=True) as endless:
        moved.location = moved.url + "/followed"
        _, ana = await new_player(server, "Ana")
        _, eva = await new_player(server, "Eva")
        await put_webhook(server, ana, moved.url + "/hook")
        await put_webhook(server, eva, endless.url + "/hook")
        for token in (ana, eva):
            game_id, tokens = await table_with(server, token)
            await turn_comes_back(server, game_id, tokens)
        await moved.wait_for(lambda r: len(r) >= 1)
        await endless.wait_for(lambda r: len(r) >= 1)
        await asyncio.sleep(0.6)  # a retry would have come by now (back-off 0.1 to 0.2 s)
        # A 3xx is a refusal: not followed, not tried again. A 2xx with an endless body: sent, having
        # read 4 KiB of it (a notice each, sent once; a first move of the player's is one more).
        assert {d.path for d in moved.received} == {"/hook"}
        for receiver in (moved, endless):
            assert len(receiver.ids()) == len(set(receiver.ids())) and receiver.ids()[-1].endswith(".0.move")


async def test_quotas_bound_what_one_player_is_sent_and_what_one_address_registers(
    redis_url: str, redis: aioredis.Redis
) -> None:
    with mailbox() as box:
        async with (
            running(settings(redis_url, box.port, webhooks_per_hour=2, destinations_per_hour=2)) as api,
            Receiver() as receiver,
        ):
            _, token = await new_player(api)
            game_id, tokens = await table_with(api, token)
            await not_awaiting(api, game_id, tokens)
            assert (await put_webhook(api, token, receiver.url + "/a")).status_code == 200
            assert (await put_webhook(api, token, receiver.url + "/a", format="slack")).status_code == 200  # same URL
            assert (await put_webhook(api, token, receiver.url + "/b")).status_code == 200
            third = await put_webhook(api, token, receiver.url + "/c")
            assert third.status_code == 429 and third.json()["error"] == "too_many_destinations"
            assert third.headers["Retry-After"]
            for sent in (1, 2, 2):  # each turn's notice while the player is awaited; the third past the quota
                await turn_comes_back(api, game_id, tokens)
                await receiver.wait_for(lambda r, sent=sent: len(r) == sent)  # type: ignore[misc]
            await asyncio.sleep(0.3)
            assert len(receiver.received) == 2 and await Outbox(redis).waiting() == 0  # the third was dropped


async def test_erasing_a_player_erases_its_address_its_webhook_and_what_waits_for_it(
    server: Running, redis: aioredis.Redis, receiver: Receiver
) -> None:
    player_id, token = await new_player(server)
    address = "zeferina.quaresma@example.org"
    await server.http.patch(f"{API}/players/me/notifications", json={"email": address}, headers=auth(token))
    await put_webhook(server, token, receiver.url + "/zeferina")
    await Outbox(redis).post([])  # nothing posted is nothing
    assert (await server.http.delete(f"{API}/players/me", headers=auth(token))).status_code == 200
    for key in key_names(await redis.keys("*")):
        kind = as_bytes(await redis.type(key))
        values: list[bytes] = [key]
        if kind == b"hash":
            values += [b"%s %s" % kv for kv in fields_of(await redis.hgetall(key)).items()]
        elif kind == b"string":
            values.append(as_bytes(await redis.get(key)))
        elif kind == b"list":
            values += key_names(await redis.lrange(key, 0, -1))
        assert not any(address.encode() in v or b"/zeferina" in v for v in values), key
    assert await Outbox(redis).due_at(mail_item(player_id)) is None
