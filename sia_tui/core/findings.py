"""Located findings: the common currency of validation, verification and the engine."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sia_tui.core.codes import ErrorCode


class Severity(StrEnum):
    """How much a finding matters."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    """One located problem or observation.

    ``pointer`` is an RFC 6901 JSON Pointer into the value the finding is about
    (RULES FMT2); ``rule`` is the RULES.md id that the check enforces, e.g. "SR4".
    """

    message: str
    severity: Severity = Severity.ERROR
    pointer: str = ""
    rule: str | None = None
    #: The draft code this finding maps to, e.g. ErrorCode.INTERFACE_INVALID.
    code: ErrorCode | None = None
    #: JSON Schema details when the finding is a validation error (RULES ERR5).
    schema_path: str | None = None
    keyword: str | None = None
    expected: str | None = None
    actual: str | None = None
    #: 1-based position in the source text, when the instance came from text.
    line: int | None = None
    column: int | None = None

    def as_detail(self) -> dict[str, str]:
        """The draft's ``details`` entry shape (RULES ERR5): instance_path plus optionals."""
        detail = {"instance_path": self.pointer}
        for key in ("schema_path", "keyword", "expected", "actual"):
            value = getattr(self, key)
            if value is not None:
                detail[key] = value
        return detail
