"""The words a notice is sent in: a webhook's body (plain JSON, Discord's or Slack's) and an email's
subject, plain text and HTML.

Each is made from notices alone (projections/notices.py: what the seat's own view shows), the
player's own name and the server's links, so it carries nothing the seat may not see; two tables
that differ only in what the seat may not see give the same bytes (the leak oracle checks it,
tests/security/test_leak_oracle.py). English for now.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Final, Literal

import msgspec

from projections.notices import Notice

Form = Literal["json", "discord", "slack"]
FORMS: Final[tuple[Form, ...]] = ("json", "discord", "slack")
SIGNATURE: Final = "Ludoteca-Signature"  # t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">
ENCODER = msgspec.json.Encoder()


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def sentence(notice: Notice) -> str:
    """What happened, in one sentence, for the player at the seat."""
    title = notice.title
    if notice.event == "move":
        return f"{title}: it is your move."
    if notice.event == "trade":
        return f"{title}: a trade is offered to you."
    if notice.event == "window":
        return f"{title}: a window is open for you to answer."
    if notice.event == "rematch":
        return f"{title}: a rematch is offered."
    if notice.ending == "cancelled":
        return f"{title} was called off before it started."
    if notice.ending == "too_long":
        return f"{title} is over with no winner: it went on too long."
    place = f" you placed {ordinal(notice.place)}" if notice.place is not None else ""
    if notice.ending == "resigned":
        return f"{title} is over: too few players remained;{place}."
    return f"{title} is over:{place}." if place else f"{title} is over."


def table_link(public_url: str, notice: Notice) -> str:
    """The web table's page for the table (the rematch's, for a rematch)."""
    return f"{public_url}/#/game/{notice.rematch or notice.game_id}"


class WebhookBody(msgspec.Struct, kw_only=True):
    """The plain JSON a webhook receives: the notice, a sentence and the table's link."""

    id: str
    event: str
    game_id: str
    game: str
    title: str
    seat: int
    version: int
    player: str
    reason: str | None
    place: int | None
    winners: list[int] | None
    ending: str | None
    rematch: str | None
    text: str
    url: str


def slack_escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def webhook_body(notice: Notice, form: Form, public_url: str) -> bytes:
    """The body of one delivery, in the receiver's form."""
    text, url = sentence(notice), table_link(public_url, notice)
    if form == "discord":
        # No mention of anyone, whatever a text holds; the link in <> so Discord draws no preview.
        return ENCODER.encode({"content": f"{text} <{url}>", "username": "Ludoteca", "allowed_mentions": {"parse": []}})
    if form == "slack":
        return ENCODER.encode({"text": f"{slack_escaped(text)} <{url}|Open the table>", "unfurl_links": False})
    fields = msgspec.structs.asdict(notice)
    return ENCODER.encode(WebhookBody(**fields, text=text, url=url))


@dataclass(frozen=True)
class EmailBody:
    subject: str
    text: str
    html: str


def email_body(notices: list[Notice], name: str, public_url: str, unsubscribe_url: str) -> EmailBody:
    """One email for ``notices`` (one: that notice; more: a digest of them, oldest first)."""
    lines = [(sentence(n), table_link(public_url, n)) for n in notices]
    if len(notices) == 1:
        subject = lines[0][0]
        intro = ""
    else:
        subject = f"Ludoteca: {len(notices)} things happened at your tables"
        intro = f"{len(notices)} things happened at your tables since the last email:"
    greeting = f"Hello {name}," if name else "Hello,"
    why = "You get these emails because you asked Ludoteca to tell you when a table awaits you."
    change = f"Change what you are told, signed in, at {public_url}/ (your notifications)."
    text = [greeting, ""]
    if intro:
        text += [intro, ""]
    for said, link in lines:
        text += [f"- {said}" if intro else said, f"  {link}" if intro else f"Open the table: {link}", ""]
    text += ["-- ", why, change, f"Stop these emails: {unsubscribe_url}", ""]
    e = html.escape
    items = "".join(f'<li>{e(said)} <a href="{e(link)}">Open the table</a></li>' for said, link in lines)
    page = (
        f"<!doctype html><html><body><p>{e(greeting)}</p>"
        + (f"<p>{e(intro)}</p>" if intro else "")
        + f"<ul>{items}</ul><hr><p>{e(why)} {e(change)}</p>"
        + f'<p><a href="{e(unsubscribe_url)}">Stop these emails</a></p></body></html>'
    )
    return EmailBody(subject, "\n".join(text), page)
