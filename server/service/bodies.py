"""The words a notice is sent in: a webhook's body (plain JSON, Discord's or Slack's) and an email's
subject, plain text and HTML.

Each is made from notices alone (projections/notices.py: what the seat's own view shows), the
player's own name and the server's links, so it carries nothing the seat may not see; two tables
that differ only in what the seat may not see give the same bytes (the leak oracle checks it,
tests/security/test_leak_oracle.py). In the player's language (its ``lang``, else English), from the
catalogs' ``notices`` (server/service/words/<lang>.json), each game named as its rules name it there.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

import msgspec

from domain import words
from domain.engine import AnyGame
from projections.notices import Notice
from server.service.words import notice_words

Form = Literal["json", "discord", "slack"]
FORMS: Final[tuple[Form, ...]] = ("json", "discord", "slack")
SIGNATURE: Final = "Ludoteca-Signature"  # t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">
ENCODER = msgspec.json.Encoder()


@dataclass(frozen=True)
class Voice:
    """The notices' words in one language, naming each game as its catalog does."""

    lang: str = words.DEFAULT
    games: Mapping[str, AnyGame] = dataclasses.field(default_factory=dict)

    def __call__(self, key: str, game: str | None = None, **params: Any) -> str:
        messages, render = notice_words(self.lang, self.games.get(game) if game is not None else None)
        return render.format(messages[key], {"game": game, **params})


def sentence(notice: Notice, voice: Voice) -> str:
    """What happened, in one sentence, for the player at the seat."""
    if notice.event in ("move", "trade", "window", "rematch"):
        return voice(notice.event, notice.game)
    if notice.ending in ("cancelled", "too_long"):
        return voice(notice.ending, notice.game)
    return voice("resigned" if notice.ending == "resigned" else "over", notice.game, place=notice.place)


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


def webhook_body(notice: Notice, form: Form, public_url: str, voice: Voice) -> bytes:
    """The body of one delivery, in the receiver's form."""
    text, url = sentence(notice, voice), table_link(public_url, notice)
    if form == "discord":
        # No mention of anyone, whatever a text holds; the link in <> so Discord draws no preview.
        return ENCODER.encode({"content": f"{text} <{url}>", "username": "Ludoteca", "allowed_mentions": {"parse": []}})
    if form == "slack":
        return ENCODER.encode(
            {"text": f"{slack_escaped(text)} <{url}|{slack_escaped(voice('open'))}>", "unfurl_links": False}
        )
    fields = msgspec.structs.asdict(notice)
    return ENCODER.encode(WebhookBody(**fields, text=text, url=url))


@dataclass(frozen=True)
class EmailBody:
    subject: str
    text: str
    html: str


def email_body(notices: list[Notice], name: str, public_url: str, unsubscribe_url: str, voice: Voice) -> EmailBody:
    """One email for ``notices`` (one: that notice; more: a digest of them, oldest first)."""
    lines = [(sentence(n, voice), table_link(public_url, n)) for n in notices]
    if len(notices) == 1:
        subject = lines[0][0]
        intro = ""
    else:
        subject = voice("digest_subject", count=len(notices))
        intro = voice("digest_intro", count=len(notices))
    greeting = voice("greeting", name=name or None)
    why = voice("why")
    change = voice("change", url=public_url)
    text = [greeting, ""]
    if intro:
        text += [intro, ""]
    for said, link in lines:
        text += [f"- {said}" if intro else said, f"  {link}" if intro else voice("open_at", url=link), ""]
    text += ["-- ", why, change, voice("stop", url=unsubscribe_url), ""]
    e = html.escape
    items = "".join(f'<li>{e(said)} <a href="{e(link)}">{e(voice("open"))}</a></li>' for said, link in lines)
    page = (
        f'<!doctype html><html lang="{e(voice.lang)}"><body><p>{e(greeting)}</p>'
        + (f"<p>{e(intro)}</p>" if intro else "")
        + f"<ul>{items}</ul><hr><p>{e(why)} {e(change)}</p>"
        + f'<p><a href="{e(unsubscribe_url)}">{e(voice("stop_link"))}</a></p></body></html>'
    )
    return EmailBody(subject, "\n".join(text), page)
