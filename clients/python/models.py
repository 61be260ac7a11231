"""The API's envelopes as msgspec Structs (docs/API.md): what is the same for every game.

What differs from game to game (a command, an event, a view, an outcome) stays a plain ``dict`` with a
``"type"`` field: the JSON Schema of each game's own types is what ``ludoteca schema`` writes. Unknown fields
in answers are ignored, as docs/API.md ("Stability") asks of clients, so a newer server does not break them.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = [
    "Ack",
    "AdminSeat",
    "AdminTable",
    "AdminTables",
    "Awaited",
    "Catalog",
    "CatalogEntry",
    "ChatFact",
    "CheckAnswer",
    "CommandAnswer",
    "CommandMessage",
    "ErrorBody",
    "ErrorMessage",
    "EventPage",
    "GameComponents",
    "GameList",
    "Health",
    "Hello",
    "HidingAsked",
    "Imported",
    "Joined",
    "LegalCommands",
    "LobbyEntry",
    "LogLine",
    "MessageHidden",
    "MessageSaid",
    "MoveStep",
    "MovesMessage",
    "Option",
    "OutboxFigures",
    "Pick",
    "QuotaFigures",
    "QuotaHits",
    "QuotaHitter",
    "ResetMessage",
    "SeatClock",
    "SeatInfo",
    "SeatMuted",
    "ServerMessage",
    "Status",
    "Step",
    "StepMessage",
    "TableClock",
    "TableView",
    "Update",
    "VersionedEvent",
]

Status = Literal["open", "active", "finished"]
Tagged = dict[str, Any]  # a game's own command, event, view or outcome: {"type": ..., ...}


class ErrorBody(msgspec.Struct):
    """Every refusal: ``{"error": code, "message", "details"}``."""

    error: str
    message: str = ""
    details: dict[str, Any] = {}


class CatalogEntry(msgspec.Struct):
    game: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Any] = {}  # each option with its default
    bounds: dict[str, tuple[int, int]] = {}  # each number option's least and greatest value


class Catalog(msgspec.Struct):
    games: list[CatalogEntry]


class GameComponents(msgspec.Struct):
    """One game's printed parts as data (cards, map, tiles), each value with its source."""

    game: str
    title: str
    components: Any = None


class LobbyEntry(msgspec.Struct):
    game_id: str
    game: str
    status: Status
    players: int
    seats_taken: int
    bots: list[int] = []  # the seats bots hold (the server plays them)
    created_ms: int | None = None  # when the table was opened (ms since the Unix epoch), in the lobby's lists
    finished_ms: int | None = None  # when its game ended, in the list of finished games
    rated: bool = False  # its result counts on its players' ratings
    clock: str | None = None  # its turn clock: "live", "one-day", "three-days", "custom", or None (none)
    lang: str | None = None  # the language its people speak, when its creator said


class NewGame(LobbyEntry, kw_only=True):
    """A table just opened, with the token that lets its creator call it off before it starts."""

    creator_token: str


class Rematch(msgspec.Struct):
    """A seat seated again at a finished game's rematch: the new game, the same seat, a new token, and
    the entropy this client drew for the new table (docs/fair-play.md)."""

    game_id: str
    seat: int
    token: str
    entropy: str = ""


class SeatPresence(msgspec.Struct):
    seat: int
    since_ms: int


class Presence(msgspec.Struct, tag="presence", tag_field="type"):
    """Who is connected to a game now (also pushed on the WebSocket as a ``presence`` message)."""

    seats: list[SeatPresence] = []
    spectators: int = 0


class GameList(msgspec.Struct):
    games: list[LobbyEntry]
    next_cursor: int | None = None


class Joined(msgspec.Struct):
    """A seat taken: its number and its token (the server shows it once: keep it); no token for a bot's seat
    (the server plays it). ``entropy``: what this client drew for the table's chance and sent with the
    seat (the client fills it in; docs/fair-play.md): keep it, to see it in the seat's ``SeatTaken``."""

    seat: int
    token: str | None = None
    entropy: str = ""


class RatedPlayer(msgspec.Struct):
    """A player's rating in one game: ``rating`` is mu - 3 sigma; ``provisional`` before its fifth rated game."""

    game: str
    player_id: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool


class Leaderboard(msgspec.Struct):
    game: str
    players: list[RatedPlayer]
    next_cursor: int | None = None


class RatingPoint(msgspec.Struct):
    game: str
    game_id: str
    place: int
    mu: float
    sigma: float
    rating: float


class PlayerPage(msgspec.Struct):
    """A player's public page: its ratings, their history, games played and won."""

    player_id: str
    name: str
    public: bool = False  # until the player made its page public, the page holds its name alone
    ratings: list[RatedPlayer] = []
    history: list[RatingPoint] = []
    games: int = 0
    wins: int = 0


class QuietHours(msgspec.Struct):
    """Hours in which nothing is sent (``"22:00"`` to ``"07:30"`` in an IANA time zone)."""

    start: str
    end: str
    time_zone: str = "UTC"


class NotificationSettings(msgspec.Struct):
    """What a player is told, how, and when not (docs/players.md, "Notifications")."""

    events: list[str]
    channels: list[str]
    quiet_hours: QuietHours | None = None
    away_only: bool = True
    email: str | None = None
    webhook: bool = False
    email_sending: bool = False


class Webhook(msgspec.Struct):
    """A player's webhook: its URL, its body's form (json, discord, slack) and the secret that signs it."""

    url: str
    format: str
    secret: str
    created_ms: int = 0


class WebhookDropped(msgspec.Struct):
    deleted: bool


class Unsubscribed(msgspec.Struct):
    unsubscribed: bool = True


class Invite(msgspec.Struct):
    """An invitation to take over a vacated seat: hand ``invite`` to the newcomer."""

    game_id: str
    seat: int
    invite: str


class SeatInfo(msgspec.Struct):
    seat: int
    name: str
    bot: str | None = None
    player: str | None = None  # the id of the player whose seat it is
    named: bool = True  # False: ``name`` is the default a seat taken without one gets ("Player 2", "Casual bot 3")


class Player(msgspec.Struct):
    """A player: its id, its name, the language it chose."""

    player_id: str
    name: str
    lang: str | None = None
    created_ms: int = 0
    public: bool = False  # its page is shown to anyone


class SignedIn(msgspec.Struct):
    """A player and a token that signs it in (shown once: keep it)."""

    player: Player
    token: str


class SignInCode(msgspec.Struct):
    """A one-time code to type on another device, and how many seconds it holds."""

    code: str
    expires_in: int


class MyTable(msgspec.Struct):
    """A table the player sits at, and what the game awaits from it now (``None``: nothing)."""

    game_id: str
    game: str
    status: str
    seat: int
    version: int
    awaiting: str | None = None
    since_ms: int = 0


class MyTables(msgspec.Struct):
    tables: list[MyTable]
    next_cursor: int | None = None


class SignedOut(msgspec.Struct):
    signed_out: int


class Erased(msgspec.Struct):
    player_id: str
    erased: bool = True


class SignInMethods(msgspec.Struct):
    """How a player may sign in on the server: one-time codes, passkeys, its identity provider."""

    codes: bool = True
    passkeys: bool = True
    oidc: bool = False


class PasskeyOptions(msgspec.Struct):
    """WebAuthn options in their JSON form, for the browser's ``parseCreationOptionsFromJSON`` or
    ``parseRequestOptionsFromJSON``; good once, for ``expires_in`` seconds."""

    options: dict[str, Any]
    expires_in: int


class Passkey(msgspec.Struct):
    passkey_id: str
    name: str
    created_ms: int
    last_used_ms: int | None = None
    synced: bool = False


class PasskeyList(msgspec.Struct):
    passkeys: list[Passkey]


class PasskeyDeleted(msgspec.Struct):
    passkey_id: str
    deleted: bool = True


class Awaited(msgspec.Struct):
    seat: int
    reason: str


class TableClock(msgspec.Struct, kw_only=True):
    """A table's turn clock: ``seconds`` per move or for the whole game, and what happens when it runs out."""

    per: str = "move"
    seconds: int = 60
    on_timeout: str = "bot_move"  # bot_move, time_out, or ask (the other seats choose)
    bank: int = 0  # seconds a seat may draw on past a move's time
    credit: int = 0  # seconds its bank grows after each of its moves


class SeatClock(msgspec.Struct):
    """One seat's turn clock: running since when (``None``: stopped), and the time it had left then."""

    seat: int
    running_since_ms: int | None = None
    left_ms: int = 0
    bank_ms: int = 0


class TableView(msgspec.Struct, kw_only=True):
    """``GET /games/{id}`` and replays: the table as one viewer may see it, at ``version``."""

    game_id: str
    game: str
    status: Status
    version: int
    seat: int | None = None
    players: int = 0
    seats: list[SeatInfo | None] = []
    awaiting: list[Awaited] = []
    view: Tagged | None = None
    outcome: Tagged | None = None
    resigned: list[int] = []  # seats that left the game, in the order they left
    rematch: str | None = None  # the id of the finished game's rematch, once someone opened it
    clock: TableClock | None = None  # the table's turn clock, if it has one
    clocks: list[SeatClock] = []  # each seat's clock, once the game has started
    rules: int = 1  # the rules version the table opened with
    presence: Presence | None = None  # who is connected now
    takeover: str = "greedy"  # the bot that plays on for a seat that leaves ("strong:2"...)
    out_of_time: list[int] = []  # seats whose time ran out, the others to choose: KeepWaiting or LetBotPlayOn
    standing: list[int | None] = []  # under way: each seat's score if it ended now (None: hidden from you)

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def awaits(self, seat: int | None) -> bool:
        """Whether the game waits for ``seat`` now."""
        return seat is not None and any(a.seat == seat for a in self.awaiting)

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]


PickValue = str | int | list[int]  # a card, a seat, a number, a cell ([row, column])


class Pick(msgspec.Struct, frozen=True):
    """One choice toward a command: ``value`` for the command's ``field`` (the first pick is its ``type``)."""

    field: str
    value: PickValue


class Option(msgspec.Struct, frozen=True, omit_defaults=True):
    """A pick that may come next; ``kind`` says what ``value`` names (``move``, ``card``, ``seat``, ``cell``...);
    ``command``, when set, is the command this pick completes with nothing left to choose."""

    field: str
    value: PickValue
    kind: str
    command: Tagged | None = None

    @property
    def pick(self) -> Pick:
        return Pick(self.field, self.value)


class Step(msgspec.Struct, frozen=True, omit_defaults=True):
    """Where a partial move stands: what may be picked next, and the command the picks already make."""

    options: list[Option] = []
    command: Tagged | None = None

    @property
    def empty(self) -> bool:
        """Nothing to pick and nothing to send: no move from here."""
        return not self.options and self.command is None


class LegalCommands(msgspec.Struct):
    version: int
    step: Step  # the first step of every move the seat may make now
    commands: list[Tagged]  # the complete commands of the moves that have at most 200 of them
    complete: bool = True  # whether ``commands`` is every command the seat may send
    undo: list[int] = []  # versions the seat may go back to with {"type": "Undo", "version": V}

    def commands_of(self, move: str) -> list[Tagged] | None:
        """The listed commands of one move (its ``type``); ``None`` when it has too many to list."""
        if not any(o.field == "type" and o.value == move for o in self.step.options):
            return []
        listed = [c for c in self.commands if c.get("type") == move]
        return listed or None  # every move offered has at least one command: none listed means too many


class MoveStep(msgspec.Struct):
    """The next step of a move after ``picks``, computed at ``version``."""

    version: int
    picks: list[Pick]
    step: Step


class VersionedEvent(msgspec.Struct):
    version: int
    event: Tagged


# --- the table's chat: facts of the game's stream, the same for every game -------------------------


class MessageSaid(msgspec.Struct, tag="MessageSaid", tag_field="type", omit_defaults=True):
    """``text`` said by ``seat`` (``None``: a spectator, the player ``player``) to the table, or with ``to`` on
    a private line to that seat alone. ``removed``: ``hidden`` (hidden since, its text emptied) or ``private``
    (a private line this reader may know of but not read)."""

    text: str
    seat: int | None = None
    player: str | None = None
    to: int | None = None
    removed: Literal["hidden", "private"] | None = None

    @property
    def private(self) -> bool:
        return self.to is not None

    @property
    def hidden(self) -> bool:
        return self.removed == "hidden"


class HidingAsked(msgspec.Struct, tag="HidingAsked", tag_field="type"):
    """``seat`` asked to hide the message said at ``version`` (seen by that seat alone)."""

    seat: int
    version: int


class MessageHidden(msgspec.Struct, tag="MessageHidden", tag_field="type"):
    """The message said at ``version`` is hidden for everyone, by a majority of the table's people
    (``players``) or by an operator (``operator``)."""

    version: int
    by: Literal["players", "operator"] = "players"


class SeatMuted(msgspec.Struct, tag="SeatMuted", tag_field="type"):
    """``seat`` no longer reads ``other``'s messages (``muted`` false: does again); seen by ``seat`` alone."""

    seat: int
    other: int
    muted: bool = True


ChatFact = MessageSaid | HidingAsked | MessageHidden | SeatMuted


class EventPage(msgspec.Struct):
    version: int
    events: list[VersionedEvent]


class CommandAnswer(msgspec.Struct):
    version: int
    events: list[VersionedEvent]


class CheckAnswer(msgspec.Struct):
    """Whether the command checked would land if it were sent now, at ``version``; if not, the rule's
    refusal sending it would get."""

    version: int
    lands: bool
    refusal: ErrorBody | None = None


class AdminSeat(msgspec.Struct):
    """A seat as the operator sees it (``GET /admin/games``)."""

    seat: int
    taken: bool
    name: str = ""
    bot: str | None = None
    player: str | None = None
    left: bool = False  # its person left the game (a bot plays on, or the game ended)
    connected: bool = False  # a socket of the seat is open on some replica
    named: bool = True  # False: ``name`` is the default a seat taken without one gets (as a table's seat)


class AdminTable(msgspec.Struct):
    """A table as the operator sees it: seats, whose turn, clocks; ``outcome`` once it is over."""

    game_id: str
    game: str
    status: Status
    version: int
    players: int
    seats: list[AdminSeat]
    awaiting: list[int]
    clock: TableClock | None = None
    clocks: list[SeatClock] = []
    created_ms: int | None = None
    finished_ms: int | None = None
    outcome: Any = None


class AdminTables(msgspec.Struct):
    games: list[AdminTable]
    now_ms: int  # the shared clock, to count a running clock down
    next_cursor: int | None = None


class OutboxFigures(msgspec.Struct):
    """The notifications' outbox in counts (``GET /admin/outbox``)."""

    waiting: int
    due: int
    tried: int
    this_replica: dict[str, int] = {}


class QuotaHitter(msgspec.Struct):
    client: str  # a client address (a player's id for the ``passkeys`` quota)
    refused: int


class QuotaHits(msgspec.Struct):
    quota: str  # games, seats, players, codes, destinations, sign_ins, passkeys
    limit: int  # an hour, for one client (0: no limit)
    refused: int  # this clock hour, every replica
    refused_last_hour: int
    top: list[QuotaHitter] = []  # the clients refused most this hour, most first


class QuotaFigures(msgspec.Struct):
    """Requests refused by a quota an hour (``GET /admin/quotas``)."""

    hour_ms: int  # when this clock hour began
    quotas: list[QuotaHits]


class Imported(msgspec.Struct):
    game_id: str
    tokens: list[str | None] | None = None  # an import to play on (the admin's): a token a person's seat


class QuickPlayed(msgspec.Struct):
    """The seat quick play took: at a table that was waiting (``opened`` false) or at one it opened (with
    that table's ``creator_token``); ``token`` is None for a player (it acts with its own). ``entropy``:
    what this client drew and sent (docs/fair-play.md)."""

    game_id: str
    seat: int
    token: str | None
    opened: bool
    creator_token: str | None = None
    entropy: str = ""


class Health(msgspec.Struct):
    status: str


class Sent(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The command whose step begins at an export's line (docs/API.md, "Exports")."""

    sender: str
    id: str
    seat: int
    last: int
    command: Tagged | None = None
    at_ms: int = 0


class LogLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One line of an export: a fact as the export's viewpoint saw it, with the schema version it was
    stored under, and on the first fact of a command's step the command (``sent``)."""

    version: int
    schema: int = 1
    event: Tagged
    sent: Sent | None = None


class ExportHeader(msgspec.Struct, kw_only=True):
    """An export's first line (docs/API.md, "Exports"): the format, the viewpoint, the game and what it
    committed to."""

    format: str
    format_version: int
    viewpoint: str
    seat: int | None = None
    game_id: str
    game: str
    rules: int
    schema: int
    players: int
    options: dict[str, Any] = {}
    seats: list[SeatInfo | None] = []
    status: str
    version: int
    outcome: Tagged | None = None
    commitments: dict[str, Any] = {}


# --- the WebSocket's messages (docs/API.md, "WebSocket"; docs/asyncapi.yaml) -------------------------


class Hello(msgspec.Struct, tag="hello", tag_field="type", omit_defaults=True):
    token: str | None = None
    after: int = 0
    check: str | None = None  # the ``check`` of the update at ``after``: other events there get a reset
    lang: str | None = None  # the language of the socket's error messages (pt, gl, es, en)


Messages = dict[str, dict[str, str]]  # part ("refusals", "terms", "log") -> key -> message


class Words(msgspec.Struct):
    """Every message catalog of one language (GET /api/v1/words/{lang}): the table's and the server's, and
    each game's by id; :class:`clients.python.words.Phrasebook` renders codes and events with them."""

    lang: str
    table: Messages
    games: dict[str, Messages]


class MovesMessage(msgspec.Struct, tag="moves", tag_field="type"):
    """Ask for the next step of a move after ``picks`` (answered with a :class:`StepMessage`)."""

    picks: list[Pick]
    request_id: str


class CommandMessage(msgspec.Struct, tag="command", tag_field="type", omit_defaults=True):
    command: Tagged
    command_id: str
    expected_version: int | None = None


class Update(msgspec.Struct, tag="update", tag_field="type"):
    """Versions up to ``version``: their events (redacted for the viewer) and, on the last chunk, the view."""

    version: int
    events: list[VersionedEvent] = []
    view: Tagged | None = None
    check: str = ""  # the check value of ``version``, to echo when resuming after it
    status: str | None = None  # with the view: the table's status ("open", "active", "finished")
    outcome: Tagged | None = None  # with the view, once finished
    step: Step | None = None  # with the view, to a seat the game awaits: the first step of its move


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    command_id: str
    version: int


class ErrorMessage(msgspec.Struct, tag="error", tag_field="type"):
    error: str
    message: str = ""
    details: dict[str, Any] = {}
    command_id: str | None = None
    request_id: str | None = None  # the refused moves request's id


class ResetMessage(msgspec.Struct, tag="reset", tag_field="type"):
    version: int


class StepMessage(msgspec.Struct, tag="step", tag_field="type"):
    """The answer to a ``moves`` request over the socket: the next step after ``picks``."""

    version: int
    picks: list[Pick]
    step: Step
    request_id: str | None = None


ServerMessage = Update | Ack | ErrorMessage | ResetMessage | Presence | StepMessage
