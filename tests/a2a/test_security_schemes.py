"""A card's security schemes and requirements, read from A2A 1.0 and 0.3 shapes."""

from __future__ import annotations

from typing import Any

from sia_tui.core.a2a.auth.plan import plan_for
from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.security import SchemeKind

IFACE = {"url": "http://a.test/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}


def card_v1(**extra: Any) -> dict[str, Any]:
    return {"name": "a", "supportedInterfaces": [IFACE], "skills": [], **extra}


def test_the_1_0_wrapper_shapes_and_requirements() -> None:
    """Each wrapper member names its kind; ProtoJSON's empty scope list ({}) reads as none."""
    card = parse_card(
        card_v1(
            securitySchemes={
                "m2m": {
                    "oauth2SecurityScheme": {
                        "flows": {"clientCredentials": {"tokenUrl": "/token", "scopes": {}}},
                        "oauth2MetadataUrl": "https://a.test/.well-known/oauth-authorization-server",
                    }
                },
                "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
                "key": {"apiKeySecurityScheme": {"location": "query", "name": "k"}},
                "oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://a.test/o"}},
                "mtls": {"mtlsSecurityScheme": {"description": "a cert from the lab CA"}},
            },
            securityRequirements=[
                {"schemes": {"m2m": {"list": ["a2a.invoke"]}}},
                {"schemes": {"key": {}}},
            ],
        )
    )
    kinds = {s.name: s.kind for s in card.schemes}
    assert kinds == {
        "m2m": SchemeKind.OAUTH2,
        "bearer": SchemeKind.HTTP,
        "key": SchemeKind.API_KEY,
        "oidc": SchemeKind.OPENID,
        "mtls": SchemeKind.MTLS,
    }
    m2m = card.scheme("m2m")
    assert m2m is not None and m2m.token_url == "/token" and m2m.flows == ("clientCredentials",)
    assert card.security_requirements == ((("m2m", ("a2a.invoke",)),), (("key", ()),))
    mtls = card.scheme("mtls")
    assert mtls is not None and mtls.label == "mutual TLS: a cert from the lab CA"


def test_the_0_3_openapi_shapes_and_a_skills_own_requirement() -> None:
    """0.3: ``type``/``in`` schemes, ``security`` lists, and a skill overriding the card."""
    card = parse_card(
        {
            "name": "a",
            "url": "http://a.test/rpc",
            "protocolVersion": "0.3.0",
            "supportsAuthenticatedExtendedCard": True,
            "securitySchemes": {
                "m2m": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "/t"}}},
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                "mtls": {"type": "mutualTLS"},
            },
            "security": [{"m2m": ["read"]}],
            "skills": [
                {"id": "s", "name": "s", "description": "", "tags": [], "security": [{"key": []}]}
            ],
        }
    )
    assert card.extended_card
    assert card.requirements_of(None) == ((("m2m", ("read",)),),)
    assert card.requirements_of("s") == ((("key", ()),),)
    key = card.scheme("key")
    assert key is not None and key.label == "API key in header X-Key"


def test_a_plan_says_what_is_missing_and_what_is_sent() -> None:
    """Without the credential: not satisfied, the flag named; with it: what is sent."""
    card = parse_card(
        card_v1(
            securitySchemes={"key": {"apiKeySecurityScheme": {"location": "header", "name": "K"}}},
            securityRequirements=[{"schemes": {"key": {}}}],
        )
    )
    bare = plan_for(card, None, ())
    assert not bare.satisfied and "--api-key" in bare.missing
    given = plan_for(card, None, ("api-key",))
    assert given.satisfied and given.sends == "the API key (--api-key) in header K"


def test_no_requirement_is_not_an_empty_requirement() -> None:
    """Absent: "no security requirement declared"; an empty list: no credential needed."""
    absent = plan_for(parse_card(card_v1()), None, ())
    empty = plan_for(parse_card(card_v1(securityRequirements=[])), None, ())
    assert not absent.declared and absent.satisfied
    assert empty.declared and empty.satisfied


def test_hostile_security_members_are_bounded_and_forgiven() -> None:
    """Thousands of schemes, non-object schemes, odd requirement entries: bounded, warned."""
    schemes: dict[str, Any] = {
        f"s{i}": {"apiKeySecurityScheme": {"location": "header", "name": "k"}} for i in range(5000)
    }
    schemes["s0"] = "not an object"
    card = parse_card(card_v1(securitySchemes=schemes, securityRequirements=[1, "x"] * 100))
    assert len(card.schemes) <= 32
    assert any("s0" in w for w in card.warnings)
    assert card.security_requirements == ()


def test_a_wall_of_scopes_is_said_in_one_bounded_line() -> None:
    """Hundreds of long scopes: the plan's requirement (quoted by a 401 verdict) is clipped."""
    scopes = [f"scope-{i}-" + "x" * 150 for i in range(32)]
    card = parse_card(
        card_v1(
            securitySchemes={"m": {"oauth2SecurityScheme": {"flows": {}}}},
            securityRequirements=[{"schemes": {"m": {"list": scopes}}}] * 16,
        )
    )
    said = plan_for(card, None, ()).requires
    assert len(said) <= 400 and said.endswith("…")
