"""Signing in through an OpenID Connect provider: a real one (oidc-provider-mock, on loopback in a thread),
the browser's part driven with httpx. The first sign-in makes a player named as the provider names the
person, every later one signs the same player in; the flow uses PKCE (S256), a state bound to the browser
and a nonce, and a callback that is not this browser's, replayed, denied or carrying another nonce is
refused and changes nothing."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import httpx
import oidc_provider_mock
import pytest
import redis.asyncio as aioredis
import werkzeug.serving

from clients.python import AsyncClient, SignInMethods
from server.settings import Settings
from tests.server.conftest import ADMIN, NO_QUOTAS, Running, running
from tests.server.web.test_players import auth, everything_in, sit
from tests.support.replies import key_names

API = "/api/v1"
CLIENT_ID, SECRET = "ludoteca", "a-secret-for-tests"
pytestmark = pytest.mark.timeout(60)


class Provider:
    """The provider's WSGI app, and the token requests it was sent (the mock does not check PKCE: the test does)."""

    def __init__(self) -> None:
        self.app = oidc_provider_mock.app()
        self.token_forms: list[dict[str, list[str]]] = []
        self.url = ""

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["PATH_INFO"] == "/oauth2/token":
            body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            self.token_forms.append(parse_qs(body.decode()))
            environ["wsgi.input"] = io.BytesIO(body)
        return self.app(environ, start_response)


@pytest.fixture
def provider() -> Iterator[Provider]:
    spy = Provider()
    served = werkzeug.serving.make_server("127.0.0.1", 0, spy, threaded=True)
    thread = threading.Thread(target=served.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    spy.url = f"http://127.0.0.1:{served.server_port}"
    try:
        yield spy
    finally:
        served.shutdown()
        thread.join(5)


@pytest.fixture
async def server(redis: aioredis.Redis, redis_url: str, provider: Provider) -> AsyncIterator[Running]:
    settings = Settings(
        redis_url=redis_url, admin_token=ADMIN, oidc_issuer=provider.url, oidc_client_id=CLIENT_ID,
        oidc_client_secret=SECRET, **NO_QUOTAS,
    )  # fmt: skip
    async with running(settings) as api:
        yield api


@contextlib.asynccontextmanager
async def browser(server: Running) -> AsyncIterator[httpx.AsyncClient]:
    """A browser's cookie jar, following no redirect by itself."""
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        yield client


async def to_provider(client: httpx.AsyncClient, then: str | None = None) -> str:
    """The start: the provider's authorization URL the server sends the browser to."""
    r = await client.get(f"{API}/players/oidc/start", params={"then": then} if then else {})
    assert r.status_code == 302, r.text
    return r.headers["location"]


async def at_provider(client: httpx.AsyncClient, authorize: str, sub: str, action: str | None = None) -> str:
    """The person chooses an account at the provider (or says no): the callback URL it sends the browser to."""
    shown = await client.get(authorize)
    assert shown.status_code == 200, shown.text
    form = {"sub": sub} | ({"action": action} if action else {})
    r = await client.post(authorize, data=form)
    assert r.status_code == 302, r.text
    return r.headers["location"]


async def sign_in(client: httpx.AsyncClient, sub: str, then: str | None = None) -> httpx.Response:
    return await client.get(await at_provider(client, await to_provider(client, then), sub))


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def with_query(url: str, **changes: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(query=urlencode(query(url) | changes)))


async def holdings(redis: aioredis.Redis) -> dict[bytes, bytes]:
    """Everything Redis holds but the quotas' counts and the challenges (a refused callback spends its state)."""
    keys = [k for k in key_names(await redis.keys("*")) if not k.startswith((b"lt:{quota}", b"lt:{challenge:"))]
    return {key: await everything_in(redis, key) for key in keys}


async def test_the_first_sign_in_makes_a_player_named_by_the_provider_and_the_next_finds_it(
    server: Running, provider: Provider, redis: aioredis.Redis
) -> None:
    put = httpx.put(f"{provider.url}/users/ana", json={"name": "Ana Sousa", "email": "ana@example.org"})
    assert put.status_code == 204
    async with browser(server) as phone:
        authorize = await to_provider(phone)
        asked = query(authorize)
        assert asked["code_challenge_method"] == "S256" and asked["state"] and asked["nonce"]
        assert asked["client_id"] == CLIENT_ID and asked["scope"] == "openid profile"
        assert asked["redirect_uri"] == f"{server.url}{API}/players/oidc/callback"
        first = await phone.get(await at_provider(phone, authorize, "ana"))
        assert first.status_code == 200, first.text
        made = first.json()
        assert made["player"]["name"] == "Ana Sousa" and made["token"].startswith("player.")
        assert "ludoteca_player=player." in first.headers["set-cookie"]
        # PKCE: the verifier the server sent with the code hashes to the challenge it sent first.
        verifier = provider.token_forms[-1]["code_verifier"][0]
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        assert digest == asked["code_challenge"]
        game_id = await server.create(2)
        assert (await sit(server, game_id, made["token"])).status_code == 201
    # Another device, the same person at the provider: the same player, and its tables.
    async with browser(server) as laptop:
        again = await sign_in(laptop, "ana", then="/")
        assert again.status_code == 303 and again.headers["location"] == "/"
        cookie = laptop.cookies.get("ludoteca_player")
        assert cookie is not None and cookie != made["token"]
        mine = (await server.get(f"{API}/players/me/tables", cookie)).json()["tables"]
        assert [t["game_id"] for t in mine] == [game_id]
        assert (await server.get(f"{API}/players/me", cookie)).json()["player_id"] == made["player"]["player_id"]
    # The subject is kept only hashed; erasing the player unlinks it, and the next sign-in makes a new one.
    assert not any(b"ana" in key for key in key_names(await redis.keys("*")))
    assert (await server.http.delete(f"{API}/players/me", headers=auth(made["token"]))).status_code == 200
    assert not any(key.startswith(b"lt:{player-subject:") for key in key_names(await redis.keys("*")))
    async with browser(server) as phone:
        anew = (await sign_in(phone, "ana")).json()
        assert anew["player"]["player_id"] != made["player"]["player_id"] and anew["player"]["name"] == "Ana Sousa"


async def test_a_callback_not_this_browsers_replayed_denied_or_with_another_nonce_is_refused_and_changes_nothing(
    server: Running, redis: aioredis.Redis
) -> None:
    async with browser(server) as victim, browser(server) as attacker:
        # Login CSRF: the attacker's own callback, sent to another browser, is not that browser's.
        callback = await at_provider(attacker, await to_provider(attacker), "mallory")
        before = await holdings(redis)
        forged = await victim.get(callback)
        assert forged.status_code == 401 and forged.json()["error"] == "oidc_state_unknown"
        assert "set-cookie" not in forged.headers
        assert await holdings(redis) == before
        # Used once: the same callback again is refused too.
        assert (await attacker.get(callback)).status_code == 200
        before = await holdings(redis)
        replayed = await attacker.get(callback)
        assert replayed.status_code == 401 and replayed.json()["error"] == "oidc_state_unknown"
        # The person says no at the provider.
        denied = await victim.get(await at_provider(victim, await to_provider(victim), "eva", action="deny"))
        assert denied.status_code == 401 and denied.json() == {
            "error": "oidc_denied",
            "message": "The identity provider did not sign you in (access_denied).",
            "details": {"reason": "access_denied"},
        }
        # An ID token for another request (its nonce is not the one this state holds).
        swapped = with_query(await to_provider(victim), nonce="another-nonce")
        refused = await victim.get(await at_provider(victim, swapped, "eva"))
        assert refused.status_code == 401 and refused.json()["error"] == "oidc_failed"
        assert "nonce" in refused.json()["message"]
        assert await holdings(redis) == before
        # A 'then' that leaves this server is refused before the provider is asked.
        away = await victim.get(f"{API}/players/oidc/start", params={"then": "//evil.example/"})
        assert away.status_code == 400 and away.json()["details"]["field"] == "then"


async def test_sign_ins_begun_from_one_address_are_bounded_an_hour(
    redis: aioredis.Redis, redis_url: str, provider: Provider
) -> None:
    quotas = {**NO_QUOTAS, "sign_ins_per_hour": 2}
    settings = Settings(redis_url=redis_url, oidc_issuer=provider.url, oidc_client_id=CLIENT_ID, **quotas)
    async with running(settings) as api, browser(api) as client:
        started = [await client.get(f"{API}/players/oidc/start") for _ in range(2)]
        assert [r.status_code for r in started] == [302, 302]
        passkey = await client.post(f"{API}/players/passkeys/options")  # the same count: one address's sign-ins
        assert passkey.status_code == 429 and passkey.json()["error"] == "too_many_sign_ins"
        assert passkey.headers["Retry-After"]


async def test_the_sdk_signs_in_through_the_provider_and_tells_the_ways_in(server: Running) -> None:
    async with AsyncClient(server.url) as client:
        assert await client.sign_in_methods() == SignInMethods(codes=True, passkeys=True, oidc=True)
        authorize = await client.oidc_start()
        assert query(authorize)["code_challenge_method"] == "S256"
        async with browser(server) as person:
            back = query(await at_provider(person, authorize, "rui"))
        signed = await client.oidc_callback(back["code"], back["state"])  # this client holds the state's cookie
        assert signed.player.name == "Player" and signed.token.startswith("player.")  # no name from the provider
        mine = client.as_seat(signed.token)
        try:
            assert (await mine.passkeys()).passkeys == [] and (await mine.player()).player_id == signed.player.player_id
        finally:
            await mine.aclose()
