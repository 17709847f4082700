"""The machine-readable report of a run (`sia-tui check --json`): the read model as JSON."""

from __future__ import annotations

import dataclasses
from typing import Any

from sia_tui import __version__
from sia_tui.core.bounded import listed
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.engine.push import push_to_json
from sia_tui.core.findings import Finding
from sia_tui.core.run.evidence import Blame
from sia_tui.core.run.later_evidence import StepEvidence
from sia_tui.core.run.read_model import Run, StepResult
from sia_tui.core.trust.records import LockComparison, SignatureCheck


def finding_to_json(finding: Finding) -> dict[str, Any]:
    """A finding as JSON, without empty members."""
    out: dict[str, Any] = {
        "message": finding.message,
        "severity": finding.severity.value,
        "pointer": finding.pointer,
    }
    for key in ("rule", "code", "schema_path", "keyword", "expected", "actual", "line", "column"):
        value = getattr(finding, key)
        if value is not None:
            out[key] = value
    return out


def evidence_to_json(evidence: StepEvidence | None) -> dict[str, Any] | None:
    """A step's typed evidence as a JSON object (``kind`` names its class)."""
    return _plain(dataclasses.asdict(evidence)) if evidence is not None else None


def _plain(value: Any) -> Any:
    """Enums as their values, everything else as is (asdict already made dicts and lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)  # a StrEnum member becomes its plain value
    return value


def blame_to_json(blame: Blame | None) -> dict[str, str] | None:
    """``{party, statement}`` or None."""
    return {"party": blame.party.value, "statement": blame.statement} if blame else None


def step_to_json(step: StepResult) -> dict[str, Any]:
    """One of the eleven step objects."""
    return {
        "step": step.step,
        "title": step.title,
        "rule": step.rule,
        "status": step.status.value,
        "code": step.code,
        "origin": step.origin.value if step.origin else None,
        "category": step.category.value if step.category else None,
        "error_kind": step.error_kind,
        "message": step.message,
        "hint": step.hint or None,
        "next_action": step.next_action.value if step.next_action else None,
        "findings": [finding_to_json(f) for f in step.findings],
        "exchanges": list(step.exchanges),
        "evidence": evidence_to_json(step.evidence),
    }


def error_to_json(run: Run) -> dict[str, Any] | None:
    """The failing step as ``{code, origin, step, message, details, at_fault}``, or None."""
    failed = run.failed_step
    if failed is None:
        return None
    details = [
        f.as_detail()
        for f in failed.findings
        if f.keyword or f.code in (ErrorCode.INPUT_INVALID, ErrorCode.OUTPUT_INVALID)
    ]
    return {
        "code": failed.code,
        "origin": (failed.origin or DetectedBy.LOCAL).value,
        "category": failed.category.value if failed.category else None,
        "error_kind": failed.error_kind,
        "step": failed.step,
        "message": failed.message,
        "hint": failed.hint or None,
        "at_fault": blame_to_json(run.verdict.at_fault),
        "details": details,
        # The agent's A2A error as data, whatever the binding (a2a/error_data.py).
        "a2a_error": None if run.answers.a2a_error is None else run.answers.a2a_error.to_json(),
    }


def signature_to_json(check: SignatureCheck) -> dict[str, Any]:
    """One ``card_signatures`` entry (a contract: docs/TRUST.md names each member)."""
    return {
        "index": check.index,
        "kid": check.kid,
        "alg": check.alg,
        "verdict": check.verdict.value,
        "canonicalization": check.canonicalization.value if check.canonicalization else None,
        "reason": check.reason,
        "jku": check.jku,
        "keys_not_tried": check.keys_not_tried,
    }


def lock_to_json(lock: LockComparison | None) -> dict[str, Any] | None:
    """The ``lock`` object (a contract: docs/TRUST.md), or None without ``--lock``."""
    if lock is None:
        return None
    diff = (
        None
        if lock.diff_verdict is None
        else {
            "verdict": lock.diff_verdict,
            "changes": [dataclasses.asdict(change) for change in lock.changes],
        }
    )
    return {
        "status": lock.status.value,
        "agent": lock.agent,
        "skill": lock.skill_id,
        "pinned": {"skill_version": lock.pinned_version, "interface_digest": lock.pinned_digest},
        "current": {
            "skill_version": lock.current_version,
            "interface_digest": lock.current_digest,
        },
        "diff": diff,
        "reason": lock.reason,
    }


def unchecked_to_json(run: Run) -> dict[str, Any] | None:
    """``run.answers.unchecked_artifacts``: why, and the first artifacts (the rest counted)."""
    unchecked = run.answers.unchecked_artifacts
    if unchecked is None:
        return None
    shown, not_listed = listed(list(unchecked.artifacts))
    return {
        "why": unchecked.why,
        "artifacts": [{"artifactId": a.artifact_id, "name": a.name} for a in shown],
        "artifacts_not_listed": not_listed,
    }


def run_to_json(run: Run) -> dict[str, Any]:
    """The whole report; always exactly eleven step objects."""
    iface = run.interface
    odd = run.answers.odd_one_out
    verdict = run.answers.result_verdict
    task_error = run.answers.task_error
    records, records_not_listed = listed(run.answers.record_verdicts)
    return {
        "tool": f"sia-tui {__version__}",
        "outcome": run.verdict.outcome.value,
        "summary": run.verdict.summary,
        "headline": run.verdict.headline,
        "exit_code": run.verdict.exit_code,
        "at_fault": blame_to_json(run.verdict.at_fault),
        "target": run.target.location,
        "card_url": run.card_url,
        "agent": run.card.name if run.card else None,
        "skill": {"id": run.skill_id, "version": run.skill_version},
        "dialect": iface.dialect if iface else None,
        "binding": iface.binding if iface else None,
        "interface_url": iface.url if iface else None,
        "mode": run.mode,
        "from_cache": run.from_cache,
        "steps": [step_to_json(s) for s in run.steps],
        "error": error_to_json(run),
        "digests": {
            "advertised": run.digests.advertised,
            "returned": run.digests.returned,
            "computed": run.digests.computed,
            "odd_one_out": odd.source.value if odd else None,
        },
        "card_signatures": [signature_to_json(check) for check in run.answers.card_signatures],
        "lock": lock_to_json(run.answers.lock),
        "task": {"id": run.task.id, "state": run.task.state} if run.task else None,
        # Every question of an interrupted task and its reply (``reply`` None: none given).
        "turns": [_plain(dataclasses.asdict(turn)) for turn in run.turns],
        "task_error": dataclasses.asdict(task_error) if task_error else None,
        "result": run.answers.result_value,
        "result_verdict": None
        if verdict is None
        else {"valid": verdict.valid, "findings": [finding_to_json(f) for f in verdict.findings]},
        "records": [
            {
                "artifactId": r.artifact.artifact_id,
                "kind": r.kind,
                "valid": r.valid,
                "findings": [finding_to_json(f) for f in r.findings],
            }
            for r in records
        ],
        "records_not_listed": records_not_listed,
        # Artifacts step 10 did not check (received before a cancel...): never "valid".
        "unchecked_artifacts": unchecked_to_json(run),
        "auth": plan.to_json() if (plan := run.answers.auth_plan) is not None else None,
        "push": push_to_json(run.push),
        "warnings": list(run.warnings),
        # The W3C trace id every exchange carried (null: --no-trace); each its span_id.
        "trace_id": run.trace_id,
        "wire": run.answers.wire.to_json(),
        "exchanges": [
            {
                "seq": e.seq,
                "purpose": e.purpose,
                "method": e.method,
                "url": e.url,
                "status": e.status,
                "elapsed_ms": round(e.elapsed_ms, 1),
                "error": e.error,
                "span_id": e.span_id,
            }
            for e in run.exchanges
        ],
    }
