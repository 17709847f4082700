"""Agent Card parsing: 1.0, 0.3, hybrid, relative URLs, the schema-interface advertisement."""

from __future__ import annotations

from typing import Any

import pytest

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.errors import A2AProtocolError

DIGEST = "sha256:" + "ab" * 32


def v1_card(**extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "name": "Net agent",
        "description": "d",
        "version": "2.1",
        "supportedInterfaces": [
            {
                "url": "https://agent.example/a2a",
                "protocolBinding": "HTTP+JSON",
                "protocolVersion": "1.0",
                "tenant": "acme",
            },
            {
                "url": "https://agent.example/rpc",
                "protocolBinding": "JSONRPC",
                "protocolVersion": "1.0",
            },
        ],
        "capabilities": {
            "streaming": True,
            "extensions": [
                {
                    "uri": EXTENSION_URI,
                    "required": False,
                    "params": {
                        "interface_version": "1.0",
                        "skills": [
                            {
                                "skill_id": "evaluate_resource_condition",
                                "skill_version": "1.0",
                                "interface_digest": DIGEST,
                            },
                            {"skill_id": 7},
                        ],
                    },
                }
            ],
        },
        "skills": [
            {"id": "describe_skill", "name": "Describe", "description": "d", "tags": ["meta"]},
            {
                "id": "evaluate_resource_condition",
                "name": "Evaluate",
                "description": "d",
                "tags": [],
                "examples": ["x", 3],
            },
        ],
        "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
    }
    card.update(extra)
    return card


def test_v1_card_interfaces_in_preference_order_with_tenant() -> None:
    card = parse_card(v1_card())
    assert card.card_dialect == "1.0"
    assert [(i.binding, i.tenant) for i in card.interfaces] == [
        ("HTTP+JSON", "acme"),
        ("JSONRPC", None),
    ]
    assert card.streaming and card.version == "2.1"
    assert card.security_schemes == {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}
    assert card.skill("evaluate_resource_condition") is not None
    assert card.skill("evaluate_resource_condition").examples == ("x",)  # type: ignore[union-attr]


def test_schema_interface_bindings_parsed_and_malformed_entry_warned() -> None:
    card = parse_card(v1_card())
    ad = card.schema_interface
    assert ad is not None and ad.interface_version == "1.0" and ad.required is False
    assert [(b.skill_id, b.interface_digest) for b in ad.bindings] == [
        ("evaluate_resource_condition", DIGEST)
    ]
    assert ad.raw["params"]["skills"][1] == {"skill_id": 7}  # raw kept for the ADV checks
    assert any("params.skills[1]" in w for w in card.warnings)


def test_card_without_the_extension_has_no_advertisement() -> None:
    card = parse_card(v1_card(capabilities={"extensions": [{"uri": "https://other/ext"}]}))
    assert card.schema_interface is None and card.streaming is False


def test_v03_card_builds_interfaces_from_url_and_additional_interfaces() -> None:
    card = parse_card(
        {
            "name": "old",
            "description": "d",
            "version": "1",
            "url": "https://a.example/rpc",
            "additionalInterfaces": [
                {"url": "https://a.example/rpc", "transport": "JSONRPC"},
                {"url": "https://a.example/rest", "transport": "HTTP+JSON"},
            ],
            "capabilities": {},
            "skills": [],
            "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        }
    )
    assert card.card_dialect == "0.3"
    # preferredTransport defaults to JSONRPC, protocolVersion to 0.3; duplicates collapse.
    assert [(i.url, i.badge) for i in card.interfaces] == [
        ("https://a.example/rpc", "JSONRPC 0.3"),
        ("https://a.example/rest", "HTTP+JSON 0.3"),
    ]
    assert all(i.dialect == "0.3" for i in card.interfaces)
    assert card.security_schemes["key"]["type"] == "apiKey"
    assert any("OpenAPI" in w for w in card.warnings)
    assert any("without protocolVersion" in w for w in card.warnings)


def test_relative_interface_urls_resolve_against_the_card_url() -> None:
    card = parse_card(
        v1_card(
            supportedInterfaces=[
                {"url": "/a2a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
            ]
        ),
        source_url="https://agent.example:8443/.well-known/agent-card.json",
    )
    assert card.interfaces[0].url == "https://agent.example:8443/a2a/rest"
    assert any("relative" in w for w in card.warnings)


def test_relative_url_without_card_url_is_kept_and_warned() -> None:
    card = parse_card(
        v1_card(
            supportedInterfaces=[
                {"url": "a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ]
        )
    )
    assert card.interfaces[0].url == "a2a"
    assert any("cannot be resolved" in w for w in card.warnings)


def test_unknown_binding_and_patch_version_are_warned() -> None:
    card = parse_card(
        v1_card(
            supportedInterfaces=[
                {"url": "https://a/x", "protocolBinding": "urn:custom", "protocolVersion": "1.0.1"},
                {"url": "https://a/g", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
            ]
        )
    )
    assert [i.protocol_version for i in card.interfaces] == ["1.0", "1.0"]
    assert [i.callable for i in card.interfaces] == [False, True]  # gRPC 1.0 is called
    assert any("urn:custom" in w for w in card.warnings)
    assert any("Major.Minor" in w for w in card.warnings)


def test_missing_required_fields_are_forgiven_with_warnings() -> None:
    card = parse_card(
        {"supportedInterfaces": [{"protocolBinding": "JSONRPC"}], "skills": [{"name": "no id"}]}
    )
    assert card.name == "" and card.interfaces == () and card.skills == ()
    text = " ".join(card.warnings)
    for expected in ("'name'", "'version'", "no url", "skills[0]", "capabilities"):
        assert expected in text


@pytest.mark.parametrize(
    ("weird", "warned"),
    [
        (
            {"supportedInterfaces": "nope", "capabilities": [], "skills": {}},
            "card names no interface (no supportedInterfaces, no url)",
        ),
        (
            {"url": 5, "additionalInterfaces": [None, 3, {"url": None}]},
            "additionalInterfaces[2] has no url; ignored",
        ),
        (
            {"capabilities": {"extensions": [None, {"uri": EXTENSION_URI, "params": []}]}},
            "card has no skills",
        ),
        (
            {"capabilities": {"extensions": [{"uri": EXTENSION_URI, "params": {"skills": "x"}}]}},
            "card has no skills",
        ),
        (
            {"skills": [None, {"id": "s", "tags": "not-a-list"}], "provider": "p"},
            "skills[0] has no string id; ignored",
        ),
    ],
)
def test_weird_cards_are_read_with_warnings(weird: dict[str, Any], warned: str) -> None:
    """A card of wrong types is read, not refused: what cannot be used is left out (no
    interface to call, no skill bound) and said in a warning, as step 1 shows it."""
    card = parse_card(weird)
    assert card.raw is weird
    assert warned in card.warnings
    assert card.interfaces == ()
    assert card.schema_interface is None or card.schema_interface.bindings == ()


@pytest.mark.parametrize("not_object", [[], "card", 3, None])
def test_a_card_that_is_not_an_object_is_a_protocol_error(not_object: Any) -> None:
    with pytest.raises(A2AProtocolError, match="not a JSON object"):
        parse_card(not_object)
