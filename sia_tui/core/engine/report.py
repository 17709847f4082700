"""The machine-readable report of a run (`sia-tui check --json`)."""

from __future__ import annotations

from typing import Any

from sia_tui import __version__
from sia_tui.core.codes import ErrorCode
from sia_tui.core.engine.model import Run, StepResult
from sia_tui.core.findings import Finding


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


def step_to_json(step: StepResult) -> dict[str, Any]:
    """One of the eleven step objects."""
    return {
        "step": step.step,
        "title": step.title,
        "rule": step.rule,
        "status": step.status.value,
        "code": step.code,
        "origin": step.origin.value if step.origin else None,
        "message": step.message,
        "hint": step.hint or None,
        "findings": [finding_to_json(f) for f in step.findings],
        "exchanges": list(step.exchanges),
        "evidence": step.evidence,
    }


def error_to_json(run: Run) -> dict[str, Any] | None:
    """The failing step as ``{code, origin, step, message, details}``, or None."""
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
        "origin": failed.origin.value if failed.origin else "local",
        "category": failed.evidence.get("category"),
        "step": failed.step,
        "message": failed.message,
        "hint": failed.hint or None,
        "details": details,
    }


def run_to_json(run: Run) -> dict[str, Any]:
    """The whole report; always exactly eleven step objects."""
    iface = run.interface
    return {
        "tool": f"sia-tui {__version__}",
        "outcome": run.outcome,
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
        },
        "task": {"id": run.task.id, "state": run.task.state} if run.task else None,
        "result": run.result.data_parts()[0] if run.result and run.result.data_parts() else None,
        "records": [
            {"artifactId": r.artifact.artifact_id, "kind": r.kind, "valid": r.valid}
            for r in run.records
        ],
        "warnings": list(run.warnings),
        "exchanges": [
            {
                "seq": e.seq,
                "purpose": e.purpose,
                "method": e.method,
                "url": e.url,
                "status": e.status,
                "elapsed_ms": round(e.elapsed_ms, 1),
                "error": e.error,
            }
            for e in run.exchanges
        ],
    }
