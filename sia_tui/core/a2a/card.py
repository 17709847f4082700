"""Read an Agent Card (1.0, 0.3 or hybrid) into ``AgentCard``, forgiving but noting oddities."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from sia_tui.core.a2a.forgiven import card_warnings
from sia_tui.core.a2a.security import read_requirements, read_schemes
from sia_tui.core.a2a.views import (
    AgentCard,
    CardSkill,
    Interface,
    ProtocolBinding,
    SchemaInterfaceAd,
    SkillBinding,
)
from sia_tui.core.bounded import cap_warnings
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.errors import A2AProtocolError

_MAJOR_MINOR = re.compile(r"^(\d+)\.(\d+)")
_KNOWN_BINDINGS = frozenset(ProtocolBinding)
#: The binding of an interface that names none (A2A 0.3's default, assumed with a warning).
_DEFAULT_BINDING = ProtocolBinding.JSONRPC.value


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def major_minor(value: Any, default: str) -> str:
    """``"0.3.0"`` -> ``"0.3"``; anything unreadable -> ``default``."""
    if isinstance(value, str):
        match = _MAJOR_MINOR.match(value.strip())
        if match:
            return f"{int(match.group(1))}.{int(match.group(2))}"
    return default


def _resolve(url: str, source_url: str | None, warnings: list[str], binding: str) -> str:
    """Relative interface URLs are resolved against the card URL (never fetched here); a
    gRPC ``host:port`` is not a relative URL (grpc/target.py reads it)."""
    if binding == ProtocolBinding.GRPC or url.lower().startswith(("http://", "https://")):
        return url
    if source_url and source_url.lower().startswith(("http://", "https://")):
        resolved = urljoin(source_url, url)
        warnings.append(f"relative interface URL {url!r} resolved to {resolved!r}")
        return resolved
    warnings.append(f"interface URL {url!r} is not absolute and cannot be resolved")
    return url


def _interfaces_v1(entries: list[Any], source: str | None, warnings: list[str]) -> list[Interface]:
    found = []
    for index, entry in enumerate(entries):
        url = _str(entry.get("url")) if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not url:
            warnings.append(f"supportedInterfaces[{index}] has no url; ignored")
            continue
        binding = _str(entry.get("protocolBinding"))
        if binding is None:
            warnings.append(f"supportedInterfaces[{index}] has no protocolBinding; JSONRPC assumed")
        version = entry.get("protocolVersion")
        if not isinstance(version, str):
            warnings.append(f"supportedInterfaces[{index}] has no protocolVersion; 1.0 assumed")
        elif _MAJOR_MINOR.fullmatch(version) is None:
            warnings.append(
                f"supportedInterfaces[{index}].protocolVersion {version!r} is not Major.Minor"
            )
        found.append(
            Interface(
                url=_resolve(url, source, warnings, binding or _DEFAULT_BINDING),
                binding=binding or _DEFAULT_BINDING,
                protocol_version=major_minor(version, "1.0"),
                tenant=_str(entry.get("tenant")) or None,
            )
        )
    return _flag_bindings(found, warnings)


def _flag_bindings(found: list[Interface], warnings: list[str]) -> list[Interface]:
    for item in found:
        if item.binding not in _KNOWN_BINDINGS:
            warnings.append(f"unknown binding {item.binding!r} at {item.url!r}: shown, not called")
    return found


def _interfaces_v03(
    card: dict[str, Any], source: str | None, warnings: list[str]
) -> list[Interface]:
    version = major_minor(card.get("protocolVersion"), "0.3")
    if "protocolVersion" not in card:
        warnings.append("0.3 card without protocolVersion; 0.3 assumed")
    found: list[Interface] = []
    url = _str(card.get("url"))
    if url:
        binding = _str(card.get("preferredTransport")) or _DEFAULT_BINDING
        found.append(Interface(_resolve(url, source, warnings, binding), binding, version))
    extra = card.get("additionalInterfaces")
    for index, entry in enumerate(extra if isinstance(extra, list) else []):
        if not isinstance(entry, dict) or not _str(entry.get("url")):
            warnings.append(f"additionalInterfaces[{index}] has no url; ignored")
            continue
        transport = _str(entry.get("transport")) or _DEFAULT_BINDING
        item = Interface(_resolve(entry["url"], source, warnings, transport), transport, version)
        if item not in found:
            found.append(item)
    return _flag_bindings(found, warnings)


def _skills(raw: Any, warnings: list[str]) -> tuple[CardSkill, ...]:
    skills = []
    for index, entry in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            warnings.append(f"skills[{index}] has no string id; ignored")
            continue
        for member in ("name", "description", "tags"):
            if member not in entry:
                warnings.append(f"skills[{index}] ({entry['id']}) has no {member}")
        tags, examples = entry.get("tags"), entry.get("examples")
        skills.append(
            CardSkill(
                id=entry["id"],
                name=_str(entry.get("name")) or "",
                description=_str(entry.get("description")) or "",
                tags=tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else (),
                examples=tuple(e for e in examples if isinstance(e, str))
                if isinstance(examples, list)
                else (),
                security_requirements=read_requirements(entry),
            )
        )
    return tuple(skills)


def _schema_interface(extensions: Any, warnings: list[str]) -> SchemaInterfaceAd | None:
    """The schema-interface extension (RULES ADV1); malformed bindings become warnings."""
    for entry in extensions if isinstance(extensions, list) else []:
        if not isinstance(entry, dict) or entry.get("uri") != EXTENSION_URI:
            continue
        params = entry.get("params") if isinstance(entry.get("params"), dict) else {}
        assert isinstance(params, dict)
        bindings = []
        raw_skills = params.get("skills")
        for index, item in enumerate(raw_skills if isinstance(raw_skills, list) else []):
            values = [
                item.get(k) if isinstance(item, dict) else None
                for k in ("skill_id", "skill_version", "interface_digest")
            ]
            if all(isinstance(v, str) for v in values):
                bindings.append(SkillBinding(*(str(v) for v in values)))
            else:
                warnings.append(f"schema-interface params.skills[{index}] is malformed; ignored")
        return SchemaInterfaceAd(
            interface_version=params.get("interface_version"),
            required=entry.get("required") is True,
            bindings=tuple(bindings),
            raw=entry,
        )
    return None


def parse_card(data: Any, *, source_url: str | None = None) -> AgentCard:
    """Parse a card object; only a non-object raises (A2AProtocolError)."""
    if not isinstance(data, dict):
        raise A2AProtocolError("the Agent Card is not a JSON object")
    warnings: list[str] = []
    for member in ("name", "description", "version"):
        if not isinstance(data.get(member), str):
            warnings.append(f"card has no string '{member}'")
    has_v1 = isinstance(data.get("supportedInterfaces"), list)
    has_v03 = any(k in data for k in ("url", "preferredTransport", "additionalInterfaces"))
    if has_v1:
        interfaces = _interfaces_v1(data["supportedInterfaces"], source_url, warnings)
        dialect = "hybrid" if has_v03 else "1.0"
    elif has_v03:
        interfaces = _interfaces_v03(data, source_url, warnings)
        dialect = "0.3"
        warnings.append("0.3 card shape (url/preferredTransport): read with A2A 0.3 tolerance")
    else:
        interfaces, dialect = [], "1.0"
        warnings.append("card names no interface (no supportedInterfaces, no url)")
    capabilities = data.get("capabilities")
    if not isinstance(capabilities, dict):
        warnings.append("card has no capabilities object")
        capabilities = {}
    schemes = data.get("securitySchemes")
    if isinstance(schemes, dict):
        for name, scheme in schemes.items():
            if isinstance(scheme, dict) and "type" in scheme:
                warnings.append(f"security scheme {name!r} uses the 0.3 OpenAPI form")
    if "skills" not in data:
        warnings.append("card has no skills")
    if dialect != "0.3":
        warnings += card_warnings(data)
    provider = data.get("provider")
    return AgentCard(
        raw=data,
        name=_str(data.get("name")) or "",
        description=_str(data.get("description")) or "",
        version=_str(data.get("version")) or "",
        interfaces=tuple(interfaces),
        skills=_skills(data.get("skills"), warnings),
        streaming=capabilities.get("streaming") is True,
        push_notifications=capabilities.get("pushNotifications") is True,
        schema_interface=_schema_interface(capabilities.get("extensions"), warnings),
        provider=provider if isinstance(provider, dict) else None,
        security_schemes=dict(schemes) if isinstance(schemes, dict) else {},
        schemes=read_schemes(schemes, warnings),
        security_requirements=read_requirements(data),
        extended_card=capabilities.get("extendedAgentCard") is True
        or data.get("supportsAuthenticatedExtendedCard") is True,
        card_dialect=dialect,
        warnings=tuple(cap_warnings(warnings)),
    )
