"""Reading the draft error object from a failed or rejected task (RULES ERR1-ERR5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sia_tui.core.a2a.model import Task
from sia_tui.core.codes import ErrorCode, as_error_code, expected_states
from sia_tui.core.findings import Finding, Severity


@dataclass
class RemoteError:
    """The error a task reported, with what was wrong with the way it was reported."""

    code: ErrorCode | None
    message: str
    state: str
    details: list[dict[str, Any]] = field(default_factory=list)
    #: Conformance findings about the error object itself (ERR1, ERR2, ERR3, ERR5).
    findings: list[Finding] = field(default_factory=list)


def _warn(message: str, rule: str, pointer: str = "") -> Finding:
    return Finding(message, severity=Severity.WARNING, rule=rule, pointer=pointer)


def read_remote_error(task: Task) -> RemoteError:
    """Extract ``{code, message, details}`` from the task's final status message."""
    findings: list[Finding] = []
    status = task.status_message
    data_parts = status.data_parts() if status else []
    if len(data_parts) != 1:
        # RULES ERR1: exactly one Data Part carries the error object.
        findings.append(
            _warn(
                f"the final status message has {len(data_parts)} data parts; the draft requires "
                "exactly one carrying the error object",
                "ERR1",
                "/status/message/parts",
            )
        )
    error = next((p for p in data_parts if isinstance(p, dict) and "code" in p), None)
    if error is None:
        text = " ".join(str(p.value) for p in status.parts if p.kind == "text") if status else ""
        return RemoteError(
            None, text or "the agent gave no error object", task.state, findings=findings
        )
    code = error.get("code")
    code_text = as_error_code(code)
    if code_text is None:
        # RULES ERR2: an unknown code is reported as a finding, never shown as a draft code.
        findings.append(
            _warn(
                f"error code {str(code)[:80]!r} is not one of the draft's ten codes",
                "ERR2",
                "/code",
            )
        )
    elif task.state not in expected_states(code_text):
        # RULES ERR3: the terminal state depends on when the failure happened.
        findings.append(
            _warn(
                f"{code_text} should end in {' or '.join(sorted(expected_states(code_text)))}, "
                f"not {task.state}",
                "ERR3",
                "/status/state",
            )
        )
    details = error.get("details") or []
    clean: list[dict[str, Any]] = []
    if isinstance(details, list):
        for index, entry in enumerate(details):
            if not isinstance(entry, dict) or not isinstance(entry.get("instance_path"), str):
                findings.append(
                    _warn(
                        "a details entry lacks instance_path (a JSON Pointer)",
                        "ERR5",
                        f"/details/{index}",
                    )
                )
                continue
            clean.append(entry)
    message = error.get("message")
    return RemoteError(
        code_text, message if isinstance(message, str) else "", task.state, clean, findings
    )


def details_as_findings(error: RemoteError) -> list[Finding]:
    """Turn the agent's ``details`` into findings so they list like local ones."""
    out = []
    for entry in error.details:
        text = entry.get("message")
        out.append(
            Finding(
                text
                if isinstance(text, str)
                else f"{entry.get('keyword', 'invalid')} at {entry['instance_path'] or '/'}",
                pointer=entry["instance_path"],
                code=error.code,
                schema_path=_text(entry.get("schema_path")),
                keyword=_text(entry.get("keyword")),
                expected=_text(entry.get("expected")),
                actual=_text(entry.get("actual")),
            )
        )
    return out


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
