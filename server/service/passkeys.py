"""Passkeys (WebAuthn): a signed-in player registers the passkeys of its devices, and signs in with any of
them anywhere, with nothing outside this server.

Both ceremonies go the same way: the server answers options holding a fresh random challenge, kept in
Redis for ``passkey_timeout`` (server/storage/challenges.py) with what it was issued for; the browser's
own API (``navigator.credentials.create`` or ``get``) has the authenticator sign it; the server takes
the challenge the answer names (so it answers once: a replayed answer finds it gone), checks the
answer's origin against the relying party's, and has the ``webauthn`` library check the rest
(relying party id, signature, flags, counter). A refusal writes nothing but the spent challenge.
Passkeys are discoverable credentials: signing in names no player first, the authenticator offers the
passkeys it holds for this site, and the credential's id finds its player (server/storage/passkeys.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from server.service.errors import Conflict, Invalid, NotFound, Refused, Unauthorized
from server.service.players import Players, SignedIn
from server.storage.challenges import Challenges
from server.storage.passkeys import PasskeyStore

REGISTERING = "passkey-register"  # the challenges' kinds: one kind's challenge never serves the other
SIGNING_IN = "passkey-sign-in"
PASSKEYS_MOST = 20  # a player's passkeys: a few devices and security keys, with room to spare
NAME_MOST = 60
RP_NAME = "Ludoteca"


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: ``id``, a domain the pages' host is or ends with, and the origins
    (``https://host[:port]``) the ceremonies may happen on."""

    id: str
    origins: tuple[str, ...]


class PasskeyOptions(msgspec.Struct):
    """What to hand the browser: ``options`` as WebAuthn's JSON form, for
    ``PublicKeyCredential.parseCreationOptionsFromJSON`` (registering) or ``parseRequestOptionsFromJSON``
    (signing in); good for ``expires_in`` seconds, once."""

    options: dict[str, Any]
    expires_in: int


class Passkey(msgspec.Struct):
    """One of the player's passkeys, as the player sees it."""

    passkey_id: str  # the credential's id, base64url
    name: str
    created_ms: int
    last_used_ms: int | None = None
    synced: bool = False  # the authenticator says the passkey is backed up (a synced passkey)


class PasskeyList(msgspec.Struct):
    passkeys: list[Passkey]


class PasskeyDeleted(msgspec.Struct):
    passkey_id: str
    deleted: bool = True


class Stored(msgspec.Struct):
    """A passkey as Redis keeps it: its public key and the authenticator's signature counter."""

    public_key: str  # COSE, base64url
    sign_count: int
    name: str
    created_ms: int
    last_used_ms: int | None = None
    synced: bool = False


STORED = msgspec.json.Decoder(Stored)


def shown(passkey_id: str, stored: Stored) -> Passkey:
    return Passkey(passkey_id, stored.name, stored.created_ms, stored.last_used_ms, stored.synced)


def client_data(credential: dict[str, Any]) -> dict[str, Any]:
    """The answer's client data (its challenge, origin and type), as the browser wrote it; the library checks
    it again with the signature."""
    try:
        raw = base64url_to_bytes(credential["response"]["clientDataJSON"])
        data = json.loads(raw)
        if not isinstance(data, dict) or not isinstance(data.get("challenge"), str):
            raise ValueError("no challenge")
        return data
    except (KeyError, TypeError, ValueError) as exc:
        raise Unauthorized(
            "passkey_invalid", f"That is not a passkey's answer ({exc}).", {"case": "unreadable", "reason": str(exc)}
        ) from None


class Passkeys:
    """Registering, listing and deleting a player's passkeys, and signing in with one."""

    def __init__(self, store: PasskeyStore, challenges: Challenges, players: Players, timeout_s: float) -> None:
        self.store = store
        self.challenges = challenges
        self.players = players
        self.timeout_ms = int(timeout_s * 1000)

    # -- registering -----------------------------------------------------------------------------

    async def registration_options(self, token: str | None, party: RelyingParty) -> PasskeyOptions:
        """Options to make a passkey for the signed-in player (its present ones excluded, so an
        authenticator does not make a second for the same player)."""
        player_id = await self.players.signed_in(token)
        quotas = self.players.quotas
        await quotas.take(quotas.passkeys, player_id, await self.players.now_ms())
        held = await self.store.all(player_id)
        if len(held) >= PASSKEYS_MOST:
            message = f"A player may keep {PASSKEYS_MOST} passkeys; delete one first."
            raise Refused("passkey_limit", message, {"most": PASSKEYS_MOST})
        player = await self.players.player(player_id)
        options = generate_registration_options(
            rp_id=party.id,
            rp_name=RP_NAME,
            user_name=player.name,
            user_id=player_id.encode(),  # the user handle: the player's opaque random id, nothing personal
            user_display_name=player.name,
            timeout=self.timeout_ms,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,  # a passkey: found by the authenticator, no name typed
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in held],
        )
        await self._issue(REGISTERING, options.challenge, player_id)
        return PasskeyOptions(json.loads(options_to_json(options)), self.timeout_ms // 1000)

    async def register(
        self, token: str | None, credential: dict[str, Any], name: str | None, party: RelyingParty
    ) -> Passkey:
        """Keep the passkey the browser made from the player's registration options."""
        player_id = await self.players.signed_in(token)
        label = " ".join((name or "").split())[:NAME_MOST] or "Passkey"
        data = client_data(credential)
        if await self.challenges.take(REGISTERING, data["challenge"]) != player_id:
            raise self._expired()
        self._check_origin(data, party)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(data["challenge"]),
                expected_rp_id=party.id,
                expected_origin=list(party.origins),
            )
        except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
            raise Unauthorized(
                "passkey_invalid",
                f"That passkey does not check out: {exc}.",
                {"case": "registration", "reason": str(exc)},
            ) from None
        passkey_id = bytes_to_base64url(verified.credential_id)
        stored = Stored(
            public_key=bytes_to_base64url(verified.credential_public_key),
            sign_count=verified.sign_count,
            name=label,
            created_ms=await self.players.now_ms(),
            synced=verified.credential_backed_up,
        )
        if not await self.store.add(player_id, passkey_id, msgspec.json.encode(stored).decode()):
            raise Conflict("passkey_registered", "That passkey is registered here already.")
        return shown(passkey_id, stored)

    async def list(self, token: str | None) -> PasskeyList:
        player_id = await self.players.signed_in(token)
        found = [shown(i, STORED.decode(record)) for i, record in (await self.store.all(player_id)).items()]
        return PasskeyList(sorted(found, key=lambda p: p.created_ms))

    async def delete(self, token: str | None, passkey_id: str) -> PasskeyDeleted:
        player_id = await self.players.signed_in(token)
        if not await self.store.remove(player_id, passkey_id):
            raise NotFound("no_such_passkey", "The player has no passkey by that id.", {"passkey_id": passkey_id})
        return PasskeyDeleted(passkey_id)

    # -- signing in ----------------------------------------------------------------------------

    async def sign_in_options(self, client: str | None, party: RelyingParty) -> PasskeyOptions:
        """Options to sign in with any passkey of this site; each counts against the address's sign-ins."""
        quotas = self.players.quotas
        await quotas.take(quotas.sign_ins, client, await self.players.now_ms())
        options = generate_authentication_options(
            rp_id=party.id, timeout=self.timeout_ms, user_verification=UserVerificationRequirement.PREFERRED
        )
        await self._issue(SIGNING_IN, options.challenge, "")
        return PasskeyOptions(json.loads(options_to_json(options)), self.timeout_ms // 1000)

    async def sign_in(self, credential: dict[str, Any], party: RelyingParty) -> SignedIn:
        """A new token of the player whose passkey signed the challenge."""
        data = client_data(credential)
        if await self.challenges.take(SIGNING_IN, data["challenge"]) is None:
            raise self._expired()
        self._check_origin(data, party)
        passkey_id = credential.get("id")
        player_id = await self.store.owner(passkey_id) if isinstance(passkey_id, str) and passkey_id else None
        record = await self.store.get(player_id, passkey_id) if player_id and isinstance(passkey_id, str) else None
        if player_id is None or record is None or not isinstance(passkey_id, str):
            raise Unauthorized(
                "unknown_passkey", "That passkey is not known here (deleted, or never registered).", {"case": "unknown"}
            )
        stored = STORED.decode(record)
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(data["challenge"]),
                expected_rp_id=party.id,
                expected_origin=list(party.origins),
                credential_public_key=base64url_to_bytes(stored.public_key),
                credential_current_sign_count=stored.sign_count,
            )
            handle = credential["response"].get("userHandle")
            if handle and base64url_to_bytes(handle) != player_id.encode():
                raise ValueError("the passkey names another player")
        except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
            raise Unauthorized(
                "passkey_invalid",
                f"That passkey's answer does not check out: {exc}.",
                {"case": "sign_in", "reason": str(exc)},
            ) from None
        used = msgspec.structs.replace(
            stored, sign_count=verified.new_sign_count, last_used_ms=await self.players.now_ms(),
            synced=verified.credential_backed_up,
        )  # fmt: skip
        if not await self.store.update(player_id, passkey_id, msgspec.json.encode(used).decode()):
            raise Unauthorized("unknown_passkey", "That passkey was deleted meanwhile.", {"case": "deleted"})
        return await self.players.sign_in_as(player_id)

    # -- checks ------------------------------------------------------------------------------

    async def _issue(self, kind: str, challenge: bytes, holder: str) -> None:
        # 64 random bytes: a collision is out of reach, but a challenge in use is never overwritten.
        if not await self.challenges.put(kind, bytes_to_base64url(challenge), holder, self.timeout_ms):
            raise Invalid("malformed", "That challenge is in use; ask for new options.", {"case": "challenge_in_use"})

    @staticmethod
    def _expired() -> Unauthorized:
        return Unauthorized(
            "challenge_expired", "That passkey answer's challenge expired or was used already; ask for new options."
        )

    @staticmethod
    def _check_origin(data: dict[str, Any], party: RelyingParty) -> None:
        origin = data.get("origin")
        if origin not in party.origins:
            raise Unauthorized(
                "wrong_origin",
                f"That passkey answer was made on {origin!r}, not on this server's pages.",
                {"origin": origin, "origins": list(party.origins)},
            )
