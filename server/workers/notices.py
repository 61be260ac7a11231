"""The notifications' delivery worker: every replica claims due items from the outbox and sends them.

The service says what to send (server/service/notices.py ``Notices.prepare``); this worker only
sends it and reports how it went:

- **Webhooks**: the host is resolved and checked again (every address public, or allowed by the
  operator: server/service/destinations.py), and the request goes to an address that passed, its
  ``Host`` header and TLS server name the URL's own. No redirect is followed (a 3xx is a refusal),
  no proxy from the environment is used, at most ``BODY_MOST`` bytes of the answer are read, and
  the whole delivery - resolving, connecting, sending, the answer - has ``timeout`` seconds: a
  receiver that answers slowly or never costs one sender slot that long. 2xx is delivered; a
  time-out, a connection that fails, 408, 425, 429 or 5xx is tried again later; any other answer
  is a refusal, not tried again.
- **Email**: through the operator's SMTP server (``Smtp``), in a thread, each socket operation
  bounded by ``timeout``. A 4xx reply or a lost connection is tried again later, a 5xx refusal
  is not (but for a refused login, the operator's to fix). What is logged names no address.

At most ``senders`` deliveries are under way at once per replica; the lease the outbox gives a
claim outlasts the longest of them, so an item is sent twice only when a replica died (or
stalled past its lease) mid-send.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Final

import httpx

from server.runtime.tasks import Trouble, cancelled, pause
from server.service.destinations import Allowed, addresses
from server.service.errors import Refused
from server.service.notices import HookDelivery, MailDelivery, Notices
from server.storage.outbox import Claimed

log = logging.getLogger("ludoteca.notices")

BODY_MOST: Final = 4096  # bytes of a webhook receiver's answer read at most (the status is what counts)
AGAIN_STATUSES: Final = frozenset({408, 425, 429})


@dataclass(frozen=True)
class Result:
    ok: bool
    again: bool = False  # a failure that may pass: try later
    why: str = ""


@dataclass(frozen=True)
class Smtp:
    """The operator's SMTP server."""

    host: str
    port: int
    tls: str  # starttls, tls or none
    user: str | None
    password: str | None = field(repr=False)
    timeout: float = 10.0


def send_mail(smtp: Smtp, message: EmailMessage) -> None:
    """Send ``message`` (blocking: run in a thread)."""
    context = ssl.create_default_context()
    client: smtplib.SMTP
    if smtp.tls == "tls":
        client = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=smtp.timeout, context=context)
    else:
        client = smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout)
    with client:
        if smtp.tls == "starttls":
            client.starttls(context=context)
        if smtp.user:
            client.login(smtp.user, smtp.password or "")
        client.send_message(message)


def mail_result(exc: Exception) -> Result:
    """How a failed send went, in words that name no address (an SMTP refusal's text may)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return Result(False, any(400 <= c < 500 for c in codes), f"recipient refused ({', '.join(map(str, codes))})")
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return Result(False, True, f"the SMTP server refused the login ({exc.smtp_code})")
    if isinstance(exc, smtplib.SMTPResponseException):
        return Result(False, 400 <= exc.smtp_code < 500, f"SMTP {exc.smtp_code}")
    return Result(False, True, type(exc).__name__)


class Courier:
    """Sends what the outbox holds, with every other replica's courier beside it."""

    def __init__(
        self,
        notices: Notices,
        allowed: Allowed,
        smtp: Smtp | None,
        *,
        senders: int = 8,
        interval: float = 0.5,
        timeout: float = 5.0,
    ) -> None:
        self.notices = notices
        self.allowed = allowed
        self.smtp = smtp
        self.senders = max(1, senders)
        self.interval = interval
        self.timeout = timeout
        self.sending: set[asyncio.Task[None]] = set()
        # One client, no connection kept: each delivery connects to the address it checked, with the
        # TLS server name of its own URL. No proxy from the environment, no redirect followed.
        self.http = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout),
            follow_redirects=False,
            trust_env=False,
            limits=httpx.Limits(max_keepalive_connections=0),
        )

    async def run(self) -> None:
        """Claim and send until cancelled; a Redis outage only delays deliveries."""
        trouble = Trouble(log, "notifications could not be delivered")
        try:
            while True:
                full = False
                try:
                    free = self.senders - len(self.sending)
                    claimed = await self.notices.claim(free)
                    for item in claimed:
                        self.start(item)
                    full = free > 0 and len(claimed) == free  # more may be due: look again soon
                    trouble.ok()
                except Exception as exc:
                    if cancelled():
                        raise
                    trouble.failed(exc)
                if self.sending and len(self.sending) >= self.senders:
                    await asyncio.wait(self.sending, timeout=self.interval, return_when=asyncio.FIRST_COMPLETED)
                else:
                    await pause(0 if full else self.interval)
        finally:
            for task in list(self.sending):
                task.cancel()
            await self.http.aclose()

    def start(self, item: Claimed) -> None:
        task = asyncio.get_running_loop().create_task(self.deliver(item))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def deliver(self, item: Claimed) -> None:
        """Send one claimed item. Whatever fails here leaves it claimed: it is sent again once its
        lease runs out."""
        try:
            delivery = await self.notices.prepare(item)
            if delivery is None:
                return
            if isinstance(delivery, HookDelivery):
                result = await self.post(delivery)
            else:
                result = await self.mail(delivery)
            if result.ok:
                await self.notices.sent(delivery)
            else:
                await self.notices.failed(delivery, result.again, result.why)
        except Exception:
            if not cancelled():
                log.warning("could not deliver %s; tried again after its lease", item.item.split(":")[0], exc_info=True)

    async def post(self, delivery: HookDelivery) -> Result:
        """Post a webhook delivery, within ``timeout`` seconds in all."""
        target = delivery.target
        try:
            async with asyncio.timeout(self.timeout):
                found = await addresses(target, self.allowed, self.timeout)
                failure = Result(False, True, "no address answered")
                for address in found:
                    try:
                        return await self.post_to(address, delivery)
                    except httpx.ConnectError as exc:
                        failure = Result(False, True, f"could not connect ({type(exc).__name__})")
                return failure
        except Refused:
            return Result(False, True, "the host resolves to no address this server calls")
        except TimeoutError:
            return Result(False, True, f"no answer within {self.timeout:g} s")
        except httpx.HTTPError as exc:
            return Result(False, True, type(exc).__name__)

    async def post_to(self, address: str, delivery: HookDelivery) -> Result:
        target = delivery.target
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        request = self.http.build_request(
            "POST", target.at(address), content=delivery.body, headers={**delivery.headers, "Host": target.host_header},
            extensions=extensions,
        )  # fmt: skip
        response = await self.http.send(request, stream=True)
        try:
            read = 0
            async for chunk in response.aiter_raw():
                read += len(chunk)
                if read >= BODY_MOST:
                    break
        finally:
            await response.aclose()
        status = response.status_code
        if 200 <= status < 300:
            return Result(True)
        if status in AGAIN_STATUSES or status >= 500:
            return Result(False, True, f"HTTP {status}")
        return Result(False, False, f"HTTP {status}" + (" (redirects are not followed)" if 300 <= status < 400 else ""))

    async def mail(self, delivery: MailDelivery) -> Result:
        if self.smtp is None:
            return Result(False, False, "no SMTP server")
        try:
            await asyncio.to_thread(send_mail, self.smtp, delivery.message)
        except Exception as exc:  # every failure of smtplib and its socket: classified, never its text
            return mail_result(exc)
        return Result(True)
