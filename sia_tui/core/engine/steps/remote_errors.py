"""Reading the draft error object from a failed or rejected task (RULES ERR1-ERR5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from sia_tui.core.a2a.model import Task
from sia_tui.core.codes import ErrorCode, Origin, as_error_code, expected_states
from sia_tui.core.engine.evidence import (
    Blame,
    DelegationEvidence,
    FailureCategory,
    NextAction,
    Party,
    ReceptionEvidence,
    TaskError,
)
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.jsonkit.pointer import display

if TYPE_CHECKING:
    from sia_tui.core.engine.context import EngineContext
    from sia_tui.core.engine.model import StepResult


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
    elif (states := expected_states(code_text)) and task.state not in states:
        # RULES ERR3: the terminal state depends on when the failure happened. A code the
        # draft gives no terminal state (skill_not_advertised: local, before any request)
        # has no ERR3 state to break.
        findings.append(
            _warn(
                f"{code_text} should end in {' or '.join(sorted(states))}, not {task.state}",
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
                else f"{entry.get('keyword', 'invalid')} at {display(entry['instance_path'])}",
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


def task_error_of(error: RemoteError, step: int) -> TaskError:
    """The typed evidence of the agent's error object."""
    return TaskError(
        step=step,
        code=error.code,
        message=error.message,
        state=error.state,
        details=list(error.details),
    )


def raise_remote(ctx: EngineContext, task: Task, result: StepResult) -> NoReturn:
    """Record the agent's error in the step's evidence and fail the step with it."""
    error = read_remote_error(task)
    findings = details_as_findings(error) + error.findings
    result.findings.extend(findings)
    if isinstance(result.evidence, DelegationEvidence | ReceptionEvidence):
        result.evidence.error = task_error_of(error, result.step)
    said = f"{error.code or 'no code'}" + (f": {error.message}" if error.message else "")
    hint, blame = _judge(ctx, error, said)
    raise StepFailed(
        f"the agent ended the task {task.state}: {said}",
        code=error.code,
        origin=Origin.REMOTE,
        findings=findings,
        category=None if error.code else FailureCategory.REMOTE,
        hint=hint,
        blame=blame,
        next_action=NextAction.SHOW_RESULTS,
    )


def _judge(ctx: EngineContext, error: RemoteError, said: str) -> tuple[str | None, Blame]:
    """The hint and who is at fault for an error the agent reported."""
    run = ctx.run
    code = error.code
    if code is ErrorCode.INTERFACE_MISMATCH and _sent_what_it_published(ctx):
        # RULES INV2: the request carried exactly the version and digest the agent
        # advertised and returned; re-fetching cannot help.
        version, digest = run.skill_version, run.digests.advertised
        return (
            "The agent advertised and returned this skill_version and interface_digest, and "
            "the request carried exactly those: its comparison with its active document is "
            "wrong (RULES INV2). Unless it was redeployed in between, re-fetching will not help.",
            Blame(
                party=Party.AGENT,
                statement=f"the agent rejects its own interface: it advertised and returned "
                f"skill_version {version} and interface_digest {digest}, and the request "
                "carried exactly those",
            ),
        )
    if code is ErrorCode.INPUT_INVALID:
        return (
            "The arguments validate against the input schema the agent published; its own "
            "validation disagrees with that schema (RULES INV3).",
            Blame(
                party=Party.AGENT,
                statement="the agent rejects arguments that validate against its own input "
                f"schema ({said})",
            ),
        )
    if code in (ErrorCode.CONSTRAINT_REJECTED, ErrorCode.AUTHORIZATION_FAILED):
        return None, Blame(party=Party.CALLER, statement=f"the agent refused the request: {said}")
    return None, Blame(
        party=Party.AGENT, statement=f"the agent ended the task {error.state}: {said}"
    )


def _sent_what_it_published(ctx: EngineContext) -> bool:
    """True when the request's version and digest equal the advertised and returned ones."""
    run = ctx.run
    document = run.document if isinstance(run.document, dict) else {}
    return (
        run.digests.advertised is not None
        and run.digests.advertised == run.digests.returned
        and document.get("skill_version") == run.skill_version
    )
