"""A card's ``securitySchemes`` and security requirements, read from both dialects.

A2A 1.0 wraps each scheme in a one-member object (``{"oauth2SecurityScheme": {...}}``) and
writes requirements as ``{"schemes": {NAME: {"list": [scopes]}}}``; 0.3 uses OpenAPI's
shapes (``{"type": "oauth2", ...}``, ``"security": [{NAME: [scopes]}]``). Both read into
the same views; anything unreadable becomes a warning, never an error (agent data).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

#: At most this many schemes and requirement alternatives are read (agent data is bounded).
MAX_SCHEMES = 32
MAX_ALTERNATIVES = 16
MAX_SCOPES = 32


class SchemeKind(StrEnum):
    """What kind of credential a scheme asks for."""

    OAUTH2 = "oauth2"
    HTTP = "http"
    API_KEY = "apiKey"
    OPENID = "openIdConnect"
    MTLS = "mutualTLS"
    UNKNOWN = "unknown"


#: 1.0 wrapper member -> kind; 0.3 ``type`` -> kind.
_WRAPPERS = {
    "oauth2SecurityScheme": SchemeKind.OAUTH2,
    "httpAuthSecurityScheme": SchemeKind.HTTP,
    "apiKeySecurityScheme": SchemeKind.API_KEY,
    "openIdConnectSecurityScheme": SchemeKind.OPENID,
    "mtlsSecurityScheme": SchemeKind.MTLS,
}
_TYPES = {
    "oauth2": SchemeKind.OAUTH2,
    "http": SchemeKind.HTTP,
    "apiKey": SchemeKind.API_KEY,
    "openIdConnect": SchemeKind.OPENID,
    "mutualTLS": SchemeKind.MTLS,
}


@dataclass(frozen=True)
class SecurityScheme:
    """One declared scheme, whatever the dialect that wrote it."""

    name: str
    kind: SchemeKind
    description: str = ""
    #: HTTP auth: "Bearer", "Basic"...
    http_scheme: str = ""
    #: apiKey: "header", "query" or "cookie", and the parameter's name.
    key_location: str = ""
    key_name: str = ""
    #: OAuth2 client credentials flow's tokenUrl (as written; may be relative), if any.
    token_url: str = ""
    #: OAuth2 flows the card declares (``clientCredentials``, ``authorizationCode``...).
    flows: tuple[str, ...] = ()
    #: RFC 8414 metadata URL (OAuth2) or OIDC discovery URL (openIdConnect).
    metadata_url: str = ""

    @property
    def label(self) -> str:
        """A short description, e.g. ``OAuth2 (clientCredentials)`` or ``API key in header
        X-API-Key``."""
        if self.kind is SchemeKind.OAUTH2:
            return f"OAuth2 ({', '.join(self.flows) or 'no flow'})"
        if self.kind is SchemeKind.HTTP:
            return f"HTTP {self.http_scheme or 'auth'}"
        if self.kind is SchemeKind.API_KEY:
            return f"API key in {self.key_location or '?'} {self.key_name or '?'}"
        if self.kind is SchemeKind.OPENID:
            return "OpenID Connect"
        if self.kind is SchemeKind.MTLS:
            return "mutual TLS" + (f": {self.description}" if self.description else "")
        return "unknown scheme"


#: One alternative of a requirement: every scheme named must be satisfied (AND), with its
#: scopes; the alternatives of a list are OR.
Requirement = tuple[tuple[str, tuple[str, ...]], ...]


def _text(value: Any, limit: int = 500) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _oauth2(name: str, body: dict[str, Any], description: str) -> SecurityScheme:
    flows = body.get("flows") if isinstance(body.get("flows"), dict) else {}
    assert isinstance(flows, dict)
    credentials = flows.get("clientCredentials")
    token_url = credentials.get("tokenUrl") if isinstance(credentials, dict) else None
    return SecurityScheme(
        name,
        SchemeKind.OAUTH2,
        description,
        token_url=_text(token_url, 2000),
        flows=tuple(str(f)[:40] for f in list(flows)[:8]),
        metadata_url=_text(body.get("oauth2MetadataUrl"), 2000),
    )


def read_scheme(name: str, raw: Any) -> SecurityScheme | None:
    """One scheme in either dialect, or None when it cannot be read."""
    if not isinstance(raw, dict):
        return None
    if isinstance(raw.get("type"), str):  # 0.3: OpenAPI-shaped
        kind, body = _TYPES.get(raw["type"], SchemeKind.UNKNOWN), raw
        location = body.get("in")
    else:
        found = [(k, v) for k, v in raw.items() if k in _WRAPPERS and isinstance(v, dict)]
        if not found:
            return SecurityScheme(name, SchemeKind.UNKNOWN)
        kind, body = _WRAPPERS[found[0][0]], found[0][1]
        location = body.get("location")
    description = _text(body.get("description"))
    if kind is SchemeKind.OAUTH2:
        return _oauth2(name, body, description)
    return SecurityScheme(
        name,
        kind,
        description,
        http_scheme=_text(body.get("scheme"), 40),
        key_location=_text(location, 20).lower(),
        key_name=_text(body.get("name"), 200),
        metadata_url=_text(body.get("openIdConnectUrl"), 2000),
    )


def read_schemes(raw: Any, warnings: list[str]) -> tuple[SecurityScheme, ...]:
    """``securitySchemes`` (a map of name -> scheme) in either dialect."""
    if not isinstance(raw, dict):
        return ()
    schemes = []
    for name, entry in list(raw.items())[:MAX_SCHEMES]:
        scheme = read_scheme(str(name)[:100], entry)
        if scheme is None:
            warnings.append(f"security scheme {str(name)[:100]!r} is not an object; ignored")
        else:
            schemes.append(scheme)
    return tuple(schemes)


def _scopes(value: Any) -> tuple[str, ...]:
    if isinstance(value, dict):  # 1.0: {"list": [...]}; ProtoJSON writes no scopes as {}
        value = value.get("list", [])
    if not isinstance(value, list):
        return ()
    return tuple(s[:200] for s in value[:MAX_SCOPES] if isinstance(s, str))


def read_requirements(owner: dict[str, Any]) -> tuple[Requirement, ...] | None:
    """The requirement alternatives of a card or skill (1.0 ``securityRequirements`` or 0.3
    ``security``); None when it declares none (an empty list is "no credential needed")."""
    raw = owner.get("securityRequirements", owner.get("security"))
    if not isinstance(raw, list):
        return None
    alternatives: list[Requirement] = []
    for entry in raw[:MAX_ALTERNATIVES]:
        if not isinstance(entry, dict):
            continue
        members = entry.get("schemes") if isinstance(entry.get("schemes"), dict) else entry
        assert isinstance(members, dict)
        alternatives.append(
            tuple((str(name)[:100], _scopes(scopes)) for name, scopes in members.items())
        )
    return tuple(alternatives)
