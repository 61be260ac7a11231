"""Notifications: what a player is told when a table awaits it, by which channel, and when.

What is told comes from appends (projections/notices.py: the awaited seats before and after
each change, the table's status and rematch, built from the seat's own view). The ``Announcer``
hears every append this replica makes, before its command is answered (a ``Games`` keeper),
and posts each notice a player wants into the outbox (server/storage/outbox.py): a webhook item
per notice, and the notice into the player's next email. The outbox is durable: what an
acknowledged command made is delivered at least once, by whichever replica claims it, the
notice's id the same every time so that a receiver drops one it has seen.

The delivery worker (server/workers/notices.py) claims items and asks ``Notices.prepare`` what
to send: this checks that the player still exists and wants that channel, waits out its quiet
hours, drops what no longer holds (a move already made, a seat at the table now), counts the
quotas, and signs the body. The worker sends it (with bounded time-outs) and says how it went;
a failure is tried again with exponential back-off, up to ``attempts`` times.

A player's settings live in its own hash (server/storage/players.py), so that erasing the
player erases them: ``email`` (the address), ``webhook`` (URL, form, signing secret) and
``notify`` (which events, which channels, quiet hours, away only). The address is never logged.
"""

from __future__ import annotations

import datetime
import email.utils
import hashlib
import hmac
import logging
import random
import re
import secrets
import time
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Final, Literal

import msgspec

from domain.table import status
from projections.notices import EVENTS, Event, Notice, still_awaited, told
from server.runtime.metrics import Metrics
from server.service.attendance import Attendance
from server.service.bodies import FORMS, SIGNATURE, Form, Voice, email_body, webhook_body
from server.service.destinations import Allowed, Target, addresses, read_url
from server.service.errors import Invalid, NotFound, Refused
from server.service.games import Change, Games
from server.service.players import Players
from server.service.quotas import Quotas
from server.service.words import language
from server.storage.checks import Checks
from server.storage.outbox import Claimed, Letter, Outbox, hook_item, mail_item, mail_player
from server.storage.players import PlayerRegistry
from server.storage.quotas import HourlyCounts

log = logging.getLogger("ludoteca.notices")

Channel = Literal["webhook", "email"]
CHANNELS: Final[tuple[Channel, ...]] = ("webhook", "email")
FIELDS: Final = ("webhook", "email", "notify")  # a player's notification fields, in its hash
DIGEST_MOST: Final = 50  # notices one email carries at most (the rest go in the next)
EMAIL_MOST: Final = 254  # characters of an address (RFC 5321's path limit)
EMAIL: Final = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+"
)
CLOCK_TIME: Final = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
RETRY_MOST_MS: Final = 3_600_000  # the longest back-off between two attempts


class QuietHours(msgspec.Struct, forbid_unknown_fields=True):
    """Hours in which nothing is sent: what comes meanwhile waits for their end."""

    start: str  # "22:00", in time_zone
    end: str  # "07:30"
    time_zone: str = "UTC"  # an IANA time zone, "Europe/Lisbon"


class Preferences(msgspec.Struct, forbid_unknown_fields=True):
    """What a player wants to be told, and how."""

    events: list[Event] = msgspec.field(default_factory=lambda: list(EVENTS))
    channels: list[Channel] = msgspec.field(default_factory=lambda: list(CHANNELS))
    quiet_hours: QuietHours | None = None
    away_only: bool = True  # nothing about a table while the seat has a socket open at it


class NotificationSettings(msgspec.Struct):
    """A player's notification settings, as it reads them."""

    events: list[Event]
    channels: list[Channel]
    quiet_hours: QuietHours | None
    away_only: bool
    email: str | None  # the address emails go to (None: no email)
    webhook: bool  # whether a webhook is set (GET /players/me/webhook shows it)
    email_sending: bool  # whether this server sends email at all (its operator named an SMTP server)


class NotificationChanges(msgspec.Struct, forbid_unknown_fields=True):
    """The settings to change; those left out stay. ``null`` removes the email address or the quiet hours."""

    events: list[Event] | msgspec.UnsetType = msgspec.UNSET
    channels: list[Channel] | msgspec.UnsetType = msgspec.UNSET
    quiet_hours: QuietHours | msgspec.UnsetType | None = msgspec.UNSET
    away_only: bool | msgspec.UnsetType = msgspec.UNSET
    email: str | msgspec.UnsetType | None = msgspec.UNSET


class Webhook(msgspec.Struct):
    """A player's webhook: where notices are posted, in which form, and the secret that signs them."""

    url: str
    format: Form
    secret: str  # HMAC-SHA256 key of the Ludoteca-Signature header (docs/players.md "Notifications")
    created_ms: int


class WebhookChange(msgspec.Struct, forbid_unknown_fields=True):
    url: str
    format: Form = "json"  # json, discord or slack
    new_secret: bool = False  # a new signing secret (else a webhook set before keeps its own)


class Unsubscribed(msgspec.Struct):
    unsubscribed: bool = True


@dataclass(frozen=True)
class NoticeConfig:
    """The operator's settings for notifications (server/settings.py)."""

    public_url: str
    email_from: str | None  # None: this server sends no email
    email_every_ms: int
    allowed: Allowed
    webhook_timeout: float
    lease_ms: int
    retry_ms: int
    attempts: int
    webhooks_per_hour: int
    webhooks_per_host_hour: int
    emails_per_hour: int
    emails_per_address_hour: int


@dataclass(frozen=True)
class HookDelivery:
    """A signed webhook delivery, ready to post."""

    claimed: Claimed
    player_id: str
    target: Target
    body: bytes
    headers: dict[str, str]


@dataclass(frozen=True)
class MailDelivery:
    """An email, ready to send: the first ``count`` notices of the player's list."""

    claimed: Claimed
    player_id: str
    count: int
    message: EmailMessage


Delivery = HookDelivery | MailDelivery

DECODE_NOTICE = msgspec.json.Decoder(Notice)
DECODE_PREFERENCES = msgspec.json.Decoder(Preferences)
DECODE_WEBHOOK = msgspec.json.Decoder(Webhook)
ENCODE = msgspec.json.encode


def preferences_of(fields: dict[str, str]) -> Preferences:
    raw = fields.get("notify")
    return DECODE_PREFERENCES.decode(raw) if raw else Preferences()


def webhook_of(fields: dict[str, str]) -> Webhook | None:
    raw = fields.get("webhook")
    return DECODE_WEBHOOK.decode(raw) if raw else None


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Ludoteca-Signature`` header's value: ``t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<body>">``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def address_key(address: str) -> str:
    """What an email address is counted under: a hash of it (quota keys name no address)."""
    return hashlib.sha256(address.lower().encode()).hexdigest()[:24]


def backoff_ms(retry_ms: int, attempt: int) -> int:
    """Exponential back-off with jitter: ``retry_ms`` doubled after each attempt, at most an hour."""
    ceiling = min(RETRY_MOST_MS, retry_ms * 2 ** min(attempt - 1, 20))
    return int(ceiling * random.uniform(0.5, 1.0))


def quiet_until(quiet: QuietHours | None, now_ms: int) -> int | None:
    """When the quiet hours in force at ``now_ms`` end (ms), or ``None`` outside them."""
    if quiet is None:
        return None
    zone = zoneinfo.ZoneInfo(quiet.time_zone)
    local = datetime.datetime.fromtimestamp(now_ms / 1000, zone)
    start, end = clock_minutes(quiet.start), clock_minutes(quiet.end)
    minute = local.hour * 60 + local.minute
    inside = start <= minute < end if start <= end else minute >= start or minute < end
    if not inside:
        return None
    ends = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if ends <= local:
        ends += datetime.timedelta(days=1)
    return int(ends.timestamp() * 1000)


def clock_minutes(text: str) -> int:
    found = CLOCK_TIME.fullmatch(text)
    assert found is not None
    return int(found.group(1)) * 60 + int(found.group(2))


class Announcer:
    """Hears every append this replica makes (a ``Games`` keeper) and posts what it tells players who
    want it into the outbox, before the command is answered."""

    def __init__(self, registry: PlayerRegistry, outbox: Outbox, email_on: bool, metrics: Metrics) -> None:
        self.registry = registry
        self.outbox = outbox
        self.email_on = email_on
        self.metrics = metrics

    async def keep(self, change: Change) -> None:
        notices = told(change.game, change.game_id, change.before, change.after, change.by)
        if notices:
            await self.post(notices)

    async def post(self, notices: Sequence[Notice]) -> None:
        found = await self.registry.fields((n.player for n in notices), FIELDS)
        letters = []
        for notice in notices:
            fields = found.get(notice.player)
            if fields is None:  # erased
                continue
            wants = preferences_of(fields)
            if notice.event not in wants.events:
                continue
            body = ENCODE(notice)
            if "webhook" in wants.channels and fields.get("webhook"):
                letters.append(Letter(hook_item(notice.id), body))
            if self.email_on and "email" in wants.channels and fields.get("email"):
                letters.append(Letter(mail_item(notice.player), body, notice.player))
        await self.outbox.post(letters)
        for letter in letters:
            self.metrics.notices.labels("webhook" if letter.mail_to is None else "email", "posted").inc()


class Notices:
    """A player's notification settings, the unsubscribe links, and what the delivery worker sends."""

    def __init__(
        self,
        registry: PlayerRegistry,
        players: Players,
        games: Games,
        outbox: Outbox,
        counts: HourlyCounts,
        quotas: Quotas,
        attendance: Attendance,
        checks: Checks,
        metrics: Metrics,
        config: NoticeConfig,
    ) -> None:
        self.registry = registry
        self.players = players
        self.games = games
        self.outbox = outbox
        self.counts = counts
        self.quotas = quotas
        self.attendance = attendance
        self.checks = checks
        self.metrics = metrics
        self.config = config

    # -- a player's settings -----------------------------------------------------------------

    async def _fields(self, player_id: str) -> dict[str, str]:
        return (await self.registry.fields([player_id], FIELDS)).get(player_id, {})

    async def settings(self, token: str | None) -> NotificationSettings:
        return self._settings(await self._fields(await self.players.signed_in(token)))

    def _settings(self, fields: dict[str, str]) -> NotificationSettings:
        wants = preferences_of(fields)
        return NotificationSettings(
            wants.events, wants.channels, wants.quiet_hours, wants.away_only, fields.get("email"),
            bool(fields.get("webhook")), self.config.email_from is not None,
        )  # fmt: skip

    async def change(self, token: str | None, changes: NotificationChanges, client: str | None) -> NotificationSettings:
        player_id = await self.players.signed_in(token)
        fields = await self._fields(player_id)
        wants = preferences_of(fields)
        if not isinstance(changes.events, msgspec.UnsetType):
            wants.events = list(dict.fromkeys(changes.events))
        if not isinstance(changes.channels, msgspec.UnsetType):
            wants.channels = list(dict.fromkeys(changes.channels))
        if not isinstance(changes.quiet_hours, msgspec.UnsetType):
            wants.quiet_hours = self._quiet(changes.quiet_hours)
        if not isinstance(changes.away_only, msgspec.UnsetType):
            wants.away_only = changes.away_only
        written: dict[str, str | int] = {"notify": ENCODE(wants).decode()}
        if isinstance(changes.email, str) and changes.email.strip():
            address = self._email(changes.email)
            if address != fields.get("email"):
                await self.quotas.take(self.quotas.destinations, client, await self.games.store.now_ms())
            written["email"] = address
        elif not isinstance(changes.email, msgspec.UnsetType):  # null or "": no more email
            await self.registry.clear(player_id, "email")
        if not await self.registry.update(player_id, written):
            raise NotFound("unknown_player", "That player is no longer here.")
        return await self.settings(token)

    def _email(self, address: str) -> str:
        if self.config.email_from is None:
            raise Refused("email_off", "This server sends no email (its operator named no SMTP server).")
        cleaned = address.strip()
        if len(cleaned) > EMAIL_MOST or not EMAIL.fullmatch(cleaned):
            raise Refused("bad_email", "That is not an email address this server can send to.", {"field": "email"})
        local, _, domain = cleaned.rpartition("@")
        return f"{local}@{domain.lower()}"

    @staticmethod
    def _quiet(quiet: QuietHours | None) -> QuietHours | None:
        if quiet is None:
            return None
        for name, value in (("start", quiet.start), ("end", quiet.end)):
            if not CLOCK_TIME.fullmatch(value):
                where = {"field": f"quiet_hours.{name}", "case": "time_of_day", "name": name}
                raise Refused("bad_quiet_hours", f"'{name}' is a time of day, 'HH:MM'.", where)
        if quiet.start == quiet.end:
            raise Refused(
                "bad_quiet_hours",
                "Quiet hours start and end at different times.",
                {"field": "quiet_hours", "case": "same_times"},
            )
        try:
            zoneinfo.ZoneInfo(quiet.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise Refused(
                "bad_quiet_hours", "'time_zone' is an IANA time zone, such as 'Europe/Lisbon'.",
                {"field": "quiet_hours.time_zone", "case": "time_zone"},
            ) from None  # fmt: skip
        return quiet

    # -- webhooks ------------------------------------------------------------------------------

    async def webhook(self, token: str | None) -> Webhook:
        found = webhook_of(await self._fields(await self.players.signed_in(token)))
        if found is None:
            raise NotFound("no_webhook", "No webhook is set; PUT one.")
        return found

    async def set_webhook(self, token: str | None, change: WebhookChange, client: str | None) -> Webhook:
        """Set the player's webhook after checking its URL (and every address its host resolves to)."""
        player_id = await self.players.signed_in(token)
        if change.format not in FORMS:  # the type says so; a guard for the stored value
            raise Invalid(
                "malformed",
                f"'format' is one of {', '.join(FORMS)}.",
                {"field": "format", "case": "one_of", "allowed": list(FORMS)},
            )
        target = read_url(change.url.strip(), self.config.allowed)
        await addresses(target, self.config.allowed, self.config.webhook_timeout)
        before = webhook_of(await self._fields(player_id))
        now = await self.games.store.now_ms()
        if before is None or before.url != target.url:
            await self.quotas.take(self.quotas.destinations, client, now)
        keep = before is not None and not change.new_secret
        secret = before.secret if keep and before is not None else "whsec_" + secrets.token_urlsafe(24)
        made = Webhook(target.url, change.format, secret, before.created_ms if before is not None else now)
        if not await self.registry.update(player_id, {"webhook": ENCODE(made).decode()}):
            raise NotFound("unknown_player", "That player is no longer here.")
        return made

    async def drop_webhook(self, token: str | None) -> bool:
        player_id = await self.players.signed_in(token)
        had = webhook_of(await self._fields(player_id)) is not None
        await self.registry.clear(player_id, "webhook")
        return had

    # -- unsubscribing (RFC 8058) --------------------------------------------------------------

    async def unsubscribe_url(self, player_id: str) -> str:
        mac = await self.checks.keyed("unsubscribe", player_id)
        return f"{self.config.public_url}/api/v1/unsubscribe?token={player_id}.{mac}"

    async def unsubscribe(self, token: str | None) -> Unsubscribed:
        """Honour a one-click unsubscribe: no more email for the player the signed token names."""
        player_id, _, mac = (token or "").partition(".")
        bad = Invalid("bad_unsubscribe_token", "That unsubscribe link is not one this server made.", {"field": "token"})
        if not player_id or not mac:
            raise bad
        if not hmac.compare_digest(mac, await self.checks.keyed("unsubscribe", player_id)) and not hmac.compare_digest(
            mac, await self.checks.keyed("unsubscribe", player_id, again=True)
        ):
            raise bad
        fields = await self._fields(player_id)
        if fields:
            wants = preferences_of(fields)
            wants.channels = [c for c in wants.channels if c != "email"]
            await self.registry.update(player_id, {"notify": ENCODE(wants).decode()})
            await self.outbox.forget(player_id)
        return Unsubscribed()

    async def forget(self, player_id: str) -> None:
        """The player erased itself: nothing waits to be emailed to it."""
        await self.outbox.forget(player_id)

    # -- deliveries (server/workers/notices.py) ----------------------------------------------

    async def waiting(self) -> int:
        """Items in the outbox, every replica's together (the operator's metric)."""
        return await self.outbox.waiting()

    async def claim(self, most: int) -> list[Claimed]:
        return await self.outbox.claim(self.config.lease_ms, most)

    async def prepare(self, claimed: Claimed) -> Delivery | None:
        """What to send for a claimed item; ``None`` when there is nothing to send now (the item was
        settled here: dropped, or put off to the end of quiet hours)."""
        player_id = mail_player(claimed.item)
        if player_id is not None:
            return await self._prepare_mail(claimed, player_id)
        return await self._prepare_hook(claimed)

    async def _prepare_hook(self, claimed: Claimed) -> HookDelivery | None:
        notice = DECODE_NOTICE.decode(claimed.notice)
        fields = (await self.registry.fields([notice.player], (*FIELDS, "lang"))).get(notice.player, {})
        wants = preferences_of(fields)
        hook = webhook_of(fields)
        if hook is None or "webhook" not in wants.channels:  # taken down, erased, or the channel turned off
            await self._drop_hook(claimed, "dropped")
            return None
        now = await self.games.store.now_ms()
        until = quiet_until(wants.quiet_hours, now)
        if until is not None:
            await self.outbox.later(claimed.item, claimed.attempt, until - now, counted=False)
            self.metrics.notices.labels("webhook", "deferred").inc()
            return None
        if not (await self._still_holding([notice], wants.away_only))[0]:
            await self._drop_hook(claimed, "dropped")
            return None
        target = read_url(hook.url, self.config.allowed)
        if claimed.attempt == 1 and not await self._within_quotas(
            ("webhooks", notice.player, self.config.webhooks_per_hour),
            ("webhook-hosts", target.host.lower(), self.config.webhooks_per_host_hour),
            now=now,
        ):
            await self._drop_hook(claimed, "over_quota")
            return None
        voice = Voice(language(preference=fields.get("lang")), self.games.games)  # the player's, else English
        body = webhook_body(notice, hook.format, self.config.public_url, voice)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "Ludoteca-Webhook/1",
            "Ludoteca-Delivery": notice.id,
            "Ludoteca-Event": notice.event,
            SIGNATURE: sign(hook.secret, int(time.time()), body),
        }
        return HookDelivery(claimed, notice.player, target, body, headers)

    async def _drop_hook(self, claimed: Claimed, why: str) -> None:
        await self.outbox.done(claimed.item)
        self.metrics.notices.labels("webhook", why).inc()

    async def _prepare_mail(self, claimed: Claimed, player_id: str) -> MailDelivery | None:
        raw = await self.outbox.mail(player_id, DIGEST_MOST)
        if not raw:
            await self.outbox.drop_mail(player_id)
            return None
        fields = await self.registry.get(player_id)
        wants = preferences_of(fields or {})
        address = (fields or {}).get("email")
        if address is None or "email" not in wants.channels or self.config.email_from is None:
            await self.outbox.mailed(player_id, len(raw), 0)
            self.metrics.notices.labels("email", "dropped").inc(len(raw))
            return None
        now = await self.games.store.now_ms()
        until = quiet_until(wants.quiet_hours, now)
        if until is not None:
            await self.outbox.later(claimed.item, claimed.attempt, until - now, counted=False)
            self.metrics.notices.labels("email", "deferred").inc()
            return None
        notices = [DECODE_NOTICE.decode(n) for n in raw]
        holding = await self._still_holding(notices, wants.away_only)
        told_now = [n for n, holds in zip(notices, holding, strict=True) if holds]
        if not told_now:
            await self.outbox.mailed(player_id, len(raw), 0)
            self.metrics.notices.labels("email", "dropped").inc(len(raw))
            return None
        if claimed.attempt == 1 and not await self._within_quotas(
            ("emails", player_id, self.config.emails_per_hour),
            ("email-addresses", address_key(address), self.config.emails_per_address_hour),
            now=now,
        ):
            await self.outbox.mailed(player_id, len(raw), self.config.email_every_ms)
            self.metrics.notices.labels("email", "over_quota").inc(len(raw))
            return None
        message = await self._message(player_id, fields or {}, address, told_now)
        return MailDelivery(claimed, player_id, len(raw), message)

    async def _message(
        self, player_id: str, fields: dict[str, str], address: str, notices: list[Notice]
    ) -> EmailMessage:
        unsubscribe = await self.unsubscribe_url(player_id)
        voice = Voice(language(preference=fields.get("lang")), self.games.games)
        words = email_body(notices, fields.get("name", ""), self.config.public_url, unsubscribe, voice)
        sender = self.config.email_from or ""
        domain = sender.rpartition("@")[2] or "ludoteca"
        ids = hashlib.sha256(" ".join(n.id for n in notices).encode()).hexdigest()[:32]
        message = EmailMessage()
        message["From"] = sender
        message["To"] = address
        message["Subject"] = words.subject
        message["Date"] = email.utils.formatdate(usegmt=True)
        message["Message-ID"] = f"<{ids}@{domain}>"  # the same notices sent again: the same message
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-replies
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
        message.set_content(words.text)
        message.add_alternative(words.html, subtype="html")
        return message

    async def _within_quotas(self, *quotas: tuple[str, str, int], now: int) -> bool:
        """Count one delivery against each ``(what, whom, limit)``; whether every count is within its limit."""
        within = True
        for what, whom, limit in quotas:
            if limit and await self.counts.add(what, whom, now) > limit:
                within = False
        return within

    async def _still_holding(self, notices: list[Notice], away_only: bool) -> list[bool]:
        """Whether each notice is still worth sending: a move still awaited (not one made meanwhile),
        and, for a player who wants to hear only when away, its seat has no socket at that table."""
        holding = []
        for notice in notices:
            if away_only:
                present = await self.attendance.present(notice.game_id)
                if any(s.seat == notice.seat for s in present.seats):
                    holding.append(False)
                    continue
            if notice.event in ("move", "trade", "window"):
                try:
                    game, table = await self.games.load(notice.game_id)
                except NotFound:  # gone
                    holding.append(False)
                    continue
                holding.append(status(game, table) == "active" and still_awaited(game, table, notice))
            else:
                holding.append(True)
        return holding

    async def sent(self, delivery: Delivery) -> None:
        """The delivery got through."""
        if isinstance(delivery, HookDelivery):
            await self.outbox.done(delivery.claimed.item)
            self.metrics.notices.labels("webhook", "sent").inc()
        else:
            await self.outbox.mailed(delivery.player_id, delivery.count, self.config.email_every_ms)
            self.metrics.notices.labels("email", "sent").inc()

    async def failed(self, delivery: Delivery, again: bool, why: str) -> None:
        """The delivery did not get through (``why``, for the log); ``again``: it may succeed later."""
        channel = "webhook" if isinstance(delivery, HookDelivery) else "email"
        attempt = delivery.claimed.attempt
        if again and attempt < self.config.attempts:
            await self.outbox.later(delivery.claimed.item, attempt, backoff_ms(self.config.retry_ms, attempt))
            self.metrics.notices.labels(channel, "retried").inc()
            log.info("%s to player %s failed (attempt %d, %s): tried later", channel, delivery.player_id, attempt, why)
            return
        log.warning("%s to player %s given up after attempt %d: %s", channel, delivery.player_id, attempt, why)
        self.metrics.notices.labels(channel, "failed").inc()
        if isinstance(delivery, HookDelivery):
            await self.outbox.done(delivery.claimed.item)
        else:
            await self.outbox.mailed(delivery.player_id, delivery.count, self.config.email_every_ms)
