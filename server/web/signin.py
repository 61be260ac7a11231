"""Signing in beyond one-time codes, as routes: passkeys (WebAuthn) and the operator's OpenID Connect
provider. Both end as ``POST /players/sign-in`` does: a new token of the player, in the answer and in
the web table's cookie."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from server.service.oidc import STATE_TTL_MS, OpenIDConnect
from server.service.passkeys import Passkey, PasskeyDeleted, PasskeyList, PasskeyOptions, Passkeys, RelyingParty
from server.service.players import SignedIn
from server.web.auth import COOKIE, bearer
from server.web.players import COOKIE_SECONDS, signed_in
from server.web.requests import Endpoint, answer, client_address, read_json

STATE_COOKIE = "ludoteca_oidc"  # the browser's own state of an OpenID Connect sign-in under way
STATE_PATH = "/api/v1/players/oidc"


class PasskeyRegistration(msgspec.Struct, forbid_unknown_fields=True):
    credential: dict[str, Any]  # what navigator.credentials.create() made, as its toJSON() writes it
    name: str | None = None  # what to call it in the player's list ("Phone"); at most 60 characters


class PasskeySignIn(msgspec.Struct, forbid_unknown_fields=True):
    credential: dict[str, Any]  # what navigator.credentials.get() answered, as its toJSON() writes it


class SignInMethods(msgspec.Struct):
    """How a player may sign in on this server."""

    codes: bool = True  # POST /players/sign-in with a one-time code
    passkeys: bool = True  # POST /players/passkeys/options, then /players/passkeys/sign-in
    oidc: bool = False  # GET /players/oidc/start: the operator's identity provider, when configured


def passkeys_of(request: Request) -> Passkeys:
    passkeys: Passkeys = request.app.state.passkeys
    return passkeys


def oidc_of(request: Request) -> OpenIDConnect:
    oidc: OpenIDConnect = request.app.state.oidc
    return oidc


def relying_party(request: Request) -> RelyingParty:
    """The passkeys' relying party: the settings', else the host and origin this request was sent to."""
    settings = request.app.state.settings
    own = f"{request.url.scheme}://{request.url.netloc}"
    return RelyingParty(settings.passkey_rp_id or request.url.hostname or "", settings.passkey_origins or (own,))


async def sign_in_methods(request: Request) -> Response:
    return answer(SignInMethods(oidc=oidc_of(request).configured))


# -- passkeys --------------------------------------------------------------------------------------


async def passkey_registration_options(request: Request) -> Response:
    return answer(await passkeys_of(request).registration_options(bearer(request), relying_party(request)))


async def register_passkey(request: Request) -> Response:
    token = bearer(request)
    passkeys = passkeys_of(request)
    await passkeys.players.signed_in(token)  # 401 before a bad body
    body = await read_json(request, PasskeyRegistration)
    return answer(await passkeys.register(token, body.credential, body.name, relying_party(request)), 201)


async def list_passkeys(request: Request) -> Response:
    return answer(await passkeys_of(request).list(bearer(request)))


async def delete_passkey(request: Request) -> Response:
    return answer(await passkeys_of(request).delete(bearer(request), request.path_params["passkey_id"]))


async def passkey_sign_in_options(request: Request) -> Response:
    return answer(await passkeys_of(request).sign_in_options(client_address(request), relying_party(request)))


async def sign_in_with_passkey(request: Request) -> Response:
    body = await read_json(request, PasskeySignIn)
    return signed_in(request, await passkeys_of(request).sign_in(body.credential, relying_party(request)), 200)


# -- OpenID Connect --------------------------------------------------------------------------------


async def oidc_start(request: Request) -> Response:
    """To the provider; the state also goes to this browser in a cookie, which the callback asks back."""
    own = f"{request.url.scheme}://{request.url.netloc}{STATE_PATH}/callback"
    started = await oidc_of(request).start(request.query_params.get("then"), client_address(request), own)
    response = RedirectResponse(started.url, 302)
    response.set_cookie(
        STATE_COOKIE, started.state, max_age=STATE_TTL_MS // 1000, httponly=True, samesite="lax",
        secure=request.url.scheme == "https", path=STATE_PATH,
    )  # fmt: skip
    return response


async def oidc_callback(request: Request) -> Response:
    """Back from the provider: the player's token, as JSON, or (when the start said ``then``) a redirect
    there with the web table's cookie."""
    query = request.query_params
    signed, then = await oidc_of(request).finish(
        query.get("state"), request.cookies.get(STATE_COOKIE), query.get("code"), query.get("error")
    )
    response = signed_in(request, signed, 200) if then is None else redirect_signed_in(request, signed, then)
    response.delete_cookie(STATE_COOKIE, path=STATE_PATH)
    return response


def redirect_signed_in(request: Request, signed: SignedIn, then: str) -> Response:
    response = RedirectResponse(then, 303)
    response.set_cookie(
        COOKIE, signed.token, max_age=COOKIE_SECONDS, httponly=True, samesite="lax",
        secure=request.url.scheme == "https", path="/",
    )  # fmt: skip
    return response


ME = (401, 503)
SIGN_IN_ENDPOINTS: list[Endpoint] = [
    Endpoint("GET", "/players/sign-in", sign_in_methods, "How a player may sign in here", SignInMethods, 200),
    Endpoint(
        "POST", "/players/me/passkeys/options", passkey_registration_options,
        "Options to register a passkey for the signed-in player (navigator.credentials.create)",
        PasskeyOptions, 200, None, (), (*ME, 422, 429),
    ),
    Endpoint(
        "POST", "/players/me/passkeys", register_passkey, "Keep the passkey the browser made from those options",
        Passkey, 201, PasskeyRegistration, (), (400, *ME, 409, 413, 415),
    ),
    Endpoint("GET", "/players/me/passkeys", list_passkeys, "The player's passkeys", PasskeyList, 200, None, (), ME),
    Endpoint(
        "DELETE", "/players/me/passkeys/{passkey_id}", delete_passkey, "Delete one of the player's passkeys",
        PasskeyDeleted, 200, None, (), (*ME, 404),
    ),
    Endpoint(
        "POST", "/players/passkeys/options", passkey_sign_in_options,
        "Options to sign in with a passkey (navigator.credentials.get)", PasskeyOptions, 200, None, (), (429, 503),
    ),
    Endpoint(
        "POST", "/players/passkeys/sign-in", sign_in_with_passkey, "Sign in with a passkey's answer to those options",
        SignedIn, 200, PasskeySignIn, (), (400, 401, 413, 415, 503),
    ),
    Endpoint(
        "GET", "/players/oidc/start", oidc_start, "Sign in through the operator's identity provider: to it",
        "redirect", 302, None, ("then",), (400, 404, 429, 503),
    ),
    Endpoint(
        "GET", "/players/oidc/callback", oidc_callback,
        "Back from the identity provider: the player's token (or, with 'then', a redirect there)",
        SignedIn, 200, None, ("code", "state", "error"), (401, 404, 503),
    ),
]  # fmt: skip
