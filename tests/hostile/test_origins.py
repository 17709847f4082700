"""Credentials never cross origins through port syntax or cookies (RULES
SR7). The card is served on one port, the interface it names on another."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.hostile.attacks import Attack
from tests.hostile.honest import Honest
from tests.hostile.measure import check_url
from tests.hostile.server import HostileServer, Reply, Request

BEARER = "canary-bearer-4e1f0c2a"
COOKIE = "sid=canary-cookie-77d2b9e3"
WIDE = str.maketrans("0123456789", "０１２３４５６７８９")


@contextmanager
def two_origins(interface: str, *, set_cookie: bool = False) -> Iterator[tuple[str, HostileServer]]:
    """A card server whose card names ``interface`` (``{other}`` is the second server's
    ``host:port``); yields the card server's ``host:port`` and the other server."""
    with HostileServer(Attack("other-origin", "the interface origin").handler) as other:
        other_hostport = other.url.removeprefix("http://")

        def edit(card: dict[str, Any]) -> None:
            port = other_hostport.split(":")[1]
            url = interface.format(
                other=other_hostport, other_port=port, other_port_fullwidth=port.translate(WIDE)
            )
            card["supportedInterfaces"][0]["url"] = url

        async def card_with_cookie(request: Request, reply: Reply, honest: Honest) -> None:
            headers = [("Set-Cookie", f"{COOKIE}; Path=/")] if set_cookie else []
            await reply.json(honest.card(), headers=headers)

        attack = Attack("moved", "the card", {"card": card_with_cookie}, edit_card=edit)
        with HostileServer(attack.handler) as card_server:
            yield card_server.url.removeprefix("http://"), other


def leaked(server: HostileServer) -> list[str]:
    """Credentials that reached ``server``."""
    found = []
    for request in server.requests:
        for name in ("authorization", "cookie"):
            if name in request.headers:
                found.append(f"{request.stage}: {name}: {request.headers[name]}")
    return found


def test_a_port_with_a_sign_is_refused_before_any_credential_is_sent(tmp_path: Path) -> None:
    """``:+PORT`` used to read as port 80 on both sides: the bearer reached the other port."""
    with two_origins("http://127.0.0.1:+{other_port}/a2a/jsonrpc") as (card, other):
        port = card.split(":")[1]
        measured = check_url(f"http://127.0.0.1:+{port}", tmp_path, "--bearer", BEARER)
    failed = measured.failed
    assert (failed["step"], failed["origin"], failed["error_kind"]) == (
        1,
        "local",
        "origin_refused",
    )
    assert f"port '+{port}' is not plain ASCII digits" in failed["message"]
    assert measured.report["at_fault"]["party"] == "caller"  # the URL the user typed
    assert leaked(other) == [] and other.requests == []


def test_an_interface_port_in_fullwidth_digits_is_refused(tmp_path: Path) -> None:
    with two_origins("http://127.0.0.1:{other_port_fullwidth}/a2a/jsonrpc") as (card, other):
        measured = check_url(f"http://{card}", tmp_path, "--bearer", BEARER)
    failed = measured.failed
    assert (failed["step"], failed["origin"], failed["error_kind"]) == (
        3,
        "local",
        "origin_refused",
    )
    assert "is not plain ASCII digits" in failed["message"]
    assert measured.report["at_fault"]["party"] == "agent"  # the URL the card names
    assert other.requests == []


def test_cookies_of_the_card_origin_are_withheld_with_the_bearer(tmp_path: Path) -> None:
    with two_origins("http://{other}/a2a/jsonrpc", set_cookie=True) as (card, other):
        measured = check_url(f"http://{card}", tmp_path, "--bearer", BEARER)
    assert measured.exit == 0, measured.report["steps"]
    assert other.requests and leaked(other) == []
    assert any("withheld" in w for w in measured.report["warnings"])


def test_allow_cross_origin_sends_cookies_too(tmp_path: Path) -> None:
    with two_origins("http://{other}/a2a/jsonrpc", set_cookie=True) as (card, other):
        measured = check_url(f"http://{card}", tmp_path, "--bearer", BEARER, "--allow-cross-origin")
    assert measured.exit == 0
    assert f"describe: cookie: {COOKIE}" in leaked(other)
