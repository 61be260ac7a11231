"""Passkeys in a real browser: Debian's Chromium driven by Playwright, each browser profile (context) with
a virtual authenticator of the DevTools protocol's WebAuthn domain, against the real server on the test
Redis. A player registers a passkey on its phone; the passkey is synced to its laptop (exported from the
phone's authenticator and added to the laptop's, as a passkey manager does), which signs in with it and
finds the player's tables. Replayed, tampered, foreign-origin and expired answers are refused and change
nothing; a deleted passkey and an erased player's passkeys sign nobody in. The ceremonies run on a page
of the server's own origin (/docs), on ``localhost`` (a relying party id is a domain, never an address).
One browser serves every check."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec
import pytest
import redis.asyncio as aioredis

from server.service.passkeys import PASSKEYS_MOST, Stored
from server.settings import Settings
from server.storage.passkeys import PasskeyStore
from tests.clients.test_web_table import ARGS, CHROMIUM, need_chromium
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running
from tests.server.web.test_oidc import holdings
from tests.server.web.test_players import auth, new_player
from tests.support.replies import key_names

try:
    from playwright.async_api import Browser, BrowserContext, CDPSession, Page, async_playwright
except ImportError:  # pragma: no cover - the test extras install it
    async_playwright = None  # type: ignore[assignment]

API = "/api/v1"
pytestmark = pytest.mark.timeout(60)
# A platform authenticator that holds passkeys and verifies its user, answering at once.
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}
CREATE = """async (options) => {
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
  return (await navigator.credentials.create({ publicKey })).toJSON();
}"""
GET = """async (options) => {
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
  return (await navigator.credentials.get({ publicKey })).toJSON();
}"""
FETCH = """async ([method, path, body]) => {
  const init = { method, credentials: "same-origin" };
  if (body !== null) { init.headers = { "Content-Type": "application/json" }; init.body = JSON.stringify(body); }
  const r = await fetch(path, init);
  return [r.status, await r.json()];
}"""


def localhost(server: Running) -> str:
    return server.url.replace("127.0.0.1", "localhost")


@dataclass
class Device:
    """One browser profile with its own authenticator, on a page of ``origin``."""

    context: BrowserContext
    page: Page
    cdp: CDPSession
    authenticator: str

    @classmethod
    async def open(cls, browser: Browser, origin: str) -> Device:
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(f"{origin}/docs")
        cdp = await context.new_cdp_session(page)
        await cdp.send("WebAuthn.enable", {"enableUI": False})
        added = await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        return cls(context, page, cdp, added["authenticatorId"])

    async def fetch(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """A request from the page: the browser's own cookie and Origin."""
        status, answer = await self.page.evaluate(FETCH, [method, path, body])
        return int(status), answer

    async def create(self, options: dict[str, Any]) -> dict[str, Any]:
        made: dict[str, Any] = await self.page.evaluate(CREATE, options)
        return made

    async def get(self, options: dict[str, Any]) -> dict[str, Any]:
        answered: dict[str, Any] = await self.page.evaluate(GET, options)
        return answered

    async def passkeys(self) -> list[dict[str, Any]]:
        held = await self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        found: list[dict[str, Any]] = held["credentials"]
        return found

    async def add(self, credential: dict[str, Any]) -> None:
        await self.cdp.send("WebAuthn.addCredential", {"authenticatorId": self.authenticator, "credential": credential})

    async def register(self, name: str) -> tuple[int, Any]:
        status, options = await self.fetch("POST", f"{API}/players/me/passkeys/options")
        assert status == 200, options
        return await self.fetch(
            "POST", f"{API}/players/me/passkeys", {"credential": await self.create(options["options"]), "name": name}
        )

    async def sign_in(self) -> tuple[int, Any]:
        status, options = await self.fetch("POST", f"{API}/players/passkeys/options")
        assert status == 200, options
        return await self.fetch(
            "POST", f"{API}/players/passkeys/sign-in", {"credential": await self.get(options["options"])}
        )


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    need_chromium()
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


def tampered(assertion: dict[str, Any]) -> dict[str, Any]:
    """The same answer with one bit of its signature flipped."""
    raw = bytearray(base64.urlsafe_b64decode(assertion["response"]["signature"] + "=="))
    raw[-1] ^= 1
    signature = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    return assertion | {"response": assertion["response"] | {"signature": signature}}


@pytest.mark.timeout(90)
async def test_a_passkey_made_on_one_device_signs_the_player_in_on_another_and_nothing_else_does(
    browser: Browser, server: Running, redis: aioredis.Redis, redis_url: str
) -> None:
    origin = localhost(server)
    phone = await Device.open(browser, origin)
    status, made = await phone.fetch("POST", f"{API}/players", {"name": "Ana"})  # signed in by the cookie
    assert status == 201
    player_id = made["player"]["player_id"]
    status, game = await phone.fetch("POST", f"{API}/games", {"game": "vilar-de-mouros", "players": 2})
    assert (await phone.fetch("POST", f"{API}/games/{game['game_id']}/seats", {}))[0] == 201
    status, passkey = await phone.register("Phone")
    assert status == 201 and passkey["name"] == "Phone" and passkey["last_used_ms"] is None, passkey
    [held] = await phone.passkeys()
    assert held["rpId"] == "localhost" and base64.b64decode(held["userHandle"]) == player_id.encode()

    # The passkey is synced to the laptop, which signs in with it (the cookie set) and finds the tables.
    laptop = await Device.open(browser, origin)
    await laptop.add(held)
    status, signed = await laptop.sign_in()
    assert status == 200 and signed["player"]["player_id"] == player_id, signed
    status, mine = await laptop.fetch("GET", f"{API}/players/me/tables")
    assert status == 200 and [t["game_id"] for t in mine["tables"]] == [game["game_id"]]
    status, listed = await laptop.fetch("GET", f"{API}/players/me/passkeys")
    assert [(p["passkey_id"], p["name"]) for p in listed["passkeys"]] == [(passkey["passkey_id"], "Phone")]
    assert listed["passkeys"][0]["last_used_ms"] is not None

    # Refusals change nothing (but the challenge each spends). Sent as from the page's host (the relying party's).
    http = httpx.AsyncClient(base_url=server.url, headers={"Host": origin.removeprefix("http://")}, timeout=10)
    status, options = await laptop.fetch("POST", f"{API}/players/passkeys/options")
    answer = await laptop.get(options["options"])
    before = await holdings(redis)
    forged = await http.post(f"{API}/players/passkeys/sign-in", json={"credential": tampered(answer)})
    assert forged.status_code == 401 and forged.json()["error"] == "passkey_invalid"
    replayed = await http.post(f"{API}/players/passkeys/sign-in", json={"credential": answer})
    assert replayed.status_code == 401 and replayed.json()["error"] == "challenge_expired"
    # A page of another origin (another port: the same relying party id) asks for the same passkey.
    foreign = f"http://localhost:{int(server.url.rsplit(':', 1)[1]) + 1}"
    await laptop.page.route(f"{foreign}/**", lambda route: route.fulfill(body="<!doctype html><title>x</title>"))
    await laptop.page.goto(f"{foreign}/")
    options = (await http.post(f"{API}/players/passkeys/options")).json()
    made_elsewhere = await laptop.get(options["options"])
    elsewhere = await http.post(f"{API}/players/passkeys/sign-in", json={"credential": made_elsewhere})
    assert elsewhere.status_code == 401 and elsewhere.json()["error"] == "wrong_origin"
    assert elsewhere.json()["details"]["origin"] == foreign
    assert await holdings(redis) == before
    await http.aclose()
    await laptop.page.goto(f"{origin}/docs")

    # An answer after its challenge expired (a server whose challenges hold a second).
    brief = Settings(redis_url=redis_url, admin_token=ADMIN, passkey_timeout=1.0, **NO_QUOTAS)
    async with running(brief) as other:
        await laptop.page.goto(f"{localhost(other)}/docs")
        status, options = await laptop.fetch("POST", f"{API}/players/passkeys/options")
        late = await laptop.get(options["options"])
        await asyncio.sleep(1.2)
        status, expired = await laptop.fetch("POST", f"{API}/players/passkeys/sign-in", {"credential": late})
        assert status == 401 and expired["error"] == "challenge_expired"
    await laptop.page.goto(f"{origin}/docs")

    # Deleted: the laptop still holds the passkey, which signs nobody in now.
    status, deleted = await laptop.fetch("DELETE", f"{API}/players/me/passkeys/{passkey['passkey_id']}")
    assert status == 200 and deleted == {"passkey_id": passkey["passkey_id"], "deleted": True}
    status, refused = await laptop.sign_in()
    assert status == 401 and refused["error"] == "unknown_passkey"

    # Erased: the phone makes a new passkey (the deleted one is gone from it too), the player is erased,
    # and neither its passkeys nor any key of it remain.
    gone = {"authenticatorId": phone.authenticator, "credentialId": held["credentialId"]}
    await phone.cdp.send("WebAuthn.removeCredential", gone)
    status, again = await phone.register("Phone again")
    assert status == 201, again
    assert (await phone.fetch("DELETE", f"{API}/players/me"))[0] == 200
    status, refused = await phone.sign_in()
    assert status == 401 and refused["error"] == "unknown_passkey"
    for key in key_names(await redis.keys("*")):
        if not key.startswith(b"lt:{quota}:"):  # the hour's count of its registrations expires with the hour
            assert player_id.encode() not in key and again["passkey_id"].encode() not in key, key


async def test_passkeys_need_a_player_and_refuse_what_is_no_passkeys_answer(server: Running) -> None:
    _, token = await new_player(server)
    for method, path in (("POST", "/players/me/passkeys/options"), ("GET", "/players/me/passkeys")):
        r = await server.http.request(method, f"{API}{path}")
        assert r.status_code == 401 and r.json()["error"] == "missing_token", path
    r = await server.http.post(f"{API}/players/me/passkeys/options", headers=auth(token))
    options = r.json()["options"]
    assert r.status_code == 200 and r.json()["expires_in"] == 300
    assert options["rp"] == {"id": "127.0.0.1", "name": "Ludoteca"}  # this request's host: the default
    assert options["authenticatorSelection"]["residentKey"] == "required"  # a passkey, found without a name
    challenge = options["challenge"]
    client_data = base64.urlsafe_b64encode(
        b'{"type":"webauthn.create","challenge":"%s","origin":"%s"}' % (challenge.encode(), server.url.encode())
    ).decode()
    response = {"clientDataJSON": client_data, "attestationObject": "AAAA"}
    bogus = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": response}
    r = await server.http.post(f"{API}/players/me/passkeys", json={"credential": bogus}, headers=auth(token))
    assert r.status_code == 401 and r.json()["error"] == "passkey_invalid", r.text
    again = await server.http.post(f"{API}/players/me/passkeys", json={"credential": bogus}, headers=auth(token))
    assert again.json()["error"] == "challenge_expired"  # spent by the try before
    for junk in ({}, {"response": {"clientDataJSON": "!!"}}, {"response": {"clientDataJSON": "e30"}}):
        r = await server.http.post(f"{API}/players/passkeys/sign-in", json={"credential": junk})
        assert r.status_code == 401 and r.json()["error"] == "passkey_invalid", junk
    r = await server.http.delete(f"{API}/players/me/passkeys/nope", headers=auth(token))
    assert r.status_code == 404 and r.json()["error"] == "no_such_passkey"
    assert (await server.http.get(f"{API}/players/me/passkeys", headers=auth(token))).json() == {"passkeys": []}
    ways = await server.http.get(f"{API}/players/sign-in")
    assert ways.json() == {"codes": True, "passkeys": True, "oidc": False}
    for path in ("/players/oidc/start", "/players/oidc/callback"):
        r = await server.http.get(f"{API}{path}")
        assert r.status_code == 404 and r.json()["error"] == "oidc_off", path


async def test_passkey_registrations_are_bounded_per_player_an_hour_and_in_all(
    redis: aioredis.Redis, redis_url: str
) -> None:
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, **{**NO_QUOTAS, "passkeys_per_hour": 2})
    async with running(settings) as api:
        _, token = await new_player(api)
        _, other = await new_player(api, "Rui")
        begun = [await api.http.post(f"{API}/players/me/passkeys/options", headers=auth(token)) for _ in range(3)]
        assert [r.status_code for r in begun] == [200, 200, 429]
        assert begun[-1].json()["error"] == "too_many_passkeys" and begun[-1].headers["Retry-After"]
        # Counted per player: another player on the same address is not held back...
        assert (await api.http.post(f"{API}/players/me/passkeys/options", headers=auth(other))).status_code == 200
        # ...until it holds as many passkeys as a player may.
        rui = (await api.http.get(f"{API}/players/me", headers=auth(other))).json()["player_id"]
        record = msgspec.json.encode(Stored(public_key="AA", sign_count=0, name="Key", created_ms=1)).decode()
        for n in range(PASSKEYS_MOST):
            assert await PasskeyStore(redis).add(rui, f"key-{n}", record)
        full = await api.http.post(f"{API}/players/me/passkeys/options", headers=auth(other))
        assert full.status_code == 422 and full.json()["error"] == "passkey_limit"
        assert full.json()["details"] == {"most": PASSKEYS_MOST}
