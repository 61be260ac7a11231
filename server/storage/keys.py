"""Every Redis key and channel the server uses, each with the one module that owns it.

This is the one place a key is spelt. Its owner alone reads and writes it, and only the
owners hold the Redis client; docs/operations.md lists the same keys.
tests/server/storage/test_keys.py holds all three to this list: no ``lt:`` text elsewhere in
server/, no key used outside its owner, no Redis client outside the owners, and the
operator's list equal to this one.

Every key of one game shares the hash tag ``{<game_id>}`` (one Redis Cluster slot, so
the append script touches one node); each key that spans games has a tag of its own.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple


class Key(NamedTuple):
    """A key (or a channel) as ``pattern``, with ``<name>`` for each part filled in when used."""

    pattern: str  # lt:{<game_id>}:events
    kind: str  # stream, hash, set, sorted set, string, channel
    owner: str  # the module that reads and writes it

    def at(self, **parts: str | int) -> str:
        """The key for these parts: ``EVENTS.at(game_id="ab12")`` is ``lt:{ab12}:events``."""
        key = self.pattern
        for name, value in parts.items():
            key = key.replace(f"<{name}>", str(value))
        return key

    def parts(self, key: str) -> dict[str, str] | None:
        """The parts of ``key`` if it is one of this pattern's keys, else ``None``."""
        found = re.fullmatch(_regex(self.pattern), key)
        return found.groupdict() if found else None


def _regex(pattern: str) -> str:
    pieces = re.split(r"<(\w+)>", pattern)  # text, name, text, name, ..., text
    return "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(pieces))


# -- one game (server/storage/store.py: the event store) ------------------------------------------
EVENTS: Final = Key("lt:{<game_id>}:events", "stream", "server.storage.store")
COMMANDS: Final = Key("lt:{<game_id>}:commands", "hash", "server.storage.store")
META: Final = Key("lt:{<game_id>}:meta", "hash", "server.storage.store")
TOKENS: Final = Key("lt:{<game_id>}:tokens", "hash", "server.storage.store")
SNAPSHOTS: Final = Key("lt:{<game_id>}:snapshots", "sorted set", "server.storage.store")
NOTIFY: Final = Key("lt:notify", "channel", "server.storage.notify")

# -- the lobby index (server/storage/index.py) ----------------------------------------------------
BY_STATUS: Final = Key("lt:{games}:<status>", "sorted set", "server.storage.index")
SEQUENCE: Final = Key("lt:{games}:seq", "string", "server.storage.index")
RETENTION: Final = Key("lt:{games}:retention", "sorted set", "server.storage.index")

# -- windows that close by themselves (server/storage/schedule.py) --------------------------------
DEADLINES: Final = Key("lt:{deadlines}:due", "sorted set", "server.storage.schedule")

# -- the bots' work queue (server/storage/botqueue.py) ---------------------------------------------
BOTS_DUE: Final = Key("lt:{bots}:due", "sorted set", "server.storage.botqueue")

# -- leases and locks (server/storage/leases.py) ---------------------------------------------------
LOCK: Final = Key("lt:{housekeeping}:lock:<name>", "string", "server.storage.leases")
BOT_LEASE: Final = Key("lt:{bots}:lease:<game_id>", "string", "server.storage.leases")

# -- what one client address took (server/storage/quotas.py) ---------------------------------------
QUOTA: Final = Key("lt:{quota}:<what>:<address>:<hour>", "string", "server.storage.quotas")
QUOTA_HITS: Final = Key("lt:{quota-hits}:<hour>", "hash", "server.storage.quotas")
QUOTA_HITTERS: Final = Key("lt:{quota-hits}:<what>:<hour>", "sorted set", "server.storage.quotas")

# -- who is at the table (server/storage/presence.py) -------------------------------------------------
PRESENT: Final = Key("lt:{<game_id>}:present", "set", "server.storage.presence")
CONNECTION: Final = Key("lt:{<game_id>}:presence:<conn>", "string", "server.storage.presence")
AWAY: Final = Key("lt:{presence}:away", "sorted set", "server.storage.presence")
PRESENCE: Final = Key("lt:presence", "channel", "server.storage.presence")

# -- the replicas' shared check secret (server/storage/checks.py) --------------------------------------
CHECK_SECRET: Final = Key("lt:{secret}:check", "string", "server.storage.checks")

# -- players (server/storage/players.py) ---------------------------------------------------------------
PLAYER: Final = Key("lt:{player:<player_id>}", "hash", "server.storage.players")
PLAYER_TOKENS: Final = Key("lt:{player:<player_id>}:tokens", "set", "server.storage.players")
PLAYER_SEATS: Final = Key("lt:{player:<player_id>}:seats", "sorted set", "server.storage.players")
PLAYER_TOKEN: Final = Key("lt:{player-token:<token_hash>}", "string", "server.storage.players")
PLAYER_CODE: Final = Key("lt:{player-code:<code>}", "string", "server.storage.players")
PLAYER_SUBJECT: Final = Key("lt:{player-subject:<subject_hash>}", "string", "server.storage.players")

# -- players' passkeys (server/storage/passkeys.py) ---------------------------------------------------
PASSKEYS: Final = Key("lt:{player:<player_id>}:passkeys", "hash", "server.storage.passkeys")
PASSKEY: Final = Key("lt:{passkey:<credential_id>}", "string", "server.storage.passkeys")

# -- single-use challenges of the sign-in ceremonies (server/storage/challenges.py) ---------------------
CHALLENGE: Final = Key("lt:{challenge:<kind>:<challenge_id>}", "string", "server.storage.challenges")

# -- ratings (server/storage/ratings.py) ------------------------------------------------------------------
RATINGS: Final = Key("lt:{ratings:<game>}", "hash", "server.storage.ratings")
RATING_BOARD: Final = Key("lt:{ratings:<game>}:board", "sorted set", "server.storage.ratings")
RATED: Final = Key("lt:{ratings:<game>}:rated", "sorted set", "server.storage.ratings")
RATING_CURSOR: Final = Key("lt:{ratings}:cursor", "string", "server.storage.ratings")
RATING_HISTORY: Final = Key("lt:{player:<player_id>}:ratings", "list", "server.storage.ratings")

# -- the notifications' outbox (server/storage/outbox.py) ----------------------------------------------
OUTBOX_DUE: Final = Key("lt:{outbox}:due", "sorted set", "server.storage.outbox")
OUTBOX_ITEMS: Final = Key("lt:{outbox}:items", "hash", "server.storage.outbox")
OUTBOX_TRIES: Final = Key("lt:{outbox}:tries", "hash", "server.storage.outbox")
OUTBOX_MAIL: Final = Key("lt:{outbox}:mail:<player_id>", "list", "server.storage.outbox")

KEYS: Final[tuple[Key, ...]] = tuple(v for v in list(globals().values()) if isinstance(v, Key))
