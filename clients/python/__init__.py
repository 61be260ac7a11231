"""Ludoteca's Python SDK: typed sync and async clients of the public HTTP and WebSocket API (docs/sdk.md).

It speaks only HTTP and WebSocket, like any third-party frontend, and imports nothing of the server.

    from clients.python import Client

    with Client("http://127.0.0.1:8000") as lobby:
        entry = lobby.create("vilar-de-mouros", 2)
        ana = lobby.join(entry.game_id, name="Ana")
    with Client("http://127.0.0.1:8000", ana.token) as me:
        for update in me.watch(entry.game_id):
            move = me.move(entry.game_id, update)  # the seat's move, built pick by pick
            ...
"""

from clients.python.aio import DEFAULT_URL, AsyncClient, AsyncStream
from clients.python.calls import ROUTES, encode_log, parse_log
from clients.python.errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    Reset,
    RuleViolation,
    ServerError,
    TooLarge,
    TooMany,
    Unauthorized,
    Unavailable,
    Unreachable,
)
from clients.python.models import (
    Ack,
    Awaited,
    Catalog,
    CatalogEntry,
    CommandAnswer,
    ErrorBody,
    ErrorMessage,
    EventPage,
    GameComponents,
    GameList,
    Health,
    Imported,
    Joined,
    LegalCommands,
    LobbyEntry,
    LogLine,
    MoveStep,
    NewGame,
    Option,
    Pick,
    Presence,
    Rematch,
    ResetMessage,
    SeatInfo,
    Status,
    Step,
    StepMessage,
    TableView,
    Update,
    VersionedEvent,
)
from clients.python.moves import AsyncMove, Move
from clients.python.progress import Progress
from clients.python.sync import Client, Stream
from clients.python.words import Phrasebook

__all__ = [
    "DEFAULT_URL",
    "ROUTES",
    "Ack",
    "ApiError",
    "AsyncClient",
    "AsyncMove",
    "AsyncStream",
    "Awaited",
    "BadRequest",
    "Catalog",
    "CatalogEntry",
    "Client",
    "CommandAnswer",
    "Conflict",
    "ErrorBody",
    "ErrorMessage",
    "EventPage",
    "Forbidden",
    "GameComponents",
    "GameList",
    "Health",
    "Imported",
    "Joined",
    "LegalCommands",
    "LobbyEntry",
    "LogLine",
    "Move",
    "MoveStep",
    "NewGame",
    "NotFound",
    "Option",
    "Phrasebook",
    "Pick",
    "Presence",
    "Progress",
    "Rematch",
    "Reset",
    "ResetMessage",
    "RuleViolation",
    "SeatInfo",
    "ServerError",
    "Status",
    "Step",
    "StepMessage",
    "Stream",
    "TableView",
    "TooLarge",
    "TooMany",
    "Unauthorized",
    "Unavailable",
    "Unreachable",
    "Update",
    "VersionedEvent",
    "encode_log",
    "parse_log",
]
