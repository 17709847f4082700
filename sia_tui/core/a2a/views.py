"""Dialect-independent views of A2A objects (1.0 and 0.3 parse into these).

Each view keeps the ``raw`` JSON it was read from; the UI shows raw bytes from the
Exchange, never a re-serialization of these views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.a2a.security import Requirement, SecurityScheme
from sia_tui.core.task_state import FINISHED_STATES


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


@dataclass(frozen=True)
class Part:
    """A message or artifact part: exactly one of data / text / raw / url."""

    kind: str
    value: Any
    media_type: str | None = None


@dataclass(frozen=True)
class Message:
    """An A2A Message."""

    message_id: str
    role: str  # "ROLE_USER" | "ROLE_AGENT" (0.3 roles are normalized)
    parts: tuple[Part, ...]
    raw: dict[str, Any]

    def data_parts(self) -> list[Any]:
        """The ``data`` values of every data part, in order."""
        return [p.value for p in self.parts if p.kind == "data"]


@dataclass(frozen=True)
class Artifact:
    """An A2A Artifact."""

    artifact_id: str
    name: str | None
    parts: tuple[Part, ...]
    raw: dict[str, Any]

    def data_parts(self) -> list[Any]:
        """The ``data`` values of every data part, in order."""
        return [p.value for p in self.parts if p.kind == "data"]


@dataclass(frozen=True)
class Task:
    """An A2A Task (state normalized to ``TASK_STATE_*`` whatever the dialect)."""

    id: str
    context_id: str | None
    #: A ``TaskState``; a state newer than this client (``TASK_STATE_PAUSED``) keeps its name.
    state: str
    status_message: Message | None
    artifacts: tuple[Artifact, ...]
    raw: dict[str, Any]
    #: The task's history (the messages exchanged so far, as the agent keeps them), read
    #: so that a report can show it; empty when the agent sends none. Read from ``raw``,
    #: so not compared: a task saved before history was read is the same task.
    history: tuple[Message, ...] = field(default=(), compare=False)

    @property
    def terminal(self) -> bool:
        """True once the task will not change any more (or waits for the user)."""
        return self.state in FINISHED_STATES


@dataclass(frozen=True)
class TaskPage:
    """One page of ListTasks: the tasks, and the token of the next page ("" on the last)."""

    tasks: tuple[Task, ...]
    next_page_token: str
    #: How many tasks the agent says match in all, when it says.
    total_size: int | None = None
    #: Tasks on the page that could not be read, counted (and their first problem).
    unreadable: int = 0
    problem: str | None = None


@dataclass(frozen=True)
class StreamEvent:
    """One SSE event, normalized: kind is "task", "message", "status" or "artifact"."""

    kind: str
    task: Task | None = None
    message: Message | None = None
    #: For "status" events: the new state and its optional message.
    state: str | None = None
    status_message: Message | None = None
    #: For "artifact" events.
    artifact: Artifact | None = None
    append: bool = False
    last_chunk: bool = False
    #: 0.3 ``final: true`` flag, or a terminal/interrupted state.
    final: bool = False
    raw: dict[str, Any] = field(default_factory=dict)
