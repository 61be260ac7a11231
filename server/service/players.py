"""Players: an id, a display name and the seats it holds, signed in by long-lived tokens.

Players are optional: seat tokens work as before for clients that do without them. A player is
made anonymously (a name, no password) and signs in on another device with a one-time code
shown on a device already signed in. Its name lives outside every game's stream (server/storage/
players.py); a game keeps only the player's id in ``SeatTaken``, so a player who erases itself
leaves games that still fold and replay, its seat shown as "A former player".
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Literal

import msgspec

from domain.table import status
from server.service.errors import Invalid, Unauthorized, UnknownGame
from server.service.games import Games
from server.service.lobby import seat_name
from server.service.quotas import Quotas
from server.service.tokens import is_player_token, new_player_token, token_hash
from server.storage.passkeys import PasskeyStore
from server.storage.players import PlayerRegistry

CODE_LETTERS = "ABCDEFGHJKMNPQRSTVWXYZ23456789"  # no 0/O, 1/I/L, U: read aloud and typed on a phone
CODE_LENGTH = 8  # 30^8: about 6.6e11 codes, against a few tries an hour from one address
CODE_TTL_MS = 10 * 60 * 1000
LANGUAGES = ("pt", "gl", "es", "en")
MY_TABLES_MOST = 500  # the latest seats "my tables" looks at

Waiting = Literal["awaiting", "active", "open", "finished"]


class Player(msgspec.Struct):
    """A player as it sees itself."""

    player_id: str
    name: str
    lang: str | None = None  # the language it chose (pt, gl, es, en), None: the browser's
    created_ms: int = 0
    public: bool = False  # whether its page (GET /players/{player_id}) is shown to anyone


class SignedIn(msgspec.Struct):
    """A player and a token that signs it in (keep the token: it is shown once)."""

    player: Player
    token: str


class SignInCode(msgspec.Struct):
    """A one-time code to sign the same player in on another device, and for how long it holds."""

    code: str
    expires_in: int  # seconds


class MyTable(msgspec.Struct):
    """A table the player sits at, and whether it waits for the player (and what for)."""

    game_id: str
    game: str
    status: str  # open, active, finished
    seat: int
    version: int
    awaiting: str | None = None  # what the game waits for from this seat now ("action", "trade"...), if anything
    since_ms: int = 0  # when the player sat down


class MyTables(msgspec.Struct):
    tables: list[MyTable]
    next_cursor: int | None = None


class PlayerChanges(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    lang: str | None = None
    public: bool | None = None  # show the player's page (its ratings, games, wins) to anyone


def code_text(code: str) -> str:
    """A code as typed: case, spaces and dashes do not count."""
    return "".join(c for c in code.upper() if c.isalnum())


class Players:
    """Making players, signing them in and out, renaming, erasing, and the tables they sit at."""

    def __init__(
        self,
        registry: PlayerRegistry,
        games: Games,
        quotas: Quotas,
        passkeys: PasskeyStore | None = None,
        on_erase: Iterable[Callable[[str], Awaitable[None]]] = (),
    ) -> None:
        self.registry = registry
        self.games = games
        self.quotas = quotas
        self.passkeys = passkeys  # erased with the player
        self.on_erase = list(on_erase)  # what else forgets an erased player (its waiting emails, its ratings)

    async def now_ms(self) -> int:
        """Now, on the clock every replica shares (Redis's)."""
        return await self.games.store.now_ms()

    # -- who is asking ---------------------------------------------------------------------

    async def signed_in(self, token: str | None) -> str:
        """The id of the player ``token`` signs in; 401 otherwise."""
        if token is None:
            raise Unauthorized("missing_token", "Sign in first: send your player token.", {"case": "player"})
        if not is_player_token(token):
            raise Unauthorized("not_a_player_token", "That is a seat's token; a player's token starts with 'player.'.")
        player_id = await self.registry.player_of(token_hash(token))
        if player_id is None:
            raise Unauthorized("unknown_token", "That token is not known here (signed out, or never issued).")
        return player_id

    async def player(self, player_id: str) -> Player:
        fields = await self.registry.get(player_id)
        if fields is None:  # erased while a token was still being read
            raise Unauthorized("unknown_token", "That player is no longer here.", {"case": "player_gone"})
        return Player(
            player_id,
            fields.get("name", ""),
            fields.get("lang") or None,
            int(fields.get("created_ms", 0)),
            fields.get("public") == "1",
        )

    # -- making and signing in -----------------------------------------------------------------

    async def create(self, name: str, lang: str | None, client: str | None) -> SignedIn:
        """A new player, anonymous but for its name, and its first token."""
        cleaned = self._name(name)
        now = await self.games.store.now_ms()
        await self.quotas.take(self.quotas.players, client, now)
        player_id = "p" + secrets.token_hex(8)
        token = new_player_token()
        fields: dict[str, str | int] = {"name": cleaned, "created_ms": now}
        if lang is not None:
            fields["lang"] = self._lang(lang)
        await self.registry.create(player_id, fields, token_hash(token))
        return SignedIn(await self.player(player_id), token)

    async def sign_in_by_subject(self, subject_hash: str, name: str) -> SignedIn:
        """A new token of the player an identity provider's subject signs in; on its first sign-in, a new
        player named as the provider names the person (made without counting against the address's quota:
        the provider vouched for the person)."""
        player_id = await self.registry.subject_player(subject_hash)
        if player_id is not None and await self.registry.get(player_id) is not None:
            return await self.sign_in_as(player_id)
        made = "p" + secrets.token_hex(8)
        # The link first, set only if absent: two first sign-ins at once make one player, not two.
        owner = await self.registry.link_subject(subject_hash, made, replace=player_id is not None)
        if owner != made:
            return await self.sign_in_as(owner)
        token = new_player_token()
        fields: dict[str, str | int] = {"name": seat_name(name) or "Player", "created_ms": await self.now_ms()}
        await self.registry.create(made, fields | {"subject": subject_hash}, token_hash(token))
        return SignedIn(await self.player(made), token)

    async def new_code(self, token: str | None) -> SignInCode:
        """A one-time code for the signed-in player, to type on another device within ten minutes."""
        player_id = await self.signed_in(token)
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if await self.registry.new_code(code, player_id, CODE_TTL_MS):
                return SignInCode(f"{code[:4]}-{code[4:]}", CODE_TTL_MS // 1000)

    async def sign_in_with_code(self, code: str, client: str | None) -> SignedIn:
        """Sign in with a code from another device: a new token for the same player. Every try counts
        against the address's hourly codes, right or wrong."""
        await self.quotas.take(self.quotas.codes, client, await self.games.store.now_ms())
        typed = code_text(code)
        player_id = await self.registry.take_code(typed) if len(typed) == CODE_LENGTH else None
        if player_id is None or await self.registry.get(player_id) is None:
            raise Unauthorized("unknown_code", "That code is not known: it expired, was used, or was mistyped.")
        return await self.sign_in_as(player_id)

    async def sign_in_as(self, player_id: str) -> SignedIn:
        """A new token of ``player_id``, which a sign-in proved (a code, a passkey, the identity provider)."""
        if await self.registry.get(player_id) is None:  # erased meanwhile: no token for nobody
            raise Unauthorized("unknown_token", "That player is no longer here.", {"case": "player_gone"})
        token = new_player_token()
        await self.registry.add_token(player_id, token_hash(token))
        return SignedIn(await self.player(player_id), token)

    async def sign_out(self, token: str | None) -> None:
        player_id = await self.signed_in(token)
        assert token is not None
        await self.registry.drop_token(player_id, token_hash(token))

    async def sign_out_everywhere(self, token: str | None) -> int:
        """Every token of the player stops working, this one too; how many there were."""
        return await self.registry.drop_tokens(await self.signed_in(token))

    # -- changing and erasing -----------------------------------------------------------------

    async def change(self, token: str | None, changes: PlayerChanges) -> Player:
        player_id = await self.signed_in(token)
        fields: dict[str, str | int] = {}
        if changes.name is not None:
            fields["name"] = self._name(changes.name)
        if changes.lang is not None:
            fields["lang"] = self._lang(changes.lang)
        if changes.public is not None:
            fields["public"] = int(changes.public)
        if fields:
            await self.registry.update(player_id, fields)
        return await self.player(player_id)

    async def erase(self, token: str | None) -> None:
        """Delete the player: its name, tokens, passkeys and list of seats. The games it sat at keep its id
        alone, and show its seat as "A former player"."""
        player_id = await self.signed_in(token)
        await self.registry.drop_tokens(player_id)  # first, so that none signs in while the rest goes
        if self.passkeys is not None:
            await self.passkeys.erase(player_id)
        await self.registry.erase(player_id)
        for forget in self.on_erase:
            await forget(player_id)

    # -- my tables -----------------------------------------------------------------------------

    async def tables(self, token: str | None, limit: int, cursor: int | None) -> MyTables:
        """The player's tables: those awaiting it first, then those in play, open, finished (the
        latest first within each), a page of ``limit`` from ``cursor``."""
        player_id = await self.signed_in(token)
        found: list[tuple[int, MyTable]] = []
        for game_id, seat, since in await self.registry.seats(player_id, MY_TABLES_MOST):
            try:
                game, table = await self.games.load(game_id)
            except UnknownGame:  # gone: expired, archived, called off
                await self.registry.left(player_id, game_id, seat)
                continue
            held = table.seats[seat] if seat < table.players else None
            if held is not None and held.player != player_id:  # taken over since: no longer the player's
                continue
            current = status(game, table)
            awaiting = None
            if current == "active" and table.state is not None and seat not in table.resigned:
                awaiting = next((a.reason for a in game.awaited(table.state) if a.seat == seat), None)
            rank = 0 if awaiting else {"active": 1, "open": 2, "finished": 3}[current]
            found.append((rank, MyTable(game_id, game.id, current, seat, table.version, awaiting, since)))
        found.sort(key=lambda ranked: (ranked[0], -ranked[1].since_ms))
        start = cursor or 0
        page = [mine for _, mine in found[start : start + limit]]
        return MyTables(page, start + limit if start + limit < len(found) else None)

    # -- checks ----------------------------------------------------------------------------------

    @staticmethod
    def _name(name: str) -> str:
        cleaned = seat_name(name)
        if not cleaned:
            raise Invalid(
                "malformed", "A player needs a name (1 to 40 characters).", {"field": "name", "case": "player_name"}
            )
        return cleaned

    @staticmethod
    def _lang(lang: str) -> str:
        if lang not in LANGUAGES:
            raise Invalid(
                "malformed",
                f"'lang' is one of {', '.join(LANGUAGES)}.",
                {"field": "lang", "case": "one_of", "allowed": list(LANGUAGES)},
            )
        return lang
