"""Where a webhook may be sent: a public address over HTTPS, unless the operator allows a host.

A webhook URL names a host that the server will connect to: without care, a player could make it
reach the server's own network (server-side request forgery): loopback, private ranges,
link-local addresses and the cloud metadata services on them (169.254.169.254, fd00:ec2::254),
shared address space (100.64.0.0/10, where one cloud keeps its metadata), or anything else not
globally routable. So the host is resolved and **every** address it resolves to must be global;
an address given inside an IPv6 one (IPv4-mapped, 6to4, NAT64) is judged as that IPv4 address.
The check runs when the URL is set and again before each delivery, and the delivery connects to
an address this check passed (so a name that resolves elsewhere in between gains nothing).

``LUDOTECA_WEBHOOK_ALLOW`` names hosts the operator allows anyway (host names, addresses or
networks, e.g. ``hooks.internal,10.1.0.0/16,127.0.0.1``): those may also use plain http.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from server.service.errors import Refused

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
NAT64: Final = ipaddress.ip_network("64:ff9b::/96")
# IANA's special-purpose ranges, listed here as well as by ``is_global``, whose list differs between
# Python releases (3.11 counts 192.0.0.192, a cloud's metadata address, as global).
SPECIAL: Final[tuple[Network, ...]] = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
        "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "::/127", "64:ff9b:1::/48", "100::/64", "2001::/23",
        "2001:db8::/32", "fc00::/7", "fe80::/10", "ff00::/8",
    )
)  # fmt: skip
URL_MOST: Final = 2000  # characters


@dataclass(frozen=True)
class Allowed:
    """The operator's exceptions: host names (lower case) and networks a webhook may name anyway."""

    names: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, entries: Iterable[str]) -> Allowed:
        names, networks = set(), []
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            except ValueError:
                names.add(entry.lower().rstrip("."))
        return cls(frozenset(names), tuple(networks))

    def address(self, ip: IP) -> bool:
        return any(ip.version == n.version and ip in n for n in self.networks)

    def host(self, host: str) -> bool:
        if host.lower().rstrip(".") in self.names:
            return True
        literal = ip_literal(host)
        return literal is not None and self.address(literal)


@dataclass(frozen=True)
class Target:
    """A webhook URL, read: where it connects, and what it asks for there."""

    url: str
    scheme: str  # https, or http for a host the operator allows
    host: str  # a name, or an address (IPv6 without brackets)
    port: int
    target: str  # the path and query: "/hooks/abc?x=1"

    @property
    def host_header(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return shown if self.port == default else f"{shown}:{self.port}"

    def at(self, address: str) -> str:
        """The URL with the host replaced by ``address``: where the delivery connects."""
        shown = f"[{address}]" if ":" in address else address
        return f"{self.scheme}://{shown}:{self.port}{self.target}"


def ip_literal(host: str) -> IP | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def is_public(ip: IP) -> bool:
    """Globally routable and not multicast; an IPv4 address inside an IPv6 one is judged as itself."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None:
            return is_public(inner)
    return ip.is_global and not ip.is_multicast and not any(ip.version == n.version and ip in n for n in SPECIAL)


def bad_url(case: str, why: str) -> Refused:
    """``422 bad_webhook_url``; ``case`` names which ``why`` it is (its words are the catalogs', docs/i18n.md)."""
    return Refused(
        "bad_webhook_url", f"That webhook URL cannot be used: {why}.", {"field": "url", "case": case, "most": URL_MOST}
    )


def read_url(url: str, allowed: Allowed) -> Target:
    """``url`` as a target; ``422 bad_webhook_url`` for one that is not an http(s) URL the server may call."""
    if len(url) > URL_MOST or any(c.isspace() or ord(c) < 32 for c in url):
        raise bad_url("characters", f"it has spaces or control characters, or is over {URL_MOST} characters")
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        raise bad_url("not_a_url", "it is not a URL") from None
    host = parts.hostname or ""
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http") or not host:
        raise bad_url("not_https", "it is not an https:// URL")
    if parts.username is not None or parts.password is not None:
        raise bad_url("credentials", "it carries a user name or password")
    if scheme == "http" and not allowed.host(host):
        raise bad_url("plain_http", "it is not https (plain http is for hosts the operator allows)")
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return Target(url, scheme, host, port or (443 if scheme == "https" else 80), target)


REFUSED_ADDRESS: Final = (
    "The webhook's host does not resolve, or resolves to an address this server does not call (loopback, "
    "private, link-local or metadata; the operator may allow one with LUDOTECA_WEBHOOK_ALLOW)."
)


async def addresses(target: Target, allowed: Allowed, timeout: float) -> list[str]:
    """The addresses ``target`` may be sent to: every one its host resolves to, each one public
    (or allowed); ``422 webhook_address_refused`` when any is not, or the host does not resolve
    within ``timeout`` seconds. One code for both, naming no address: the answer must not tell a
    player what the server's own resolver knows of names inside its network."""
    refused = Refused("webhook_address_refused", REFUSED_ADDRESS, {"field": "url"})
    literal = ip_literal(target.host)
    if literal is not None:
        found = [literal]
    else:
        try:
            async with asyncio.timeout(timeout):
                infos = await asyncio.get_running_loop().getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
        except (OSError, TimeoutError, UnicodeError):
            raise refused from None
        found = list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos))
    named = allowed.host(target.host)
    if not found or any(not (named or allowed.address(ip) or is_public(ip)) for ip in found):
        raise refused
    return [str(ip) for ip in found]
