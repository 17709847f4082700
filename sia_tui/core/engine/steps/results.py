"""Steps 10-11: validate the output and each supporting record, then present them."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sia_tui.core import limits
from sia_tui.core.a2a.task_views import Artifact
from sia_tui.core.bounded import (
    MORE_RULE,
    cap_findings,
    listed,
    more_than_first,
    named_few,
)
from sia_tui.core.codes import ErrorCode
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.interface.document import schema_at
from sia_tui.core.jsonkit.numbers import unsafe_number_findings
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.run.answers import REFS_MEMBER
from sia_tui.core.run.evidence import Blame, NextAction, Party
from sia_tui.core.run.later_evidence import OutputEvidence, PresentationEvidence, RecordSummary
from sia_tui.core.run.read_model import RecordResult, StepResult

if TYPE_CHECKING:
    from sia_tui.core.schemas.validation import CompiledSchema


def _single_data(artifact: Artifact, what: str, rule: str) -> tuple[Any, list[Finding]]:
    data = artifact.data_parts()
    if len(artifact.parts) != 1 or len(data) != 1:
        return None, [
            Finding(
                f"{what} artifact {artifact.artifact_id!r} must hold a single data "
                f"part, has {len(artifact.parts)} part(s)",
                rule=rule,
                code=ErrorCode.OUTPUT_INVALID,
            )
        ]
    return data[0], []


def _relabelled(findings: list[Finding], rule: str, label: str = "") -> list[Finding]:
    """Validation findings re-labelled as output_invalid; ``label`` names the artifact.

    RULES ERR4: output that a valid schema rejects is output_invalid, never interface_invalid.
    """
    return [
        finding
        if finding.rule == MORE_RULE  # a count or limit note stays as it is
        else replace(
            finding, message=label + finding.message, rule=rule, code=ErrorCode.OUTPUT_INVALID
        )
        for finding in findings
    ]


def _validate(schema: Any, value: Any, rule: str, label: str = "") -> list[Finding]:
    """Validation findings of ``value`` against ``schema``, re-labelled (see above)."""
    return _relabelled(_compiled(schema).validate(value), rule, label)


def _compiled(schema: Any) -> CompiledSchema:
    from sia_tui.core.schemas.validation import compile_schema  # jsonschema: not needed to start

    return compile_schema(schema)


class _RecordChecker:
    """Validates records kind by kind: each kind's schema compiled once, and errors listed
    only until ``limits.MAX_FINDINGS`` are; past that a record's verdict is still taken, with
    one finding that says so. 50,000 records once cost a digest of their schema and a
    listing of errors each."""

    def __init__(self, document: dict[str, Any]) -> None:
        self._document = document
        self._schemas: dict[str, CompiledSchema] = {}
        self._listed = 0

    def findings(self, artifact: Artifact, kind: str) -> list[Finding]:
        value, findings = _single_data(artifact, "record", "INV6")
        if findings:
            return findings
        schema = self._schemas.get(kind)
        if schema is None:
            schema = _compiled(schema_at(self._document, ("supporting_record_schemas", kind)))
            self._schemas[kind] = schema
        label = f"record {artifact.artifact_id!r}: "
        if self._listed >= limits.MAX_FINDINGS:
            return [] if schema.is_valid(value) else [_not_listed(label)]
        findings = _relabelled(schema.validate(value), "CP10", label)
        self._listed += len(findings)
        return findings


def _not_listed(label: str) -> Finding:
    return Finding(
        f"{label}does not validate against its record schema (its errors are not listed: "
        f"{limits.MAX_FINDINGS} findings already are)",
        rule="CP10",
        code=ErrorCode.OUTPUT_INVALID,
    )


def check_records(ctx: EngineContext, result_artifact: Artifact | None) -> list[RecordResult]:
    """Match every other artifact to its declared record kind and validate it (INV6, INV10)."""
    run = ctx.run
    assert run.task is not None
    declared = ctx.document.get("supporting_record_schemas", {})
    checker = _RecordChecker(ctx.document)
    records = []
    for artifact in run.task.artifacts:
        if artifact is result_artifact:
            continue
        kind = artifact.name if artifact.name in declared else None
        if kind is None:
            findings = [
                Finding(
                    f"artifact {artifact.artifact_id!r} is named {artifact.name!r}, "
                    "which is not a declared record kind",
                    rule="INV6",
                    code=ErrorCode.OUTPUT_INVALID,
                )
            ]
        else:
            findings = checker.findings(artifact, kind)
        records.append(RecordResult(artifact, kind, findings))
    return records


async def check_output(ctx: EngineContext, result: StepResult) -> None:
    """CP10: the output validates against output_schema, each record against its schema."""
    run = ctx.run
    assert run.task is not None
    named = [a for a in run.task.artifacts if a.name == run.skill_id]
    findings: list[Finding] = []
    value: Any = None
    if len(named) != 1:
        findings.append(
            Finding(
                f"expected one result artifact named {run.skill_id!r}, found "
                f"{len(named)} (RULES INV5)",
                rule="INV5",
                code=ErrorCode.OUTPUT_INVALID,
            )
        )
    else:
        run.result = named[0]
        value, findings = _single_data(named[0], "result", "INV5")
        if not findings:
            findings = _validate(schema_at(ctx.document, ("output_schema",)), value, "CP10")
    run.records = check_records(ctx, run.result)
    findings += _dangling_refs(value, {a.artifact_id for a in run.task.artifacts})
    findings += unsafe_number_findings(value, rule="CP10")
    # The result's findings and each record's are kept apart: a bad record must never be
    # shown as the result's fault (and the reverse).
    shown, not_listed = listed(run.records)
    result.evidence = OutputEvidence(
        result_artifact_id=run.result.artifact_id if run.result else None,
        result_findings=cap_findings(findings),
        records=[
            RecordSummary(artifact_id=r.artifact.artifact_id, kind=r.kind, valid=r.valid)
            for r in shown
        ],
        records_not_listed=not_listed or None,
    )
    result.findings.extend(findings)
    for record in run.records:
        result.findings.extend(record.findings)
        # Warnings only, kept out of the record's own findings (those say it is invalid).
        label = f"record {record.artifact.artifact_id!r}: "
        for data in record.artifact.data_parts():
            result.findings.extend(unsafe_number_findings(data, label=label, rule="CP10"))
    errors = [f for f in result.findings if f.severity is Severity.ERROR]
    if errors:
        _fail_output(errors, findings, run.records, result.findings)
    result.message = (
        f"output valid against {ctx.document['output_schema'].get('schema_uri')}; "
        f"{len(run.records)} record(s) valid"
    )


def _dangling_refs(value: Any, ids: set[str]) -> list[Finding]:
    """RULES INV7: output refers to records by their task-scoped artifactId."""
    refs = value.get(REFS_MEMBER) if isinstance(value, dict) else None
    return [
        Finding(
            f"{REFS_MEMBER}[{index}] = {ref!r} names no artifact of this task",
            pointer=f"/{REFS_MEMBER}/{index}",
            rule="INV7",
            code=ErrorCode.OUTPUT_INVALID,
        )
        # A non-string ref is the output schema's business (reported above).
        for index, ref in enumerate(refs if isinstance(refs, list) else [])
        if isinstance(ref, str) and ref not in ids
    ]


def _fail_output(
    errors: list[Finding],
    result_findings: list[Finding],
    records: list[RecordResult],
    everything: list[Finding],
) -> None:
    """RULES INV9: a remote COMPLETED with invalid output is unusable: output_invalid, local."""
    bad_records = [r.artifact.artifact_id for r in records if not r.valid]
    parts = []
    if any(f.severity is Severity.ERROR for f in result_findings):
        parts.append("the result does not validate against the output schema")
    if bad_records:
        parts.append(
            f"supporting record {named_few(bad_records)} does not validate against its "
            "record schema"
        )
    statement = " and ".join(parts)
    first = errors[0]
    raise StepFailed(
        f"the output is unusable: {statement}; first at {display(first.pointer)}: "
        f"{first.message}" + more_than_first(errors),
        code=ErrorCode.OUTPUT_INVALID,
        findings=everything,
        hint="Validate the result and every supporting record against the schemas the "
        "document declares before completing the task; invalid output must end FAILED with "
        "output_invalid (RULES INV8).",
        blame=Blame(party=Party.AGENT, statement=statement),
        next_action=NextAction.SHOW_RESULTS,
    )


async def present(ctx: EngineContext, result: StepResult) -> None:
    """CP11: hand the validated results to the user, with what they do not mean."""
    run = ctx.run
    shown, not_listed = listed(run.records)
    result.evidence = PresentationEvidence(
        result=run.answers.result_value,
        records=[r.artifact.artifact_id for r in shown],
        records_not_listed=not_listed or None,
        authority=ctx.document.get("authority", {}),
        note="matching schemas prove structure, not semantics; authority describes, it does "
        "not permit (RULES SID5, CMP3)",
    )
    result.message = "results validated and ready to display"
