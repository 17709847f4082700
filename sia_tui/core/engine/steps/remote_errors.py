"""A failed or rejected task's draft error object as a step's failure (RULES ERR1-ERR5).

The object itself is read by ``run/agent_answer.py``, which the probe reads too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from sia_tui.core.a2a.task_views import Task
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.findings import Finding
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.run.agent_answer import RemoteError as RemoteError
from sia_tui.core.run.agent_answer import read_remote_error as read_remote_error
from sia_tui.core.run.evidence import Blame, FailureCategory, NextAction, Party
from sia_tui.core.run.later_evidence import DelegationEvidence, ReceptionEvidence, TaskError

if TYPE_CHECKING:
    from sia_tui.core.engine.context import EngineContext
    from sia_tui.core.run.read_model import StepResult


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
        origin=DetectedBy.REMOTE,
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
