"""What a skill requires (its card's security requirements) and what sia-tui will send.

One plan, read by every surface (the Overview, ``check``'s text and ``--json``) and by the
verdict of an HTTP 401/403. sia-tui sends the same credentials with every request to the
card's origin (A2A 1.0 section 7.3): an OAuth2 token's scopes are the union of what the
card and its skills require, so one token serves every skill.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.security import Requirement, SchemeKind, SecurityScheme
from sia_tui.core.a2a.views import AgentCard
from sia_tui.core.needs import Need, word
from sia_tui.core.redaction.redact import is_credential_header

#: The longest requirement a plan says (a card may declare hundreds of scopes).
MAX_SAID = 400
#: The names of what the user can give, as a plan and a verdict say them (never values).
OAUTH2, API_KEY, BEARER, CERT = "oauth2", "api-key", "bearer", "client-certificate"


def provided(options: ClientOptions) -> tuple[str, ...]:
    """The names of the credentials the user gave (``header:NAME`` for a credential header)."""
    names = [f"header:{name}" for name, _ in options.headers if is_credential_header(name)]
    for flag, given in (
        (OAUTH2, options.oauth2),
        (API_KEY, options.api_key),
        (BEARER, options.bearer),
        (CERT, options.cert),
    ):
        if given:
            names.append(flag)
    return tuple(names)


def _answer(scheme: SecurityScheme | None, given: tuple[str, ...]) -> tuple[str, str]:
    """What sia-tui sends for one scheme, and which flag would give it when nothing is."""
    if scheme is None:
        return "", "the card does not declare this scheme"
    kind = scheme.kind
    if kind in (SchemeKind.OAUTH2, SchemeKind.OPENID) and OAUTH2 in given:
        return "an OAuth2 access token (client credentials)", ""
    if kind in (SchemeKind.OAUTH2, SchemeKind.OPENID, SchemeKind.HTTP) and BEARER in given:
        return f"the bearer token ({word(Need.BEARER)})", ""
    if kind is SchemeKind.HTTP and "header:Authorization" in given:
        return f"the Authorization header ({word(Need.HEADER)})", ""
    if kind is SchemeKind.API_KEY and API_KEY in given:
        return f"the API key ({word(Need.API_KEY)}) in {scheme.key_location} {scheme.key_name}", ""
    if kind is SchemeKind.API_KEY and f"header:{scheme.key_name}" in given:
        return f"the {scheme.key_name} header ({word(Need.HEADER)})", ""
    if kind is SchemeKind.MTLS and CERT in given:
        return f"the client certificate ({word(Need.CLIENT_CERT)})", ""
    oauth2 = word(Need.OAUTH2_OR_BEARER)
    needed = {
        SchemeKind.OAUTH2: oauth2,
        SchemeKind.OPENID: oauth2,
        SchemeKind.HTTP: word(Need.BEARER),
        SchemeKind.API_KEY: word(Need.API_KEY),
        SchemeKind.MTLS: f"{word(Need.CLIENT_CERT)} and {word(Need.CLIENT_KEY)}",
    }
    return "", f"nothing is sent: give {needed.get(kind, 'a ' + word(Need.HEADER))}"


@dataclass(frozen=True)
class SchemeNeed:
    """One scheme an alternative requires, and what sia-tui sends for it."""

    scheme: str
    label: str
    scopes: tuple[str, ...]
    #: What is sent for it ("" when nothing), else how to send it.
    sent: str
    missing: str

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form."""
        return {
            "scheme": self.scheme,
            "label": self.label,
            "scopes": list(self.scopes),
            "sent": self.sent or None,
            "missing": self.missing or None,
        }


@dataclass(frozen=True)
class AuthPlan:
    """What one skill requires (alternatives of schemes, all of one needed) and what is sent."""

    skill_id: str | None
    #: False when neither the skill nor the card declares a requirement.
    declared: bool
    alternatives: tuple[tuple[SchemeNeed, ...], ...]
    #: The names of the credentials the user gave.
    given: tuple[str, ...]

    @property
    def satisfied(self) -> bool:
        """True when some alternative has every scheme sent (or nothing is required)."""
        if not self.declared or not self.alternatives:
            return True
        return any(all(need.sent for need in alt) for alt in self.alternatives)

    @property
    def requires(self) -> str:
        """What is required, in one line ("m2m (OAuth2 ..., scopes a2a.invoke) or key ...")."""
        if not self.declared:
            return "no security requirement declared"
        if not self.alternatives or not any(self.alternatives):
            return "no credential (an empty requirement)"
        said = " or ".join(
            " and ".join(
                f"{n.scheme} ({n.label}" + (f", scopes {' '.join(n.scopes)})" if n.scopes else ")")
                for n in alt
            )
            for alt in self.alternatives
        )
        # Agent text in every verdict that quotes it: one line, never a wall.
        return said if len(said) <= MAX_SAID else said[: MAX_SAID - 1] + "…"

    @property
    def sends(self) -> str:
        """What sia-tui sends, in one line (names, never values)."""
        sent = sorted({n.sent for alt in self.alternatives for n in alt if n.sent})
        if sent:
            return "; ".join(sent)
        return f"credentials given: {', '.join(self.given)}" if self.given else "no credentials"

    @property
    def missing(self) -> str:
        """How to satisfy the first alternative, when none is."""
        if self.satisfied:
            return ""
        return next(n.missing for n in self.alternatives[0] if not n.sent)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form (the ``auth`` member of the report)."""
        return {
            "skill_id": self.skill_id,
            "declared": self.declared,
            "requires": self.requires,
            "alternatives": [[n.to_json() for n in alt] for alt in self.alternatives],
            "given": list(self.given),
            "sends": self.sends,
            "satisfied": self.satisfied,
            "missing": self.missing or None,
        }


def plan_for(card: AgentCard, skill_id: str | None, given: tuple[str, ...]) -> AuthPlan:
    """The plan of one skill (or of the card, ``skill_id`` None)."""
    requirements = card.requirements_of(skill_id)
    alternatives = []
    for alternative in requirements or ():
        needs = []
        for name, scopes in alternative:
            scheme = card.scheme(name)
            sent, missing = _answer(scheme, given)
            label = scheme.label if scheme is not None else "undeclared scheme"
            needs.append(SchemeNeed(name, label, scopes, sent, missing))
        alternatives.append(tuple(needs))
    return AuthPlan(skill_id, requirements is not None, tuple(alternatives), given)


def _required(card: AgentCard) -> list[Requirement]:
    found = list(card.security_requirements or ())
    for skill in card.skills:
        found += skill.security_requirements or ()
    return found


def scheme_of_kind(card: AgentCard, *kinds: SchemeKind) -> SecurityScheme | None:
    """The first scheme of these kinds a requirement names, else the first declared."""
    for alternative in _required(card):
        for name, _ in alternative:
            scheme = card.scheme(name)
            if scheme is not None and scheme.kind in kinds:
                return scheme
    return next((s for s in card.schemes if s.kind in kinds), None)


def scopes_for(card: AgentCard, scheme: str) -> tuple[str, ...]:
    """Every scope the card and its skills require of ``scheme``, in order, once each."""
    scopes: dict[str, None] = {}
    for alternative in _required(card):
        for name, wanted in alternative:
            if name == scheme:
                scopes.update(dict.fromkeys(wanted))
    return tuple(scopes)
