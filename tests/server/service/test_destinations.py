"""Where a webhook may be sent (server-side request forgery): https to public addresses only, every
address a host resolves to checked, addresses inside IPv6 ones judged as themselves, and the
operator's exceptions."""

from __future__ import annotations

import ipaddress

import pytest

from server.service.destinations import Allowed, addresses, is_public, read_url
from server.service.errors import Refused

NOT_PUBLIC = [
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",  # AWS, GCP, Azure metadata
    "100.100.100.200",  # Alibaba metadata (shared address space)
    "100.64.0.1",
    "192.0.0.192",  # Oracle metadata
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",  # AWS metadata over IPv6
    "fc00::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:169.254.169.254",
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "ff02::1",
]
PUBLIC = ["1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "::ffff:1.1.1.1", "64:ff9b::101:101"]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_loopback_private_link_local_metadata_and_multicast_addresses_are_not_public(address: str) -> None:
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", PUBLIC)
def test_global_addresses_are_public(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.com/x",  # plain http
        "ftp://hooks.example.com/x",
        "https://user:pass@hooks.example.com/x",
        "https://hooks.example.com:99999/x",
        "https:///nohost",
        "javascript:alert(1)",
        "https://hooks.example.com/a b",
        "https://hooks.example.com/\r\nHost: evil",
        "https://example.com/" + "x" * 2000,
    ],
)
def test_a_url_that_is_not_an_https_url_the_server_may_call_is_refused(url: str) -> None:
    with pytest.raises(Refused) as refused:
        read_url(url, Allowed())
    assert refused.value.code == "bad_webhook_url" and refused.value.details["field"] == "url"


def test_a_url_is_read_into_where_it_connects_and_what_it_asks_for() -> None:
    target = read_url("https://Hooks.Example.com/api/x?y=1", Allowed())
    assert (target.scheme, target.host, target.port, target.target) == ("https", "hooks.example.com", 443, "/api/x?y=1")
    assert target.host_header == "hooks.example.com" and target.at("1.2.3.4") == "https://1.2.3.4:443/api/x?y=1"
    v6 = read_url("https://[2606:4700::1]:8443", Allowed())
    assert v6.host_header == "[2606:4700::1]:8443" and v6.at("2606:4700::1") == "https://[2606:4700::1]:8443/"


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:169.254.169.254]/",
        "https://10.0.0.5:8443/",
        "https://localhost/x",  # a name that resolves to loopback
        "https://localhost./x",
        "https://no-such-host.invalid/x",  # does not resolve: the same answer, naming nothing
    ],
)
async def test_a_host_that_is_or_resolves_to_an_address_not_public_is_refused(url: str) -> None:
    with pytest.raises(Refused) as refused:
        await addresses(read_url(url, Allowed()), Allowed(), timeout=2)
    assert refused.value.code == "webhook_address_refused" and refused.value.details == {"field": "url"}
    assert "127." not in refused.value.message  # the answer names no address the server's resolver found


async def test_the_operators_allowed_hosts_may_be_private_and_plain_http() -> None:
    by_name = Allowed.of(["localhost"])
    target = read_url("http://localhost:9000/hook", by_name)
    assert "127.0.0.1" in await addresses(target, by_name, timeout=2)
    by_network = Allowed.of(["127.0.0.0/8", "[::1]"])
    assert await addresses(read_url("http://127.0.0.1:9000/", by_network), by_network, timeout=2) == ["127.0.0.1"]
    assert await addresses(read_url("https://[::1]/", by_network), by_network, timeout=2) == ["::1"]
    with pytest.raises(Refused):  # another private network stays refused
        await addresses(read_url("https://10.0.0.1/", by_network), by_network, timeout=2)
    with pytest.raises(Refused):  # and plain http to anyone else too
        read_url("http://hooks.example.com/", by_network)
