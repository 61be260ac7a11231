"""The headers every HTTP answer carries, so that a browser treats the web table and the API safely.

- ``Content-Security-Policy``: scripts, styles and connections only from this server (the web
  table has no inline script or style; the API docs page's inline blocks are allowed by their
  hashes), nothing may frame the pages (clickjacking), no plugins, no ``<base>`` rewriting;
- ``X-Content-Type-Options: nosniff``: a JSON answer is never run as a script;
- ``Referrer-Policy: no-referrer``: a game's URL (its id) never leaves in a Referer;
- ``X-Frame-Options: DENY``: framing refused by browsers that predate ``frame-ancestors``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path


def inline_hashes(page: Path) -> tuple[list[str], list[str]]:
    """The CSP hashes of a page's inline ``<script>`` and ``<style>`` blocks."""
    html = page.read_text(encoding="utf-8")

    def hashes(tag: str) -> list[str]:
        blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.S)
        return [f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in blocks]

    return hashes("script"), hashes("style")


def policy(scripts: list[str], styles: list[str]) -> str:
    return "; ".join(
        [
            "default-src 'self'",
            "script-src " + " ".join(["'self'", *scripts]),
            "style-src " + " ".join(["'self'", *styles]),
            "img-src 'self' data:",
            "connect-src 'self'",  # the API and the game's WebSocket, on this server
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def security_headers(page: Path | None) -> list[tuple[bytes, bytes]]:
    """The headers above, as ASGI header pairs; ``page``: a page whose inline blocks the policy admits."""
    scripts, styles = inline_hashes(page) if page is not None else ([], [])
    return [
        (b"content-security-policy", policy(scripts, styles).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
    ]
