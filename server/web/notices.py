"""The notifications' REST endpoints, as data: a player's webhook, its preferences and email address,
and the one-click unsubscribe its emails link to (RFC 8058)."""

from __future__ import annotations

import html

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from server.service.notices import (
    Notices,
    NotificationChanges,
    NotificationSettings,
    Unsubscribed,
    Webhook,
    WebhookChange,
)
from server.web.auth import bearer
from server.web.requests import Endpoint, answer, client_address, read_json

UNSUBSCRIBE_BODY_MOST = 1024  # bytes of a one-click unsubscribe's body read at most ("List-Unsubscribe=One-Click")


class Dropped(msgspec.Struct):
    deleted: bool  # whether there was a webhook to take down


def notices_of(request: Request) -> Notices:
    notices: Notices = request.app.state.notices
    return notices


async def get_webhook(request: Request) -> Response:
    return answer(await notices_of(request).webhook(bearer(request)))


async def set_webhook(request: Request) -> Response:
    token = bearer(request)
    notices = notices_of(request)
    await notices.players.signed_in(token)  # 401 before a bad body
    change = await read_json(request, WebhookChange)
    return answer(await notices.set_webhook(token, change, client_address(request)))


async def drop_webhook(request: Request) -> Response:
    return answer(Dropped(await notices_of(request).drop_webhook(bearer(request))))


async def get_notifications(request: Request) -> Response:
    return answer(await notices_of(request).settings(bearer(request)))


async def change_notifications(request: Request) -> Response:
    token = bearer(request)
    notices = notices_of(request)
    await notices.players.signed_in(token)  # 401 before a bad body
    changes = await read_json(request, NotificationChanges)
    return answer(await notices.change(token, changes, client_address(request)))


async def unsubscribe(request: Request) -> Response:
    """RFC 8058's one-click POST (its body, ``List-Unsubscribe=One-Click``, is neither needed nor
    read past a small cap): the link's signed token is the authority, no cookie, no sign-in."""
    read = 0
    async for chunk in request.stream():
        read += len(chunk)
        if read > UNSUBSCRIBE_BODY_MOST:
            break
    return answer(await notices_of(request).unsubscribe(request.query_params.get("token")))


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stop emails from Ludoteca</title></head>
<body><h1>Stop emails from Ludoteca?</h1>
<p>Press the button and this server sends no more email to this player (webhooks and everything
else stay as they are). Signed in, you can turn emails on again in your notifications.</p>
<form method="post" action="{action}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button></form></body></html>
"""


async def unsubscribe_page(request: Request) -> Response:
    """The link as a person opens it: a page whose button sends the one-click POST. Opening it
    changes nothing (mail scanners open links)."""
    action = "/api/v1/unsubscribe?" + str(request.query_params)
    return HTMLResponse(PAGE.format(action=html.escape(action)))


ME = (401, 503)
CHANGES = (*ME, 403)  # 403 cross_site: a change sent with the web table's cookie from another site
NOTICE_ENDPOINTS: list[Endpoint] = [
    Endpoint(
        "GET", "/players/me/webhook", get_webhook, "The player's webhook, with the secret that signs its deliveries",
        Webhook, 200, None, (), (*ME, 404),
    ),
    Endpoint(
        "PUT", "/players/me/webhook", set_webhook,
        "Set the player's webhook: an https URL (its host must resolve to public addresses only) and its form",
        Webhook, 200, WebhookChange, (), (400, *CHANGES, 404, 413, 415, 422, 429),
    ),
    Endpoint(
        "DELETE", "/players/me/webhook", drop_webhook, "Take the player's webhook down", Dropped, 200, None, (),
        CHANGES,
    ),
    Endpoint(
        "GET", "/players/me/notifications", get_notifications,
        "What the player is told, by which channels, when; and its email address",
        NotificationSettings, 200, None, (), ME,
    ),
    Endpoint(
        "PATCH", "/players/me/notifications", change_notifications,
        "Change what the player is told (events, channels, quiet hours, away only) or its email address",
        NotificationSettings, 200, NotificationChanges, (), (400, *CHANGES, 404, 413, 415, 422, 429),
    ),
    Endpoint(
        "GET", "/unsubscribe", unsubscribe_page, "An email's unsubscribe link, opened: a page with the button",
        "html", 200, None, ("token",), (),
    ),
    Endpoint(
        "POST", "/unsubscribe", unsubscribe, "One-click unsubscribe (RFC 8058): no more email for the link's player",
        Unsubscribed, 200, None, ("token",), (400, 503),
    ),
]  # fmt: skip
