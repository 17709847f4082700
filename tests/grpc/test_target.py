"""Where a GRPC interface is and whether it speaks TLS: never a silent downgrade."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.grpc.target import grpc_target
from sia_tui.core.errors import A2AProtocolError

HTTP_CARD = "http://127.0.0.1:8000"
HTTPS_CARD = "https://agent.example.net/.well-known/agent-card.json"
CARD_FILE = "cards/agent.json"


@pytest.mark.parametrize(
    ("url", "card", "choice", "expected"),
    [
        # A bare host:port follows the card's own transport.
        ("127.0.0.1:50051", HTTP_CARD, None, ("127.0.0.1", 50051, False)),
        ("grpc.example.net:443", HTTPS_CARD, None, ("grpc.example.net", 443, True)),
        ("grpc.example.net:8443", CARD_FILE, None, ("grpc.example.net", 8443, True)),
        ("[::1]:7000", HTTP_CARD, None, ("::1", 7000, False)),
        # A scheme in the URL decides; the specification's sample card writes https://...
        (
            "https://georoute.example.com/a2a/grpc",
            HTTP_CARD,
            None,
            ("georoute.example.com", 443, True),
        ),
        ("http://agent.example.net:9000", HTTPS_CARD, None, ("agent.example.net", 9000, False)),
        # The flags override both.
        ("127.0.0.1:50051", HTTP_CARD, "tls", ("127.0.0.1", 50051, True)),
        (
            "https://agent.example.net:9443",
            HTTPS_CARD,
            "plaintext",
            ("agent.example.net", 9443, False),
        ),
    ],
)
def test_tls_or_plaintext(
    url: str, card: str, choice: str | None, expected: tuple[object, ...]
) -> None:
    target = grpc_target(url, card, choice)
    assert (target.host, target.port, target.tls) == expected


def test_the_recorded_url_says_which_it_was() -> None:
    tls = grpc_target("h.example:443", HTTPS_CARD)
    plain = grpc_target("127.0.0.1:5", HTTP_CARD)
    assert tls.url("GetTask") == "grpcs://h.example:443/lf.a2a.v1.A2AService/GetTask"
    assert plain.url("SendMessage") == "grpc://127.0.0.1:5/lf.a2a.v1.A2AService/SendMessage"
    assert (tls.reason, plain.reason) == ("the card came over https", "the card came over http")


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("grpc.example.net", "has no port"),
        ("ftp://grpc.example.net:21", "use host:port"),
        ("grpc.example.net:+443", "has no port"),
        ("grpc.example.net:99999", "not plain ASCII digits"),
        (":443", "has no host"),
    ],
)
def test_an_unusable_url_is_refused_not_guessed(url: str, problem: str) -> None:
    """RULES SR7: an ambiguous port reads differently to different parsers; nothing is
    dialled then."""
    with pytest.raises(A2AProtocolError, match=problem):
        grpc_target(url, HTTP_CARD)


def test_a_grpc_interface_url_is_not_resolved_against_the_card() -> None:
    """host:port is not a relative URL: the card keeps it as written, and only 1.0 gRPC is
    called (the 0.3 service is another proto)."""
    card = parse_card(
        {
            "name": "n",
            "description": "d",
            "version": "1",
            "supportedInterfaces": [
                {"url": "127.0.0.1:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
                {"url": "10.0.0.1:50052", "protocolBinding": "GRPC", "protocolVersion": "0.3"},
            ],
            "capabilities": {},
            "skills": [],
        },
        source_url="http://127.0.0.1:8000/.well-known/agent-card.json",
    )
    assert [(i.url, i.callable) for i in card.interfaces] == [
        ("127.0.0.1:50051", True),
        ("10.0.0.1:50052", False),
    ]
    assert not any("resolved" in w for w in card.warnings)


def test_the_flags_choose_and_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from sia_tui.cli.flags import add_connection_flags, client_options

    parser = argparse.ArgumentParser()
    add_connection_flags(parser)
    assert client_options(parser.parse_args([])).grpc_security is None
    assert client_options(parser.parse_args(["--grpc-tls"])).grpc_security == "tls"
    plaintext = parser.parse_args(["--grpc-plaintext", "--binding", "grpc"])
    assert client_options(plaintext).grpc_security == "plaintext"
    with pytest.raises(SystemExit):
        parser.parse_args(["--grpc-tls", "--grpc-plaintext"])
    assert "not allowed with argument" in capsys.readouterr().err
