"""Reading ``sia-session/1`` files: their free-form step evidence becomes the typed evidence.

Version 1 stored each step's evidence as an untyped object whose members depended on the
step; version 2 stores one typed class per step, tagged with ``kind``. The members of
version 1 are known, so an old file is upgraded on load, not refused.
"""

from __future__ import annotations

import json
from typing import Any

from sia_tui.core.run.evidence import CardEvidence
from sia_tui.core.run.later_evidence import (
    ArgumentsEvidence,
    DelegationEvidence,
    DescribeEvidence,
    DigestEvidence,
    DocumentEvidence,
    OutputEvidence,
    PresentationEvidence,
    ReceptionEvidence,
    SchemaEvidence,
    SkillEvidence,
)

#: Step number -> the typed evidence class whose ``kind`` version 2 writes.
_KIND_BY_STEP: dict[int, Any] = {
    1: CardEvidence,
    2: SkillEvidence,
    3: DescribeEvidence,
    4: DigestEvidence,
    5: DocumentEvidence,
    6: SchemaEvidence,
    7: ArgumentsEvidence,
    8: DelegationEvidence,
    9: ReceptionEvidence,
    10: OutputEvidence,
    11: PresentationEvidence,
}
#: Members version 1 always wrote for a step that ran far enough to record evidence.
_REQUIRED = {1: "card_url", 2: "skill_id", 4: "advertised", 8: "mode"}


def upgrade_run(run: dict[str, Any]) -> dict[str, Any]:
    """The ``run`` object of a version-1 file, rewritten as version 2 would store it."""
    steps = run.get("steps")
    if not isinstance(steps, list):
        return run
    found = run.get("records")
    records: list[Any] = found if isinstance(found, list) else []
    upgraded = []
    for entry in steps:
        if not isinstance(entry, dict):
            upgraded.append(entry)
            continue
        step = dict(entry)
        evidence = step.pop("evidence", None)
        evidence = evidence if isinstance(evidence, dict) else {}
        for member in ("category", "error_kind"):  # about the failure, not the evidence
            value = evidence.pop(member, None)
            if isinstance(value, str):
                step[member] = value
        number = step.get("step")
        step["evidence"] = _typed(number, evidence, step, records) if evidence else None
        upgraded.append(step)
    return {**run, "steps": upgraded}


def _typed(
    number: Any, old: dict[str, Any], step: dict[str, Any], records: list[Any]
) -> dict[str, Any] | None:
    cls = _KIND_BY_STEP.get(number) if isinstance(number, int) else None
    if cls is None or (number in _REQUIRED and _REQUIRED[number] not in old):
        return None
    new: dict[str, Any] = {"kind": cls.__dataclass_fields__["kind"].default}
    if number in (8, 9) and isinstance(old.get("error"), dict):
        error = old["error"]
        new["error"] = {
            "step": number,
            "code": error.get("code"),
            "message": error.get("message") or "",
            "state": old.get("state") or "",
            "details": error.get("details") or [],
        }
    if number in (7, 8):
        new["negative_test"] = "send_anyway" in old
    if number == 9:
        new["artifacts"] = [
            {"artifact_id": a.get("artifactId"), "name": a.get("name")}
            for a in old.get("artifacts", [])
            if isinstance(a, dict)
        ]
    if number == 10:
        return _output(old, step, records)
    skip = {"error", "send_anyway", "artifacts"}
    fields = cls.__dataclass_fields__
    new.update({k: v for k, v in old.items() if k in fields and k not in skip})
    return new


def _output(old: dict[str, Any], step: dict[str, Any], records: list[Any]) -> dict[str, Any]:
    """Version 1 mixed the result's findings with the records'; take the records' out."""
    # Compared as canonical text in a set: a file with a flood of findings costs linear time.
    record_findings = {
        _key(f) for r in records if isinstance(r, dict) for f in r.get("findings", []) or []
    }
    findings = [f for f in step.get("findings", []) or [] if _key(f) not in record_findings]
    return {
        "kind": "output",
        "result_artifact_id": old.get("result"),
        "result_findings": findings,
        "records": [
            {"artifact_id": r.get("artifactId"), "kind": r.get("kind"), "valid": r.get("valid")}
            for r in old.get("records", [])
            if isinstance(r, dict)
        ],
    }


def _key(finding: Any) -> str:
    """A finding as text that equal findings share (they are JSON values)."""
    return json.dumps(finding, sort_keys=True, default=str)
