"""Signing in through the operator's OpenID Connect provider: the authorization-code flow with PKCE.

``start`` keeps a state in Redis (server/storage/challenges.py, single use, ten minutes) holding the
PKCE verifier, the nonce and where to go afterwards, and answers the provider's authorization URL
(S256 code challenge, state, nonce). The web layer also gives the browser the state in a cookie, so
that a callback another site sends the browser to (with the other site's code) is refused: the
state must be this browser's. ``finish`` takes the state, exchanges the code with the verifier at the
provider's token endpoint, and checks the ID token with ``authlib`` and ``joserfc`` (the signature by
the provider's published keys, the issuer, the audience, the expiry, the nonce); the provider's
subject then finds its player (made on its first sign-in, named as the provider names the person).
The subject is kept only as a SHA-256 of the issuer and the subject.

The provider's discovery document is read once, when first needed; its keys at every sign-in
(sign-ins are rare, and a rotated key is then never missed).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import msgspec
from authlib.oauth2.rfc6749.parameters import prepare_grant_uri
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from authlib.oidc.core import CodeIDToken
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from server.service.errors import Invalid, NotFound, Unauthorized, Unavailable
from server.service.players import Players, SignedIn
from server.storage.challenges import Challenges

KIND = "oidc"
STATE_TTL_MS = 10 * 60 * 1000  # time to choose an account at the provider and come back
# Signatures an ID token may carry: asymmetric only ("none" and the shared-secret HS* never).
ALGORITHMS = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"})
LEEWAY_S = 120  # clocks of the provider and of this server may differ this much
NAME_CLAIMS = ("name", "preferred_username", "nickname", "given_name")
NAME_MOST = 40


@dataclass(frozen=True)
class Provider:
    """The operator's identity provider and this server as its client."""

    issuer: str
    client_id: str
    client_secret: str | None
    redirect: str | None = None  # this server's callback, as registered; None: the one each start was sent to
    scopes: str = "openid profile"


class Pending(msgspec.Struct):
    """What a state holds until the provider sends the browser back."""

    verifier: str
    nonce: str
    redirect: str  # the callback the provider was given, given again with the code
    then: str | None = None


class Started(msgspec.Struct):
    url: str  # the provider's authorization URL, to send the browser to
    state: str


def subject_hash(issuer: str, subject: str) -> str:
    return hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()


def provider_name(claims: dict[str, Any]) -> str:
    """The name the provider gives the person, as a seat name may be (at most 40 characters)."""
    for claim in NAME_CLAIMS:
        value = claims.get(claim)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())[:NAME_MOST]
    return "Player"


class OpenIDConnect:
    """The sign-in through one provider; ``provider`` None: not configured (every call is 404 ``oidc_off``)."""

    def __init__(self, provider: Provider | None, challenges: Challenges, players: Players) -> None:
        self.provider = provider
        self.challenges = challenges
        self.players = players
        self.http = httpx.AsyncClient(timeout=10.0, follow_redirects=False)
        self.metadata: dict[str, Any] | None = None

    async def close(self) -> None:
        await self.http.aclose()

    @property
    def configured(self) -> bool:
        return self.provider is not None

    def _provider(self) -> Provider:
        if self.provider is None:
            raise NotFound("oidc_off", "Signing in with an identity provider is not configured on this server.")
        return self.provider

    # -- the flow ----------------------------------------------------------------------------------

    async def start(self, then: str | None, client: str | None, own_callback: str) -> Started:
        """A new state, and the provider's authorization URL for it; counts against the address's sign-ins.
        ``own_callback``: this server's callback as the browser reaches it (used unless one is set)."""
        provider = self._provider()
        if then is not None and not (then.startswith("/") and not then.startswith(("//", "/\\"))):
            raise Invalid(
                "malformed", "'then' is a path on this server, such as '/'.", {"field": "then", "case": "then"}
            )
        quotas = self.players.quotas
        await quotas.take(quotas.sign_ins, client, await self.players.now_ms())
        metadata = await self._metadata(provider)
        redirect = provider.redirect or own_callback
        state = secrets.token_urlsafe(32)
        pending = Pending(secrets.token_urlsafe(48), secrets.token_urlsafe(24), redirect, then)
        if not await self.challenges.put(KIND, state, msgspec.json.encode(pending).decode(), STATE_TTL_MS):
            raise Invalid("malformed", "That state is in use; start again.", {"case": "state_in_use"})
        url = prepare_grant_uri(
            metadata["authorization_endpoint"],
            provider.client_id,
            "code",
            redirect_uri=redirect,
            scope=provider.scopes,
            state=state,
            nonce=pending.nonce,
            code_challenge=create_s256_code_challenge(pending.verifier),  # type: ignore[no-untyped-call]
            code_challenge_method="S256",
        )
        return Started(url, state)

    async def finish(
        self, state: str | None, browser_state: str | None, code: str | None, error: str | None
    ) -> tuple[SignedIn, str | None]:
        """The player the provider signed in, a new token of it, and where the browser goes next."""
        provider = self._provider()
        ours = bool(state and browser_state and secrets.compare_digest(state, browser_state))
        held = await self.challenges.take(KIND, state) if ours and state else None
        if error is not None or (held is not None and not code):
            # Said first, whatever the state: a refusal grants nothing (and some providers leave the state out).
            reason = error or "no code"
            message = f"The identity provider did not sign you in ({reason})."
            raise Unauthorized("oidc_denied", message, {"reason": reason})
        if held is None or not code:
            raise self._unknown_state()
        pending = msgspec.json.decode(held, type=Pending)
        metadata = await self._metadata(provider)
        tokens = await self._exchange(provider, metadata, code, pending)
        claims = await self._id_token(provider, metadata, tokens, pending.nonce)
        subject = subject_hash(provider.issuer, claims["sub"])
        signed = await self.players.sign_in_by_subject(subject, provider_name(claims))
        return signed, pending.then

    # -- the provider ------------------------------------------------------------------------------

    async def _metadata(self, provider: Provider) -> dict[str, Any]:
        if self.metadata is None:
            found = await self._get_json(provider.issuer.rstrip("/") + "/.well-known/openid-configuration")
            if found.get("issuer") != provider.issuer:  # OpenID Connect Discovery 1.0, section 4.3
                named = found.get("issuer")
                raise Unavailable(
                    "oidc_unavailable",
                    f"The identity provider calls itself {named!r}, not the issuer.",
                    {"case": "issuer", "named": str(named)},
                )
            self.metadata = found
        return self.metadata

    async def _exchange(
        self, provider: Provider, metadata: dict[str, Any], code: str, pending: Pending
    ) -> dict[str, Any]:
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": pending.redirect,
            "code_verifier": pending.verifier,
            "client_id": provider.client_id,
        }
        # client_secret_basic: each part form-encoded first (RFC 6749, section 2.3.1)
        secret = provider.client_secret
        try:
            if secret:
                auth = (quote(provider.client_id, safe=""), quote(secret, safe=""))
                answer = await self.http.post(metadata["token_endpoint"], data=form, auth=auth)
            else:
                answer = await self.http.post(metadata["token_endpoint"], data=form)
        except httpx.HTTPError as exc:
            raise self._unavailable(exc) from None
        if answer.status_code >= 500:
            raise self._unavailable(f"its token endpoint answered {answer.status_code}")
        try:
            tokens = answer.json()
        except ValueError:
            tokens = {}
        if answer.status_code != 200 or not isinstance(tokens, dict) or not isinstance(tokens.get("id_token"), str):
            reason = tokens.get("error", answer.status_code) if isinstance(tokens, dict) else answer.status_code
            raise Unauthorized(
                "oidc_failed",
                f"The identity provider refused the sign-in's code ({reason}).",
                {"case": "code", "reason": str(reason)},
            )
        return tokens

    async def _id_token(
        self, provider: Provider, metadata: dict[str, Any], tokens: dict[str, Any], nonce: str
    ) -> dict[str, Any]:
        keys = await self._get_json(metadata["jwks_uri"])
        allowed = [a for a in metadata.get("id_token_signing_alg_values_supported", ["RS256"]) if a in ALGORITHMS]
        try:
            token = jwt.decode(tokens["id_token"], KeySet.import_key_set(keys), algorithms=allowed or ["RS256"])  # type: ignore[arg-type]
            claims = CodeIDToken(
                token.claims,
                token.header,
                {
                    "iss": {"essential": True, "value": provider.issuer},
                    "aud": {"essential": True, "value": provider.client_id},
                },
                {"nonce": nonce, "client_id": provider.client_id, "access_token": tokens.get("access_token")},
            )
            claims.validate(leeway=LEEWAY_S)
        except (JoseError, ValueError, TypeError, KeyError) as exc:
            raise Unauthorized(
                "oidc_failed",
                f"The identity provider's ID token does not check out ({exc}).",
                {"case": "id_token", "reason": str(exc)},
            ) from None
        if not isinstance(claims.get("sub"), str) or not claims["sub"]:
            raise Unauthorized(
                "oidc_failed", "The identity provider's ID token names no subject.", {"case": "no_subject"}
            )
        return dict(claims)

    async def _get_json(self, url: str) -> dict[str, Any]:
        try:
            answer = await self.http.get(url)
            answer.raise_for_status()
            found = answer.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise self._unavailable(exc) from None
        if not isinstance(found, dict):
            raise self._unavailable(f"{url} is not a JSON object")
        return found

    @staticmethod
    def _unavailable(reason: object) -> Unavailable:
        return Unavailable(
            "oidc_unavailable",
            f"The identity provider cannot be reached or read ({reason}).",
            {"case": "unreachable", "reason": str(reason)},
        )

    @staticmethod
    def _unknown_state() -> Unauthorized:
        return Unauthorized(
            "oidc_state_unknown",
            "That sign-in is not this browser's, expired, or was finished already; start again.",
        )
