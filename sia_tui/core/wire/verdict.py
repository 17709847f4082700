"""What the wire check says of one exchange: its issues, each located and named."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class WireSeverity(StrEnum):
    """An error breaks the A2A schema; a warning is an unknown member (ProtoJSON readers
    skip it, a strict peer may refuse it)."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class WireIssue:
    """One place where a message departs from its revision's schema."""

    severity: WireSeverity
    #: Which message of the exchange: "request", "response", "event 3", "push 2".
    where: str
    #: RFC 6901 pointer into that message (for a missing member, where it belongs).
    pointer: str
    #: The message kind the schema checked there: "AgentInterface", "TaskStatus"...
    kind: str
    #: The specification's name of the field ("AgentInterface.protocol_binding"), or None
    #: for a member the specification does not have.
    field: str | None
    #: "missing", "wrong type", "unknown value", "exactly one", "unknown member"...
    problem: str
    #: A sentence a user can act on.
    message: str

    def line(self) -> str:
        """One line for text reports: ``error response /supportedInterfaces/0/... ``."""
        named = f" ({self.field})" if self.field else ""
        at = self.pointer or "/"
        return f"{self.severity.value} {self.where} {at} {self.kind}{named}: {self.message}"


@dataclass(frozen=True)
class WireVerdict:
    """The wire check of one exchange against one A2A revision's schema."""

    #: The A2A revision the exchange was checked against ("1.0", or "0.3" for a tolerated agent).
    revision: str
    #: The kinds checked, one per message ("JSONRPCResponse.SendMessage", "StreamResponse").
    kinds: tuple[str, ...]
    issues: tuple[WireIssue, ...] = ()
    #: Issues found but not kept (``limits.MAX_WIRE_ISSUES``), and how many were errors.
    more: int = 0
    more_errors: int = 0

    @property
    def errors(self) -> int:
        """Errors found, kept or not."""
        kept = sum(1 for i in self.issues if i.severity is WireSeverity.ERROR)
        return kept + self.more_errors

    @property
    def warnings(self) -> int:
        """Warnings found, kept or not."""
        return len(self.issues) + self.more - self.errors

    @property
    def word(self) -> str:
        """``ok``, ``2 warnings``, ``1 error``: the matrix's ``wire`` column, the view's badge."""
        if self.errors:
            return f"{self.errors} error" + ("s" if self.errors != 1 else "")
        if self.warnings:
            return f"{self.warnings} warning" + ("s" if self.warnings != 1 else "")
        return "ok"
