"""Dialect-independent views of an Agent Card and its interfaces (1.0 and 0.3 parse into
these); what a task exchanges (messages, artifacts, tasks, stream events) is in
``task_views.py``, which step 1 (fetching the card) never loads.

Each view keeps the ``raw`` JSON it was read from; the UI shows raw bytes from the
Exchange, never a re-serialization of these views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.a2a.security import Requirement, SecurityScheme


class ProtocolBinding(StrEnum):
    """The ``protocolBinding`` of each binding sia-tui calls (A2A 1.0 section 5.8); a card
    may name others (custom binding URIs), which are shown and never called."""

    JSONRPC = "JSONRPC"
    HTTP_JSON = "HTTP+JSON"
    GRPC = "GRPC"


class BindingChoice(StrEnum):
    """A binding as the user chooses it (``Target.binding``; sessions and reports keep
    this spelling), and the card's name for it."""

    JSONRPC = "jsonrpc"
    HTTP_JSON = "http-json"
    GRPC = "grpc"

    @property
    def protocol_binding(self) -> ProtocolBinding:
        """The card's ``protocolBinding`` for this choice."""
        return ProtocolBinding[self.name]


@dataclass(frozen=True)
class Interface:
    """One endpoint of an agent (``supportedInterfaces`` entry, or derived from a 0.3 card)."""

    url: str
    #: A ``ProtocolBinding`` value or a custom binding URI.
    binding: str
    #: "Major.Minor" as declared, e.g. "1.0" or "0.3".
    protocol_version: str
    tenant: str | None = None

    @property
    def dialect(self) -> str:
        """ "0.3" for any 0.x interface, else "1.0": chooses the codec."""
        return "0.3" if self.protocol_version.startswith("0.") else "1.0"

    @property
    def badge(self) -> str:
        """Short label for the UI, e.g. ``JSONRPC 1.0``."""
        return f"{self.binding} {self.protocol_version}"

    @property
    def callable(self) -> bool:
        """JSON-RPC and HTTP+JSON, and gRPC in 1.0 (the 0.3 gRPC service is another proto);
        custom bindings are shown but never called (WIRE.md)."""
        if self.binding == ProtocolBinding.GRPC:
            return self.dialect == "1.0"
        return self.binding in (ProtocolBinding.JSONRPC, ProtocolBinding.HTTP_JSON)


@dataclass(frozen=True)
class SkillBinding:
    """One ``params.skills`` entry of the schema-interface extension (RULES ADV1)."""

    skill_id: str
    skill_version: str
    interface_digest: str


@dataclass(frozen=True)
class SchemaInterfaceAd:
    """The schema-interface extension advertisement found in the card (RULES ADV1-ADV3)."""

    interface_version: Any
    required: bool
    bindings: tuple[SkillBinding, ...]
    #: The extension object exactly as it appeared in the card.
    raw: dict[str, Any]


@dataclass(frozen=True)
class CardSkill:
    """An ``AgentSkill`` entry."""

    id: str
    name: str
    description: str
    tags: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    #: The skill's own requirement alternatives; None: the card's apply.
    security_requirements: tuple[Requirement, ...] | None = None


@dataclass(frozen=True)
class AgentCard:
    """A parsed Agent Card with what this client had to forgive listed in ``warnings``."""

    raw: dict[str, Any]
    name: str
    description: str
    version: str
    interfaces: tuple[Interface, ...]
    skills: tuple[CardSkill, ...]
    streaming: bool
    #: The schema-interface extension, or None when the card does not carry it (RULES ADV4).
    schema_interface: SchemaInterfaceAd | None
    provider: dict[str, Any] | None = None
    security_schemes: dict[str, Any] = field(default_factory=dict)
    #: ``security_schemes`` read in either dialect (security.py).
    schemes: tuple[SecurityScheme, ...] = ()
    #: The card's requirement alternatives (1.0 ``securityRequirements``, 0.3 ``security``);
    #: None when it declares none.
    security_requirements: tuple[Requirement, ...] | None = None
    #: ``capabilities.extendedAgentCard`` (0.3: ``supportsAuthenticatedExtendedCard``).
    extended_card: bool = False
    #: ``capabilities.pushNotifications`` is true (missing is false, A2A 1.0 section 4.4).
    push_notifications: bool = False
    #: "1.0", "0.3" or "hybrid": which card shape was read.
    card_dialect: str = "1.0"
    warnings: tuple[str, ...] = ()

    def skill(self, skill_id: str) -> CardSkill | None:
        """The card's skill entry with this id, if any."""
        return next((s for s in self.skills if s.id == skill_id), None)

    def scheme(self, name: str) -> SecurityScheme | None:
        """The declared scheme with this name, if any."""
        return next((s for s in self.schemes if s.name == name), None)

    def requirements_of(self, skill_id: str | None) -> tuple[Requirement, ...] | None:
        """What a skill requires: its own requirements, else the card's."""
        skill = self.skill(skill_id) if skill_id else None
        if skill is not None and skill.security_requirements is not None:
            return skill.security_requirements
        return self.security_requirements
