"""The composition check: may one skill's output feed another's input (RULES CMP1-CMP3)?"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sia_tui.core.codes import ErrorCode
from sia_tui.core.errors import CanonicalizationError, SiaError
from sia_tui.core.findings import Finding
from sia_tui.core.interface.document import embedded_schema
from sia_tui.core.jsonkit.canonical import canonical_bytes, digest_of
from sia_tui.core.schemas.schema_diff import ANNOTATIONS, MAX_DEPTH
from sia_tui.core.schemas.validation import compile_schema

#: The four Schema Reference fields that must be equal (RULES CMP1), in report order.
IDENTITY_FIELDS = ("schema_uri", "version", "dialect", "digest")

STRUCTURAL_NOTE = (
    "Matching Schema References prove structural compatibility only, not semantic "
    "compatibility (RULES CMP3): check that the upstream value means what the downstream "
    "skill expects."
)
LOOK_ALIKE_NOTE = (
    "Looking alike is not enough (RULES CMP2): two schemas can accept the same JSON and still "
    "mean different things. The draft's example: a link's capacity and its available bandwidth "
    "are both numbers in the same unit, yet admitting traffic against the capacity would admit "
    "demand the loaded link cannot carry. Only an identical Schema Reference says the publisher "
    "means the same thing; otherwise map the value explicitly in between."
)


@dataclass(frozen=True)
class FieldComparison:
    """One of the four identity fields, upstream output vs downstream input."""

    name: str
    upstream: Any
    downstream: Any

    @property
    def equal(self) -> bool:
        """True when both sides carry the same string (a missing field never matches)."""
        return isinstance(self.upstream, str) and self.upstream == self.downstream


@dataclass
class CompositionVerdict:
    """Whether direct composition is allowed, with every reason (RULES CMP1-CMP3, INV12)."""

    upstream_skill: Any
    downstream_skill: Any
    fields: tuple[FieldComparison, ...]
    #: CMP1: an embedded schema that does not match its declared digest (or is missing).
    digest_findings: list[Finding] = field(default_factory=list)
    #: Why the two schemas look alike although the references differ (empty when they do not).
    look_alike: list[str] = field(default_factory=list)
    #: CMP3: findings of the instance against the downstream input; None when none was given.
    instance_findings: list[Finding] | None = None
    #: True/False when an instance was given: does it also validate against the upstream output?
    instance_fits_upstream: bool | None = None
    #: INV12: the upstream and downstream task ids, kept distinct; None when there is no task.
    upstream_task_id: str | None = None
    downstream_task_id: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def differing(self) -> list[str]:
        """The identity fields that differ, in CMP1 order."""
        return [f.name for f in self.fields if not f.equal]

    @property
    def allowed(self) -> bool:
        """Direct composition allowed: four fields equal and both schemas verified (CMP1)."""
        return not self.differing and not self.digest_findings

    @property
    def composable(self) -> bool:
        """Allowed, and the given instance (if any) validates downstream (CMP3)."""
        return self.allowed and not self.instance_findings

    def summary(self) -> str:
        """One line verdict for lists and the CLI."""
        if self.allowed:
            if self.instance_findings:
                return (
                    "direct composition allowed, but this instance does not validate against "
                    "the downstream input schema"
                )
            return "direct composition allowed"
        if self.digest_findings and not self.differing:
            return "direct composition not allowed: an embedded schema fails its digest"
        return "direct composition not allowed: " + ", ".join(self.differing) + " differ"

    def to_json(self) -> dict[str, Any]:
        """JSON-serializable form for ``--json``."""
        return {
            "allowed": self.allowed,
            "composable": self.composable,
            "summary": self.summary(),
            "upstream": {"skill_id": self.upstream_skill, "task_id": self.upstream_task_id},
            "downstream": {"skill_id": self.downstream_skill, "task_id": self.downstream_task_id},
            "fields": [
                {
                    "name": f.name,
                    "upstream": f.upstream,
                    "downstream": f.downstream,
                    "equal": f.equal,
                }
                for f in self.fields
            ],
            "differing": self.differing,
            "digest_findings": [_finding_json(f) for f in self.digest_findings],
            "look_alike": list(self.look_alike),
            "instance": None
            if self.instance_findings is None
            else {
                "valid": not self.instance_findings,
                "fits_upstream_output": self.instance_fits_upstream,
                "findings": [_finding_json(f) for f in self.instance_findings],
            },
            "notes": list(self.notes),
        }


def _finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "message": finding.message,
        "severity": str(finding.severity),
        "pointer": finding.pointer,
        "rule": finding.rule,
        "line": finding.line,
        "column": finding.column,
        **finding.as_detail(),
    }


def _reference(document: Any, member: str) -> dict[str, Any]:
    ref = document.get(member) if isinstance(document, dict) else None
    return ref if isinstance(ref, dict) else {}


def verify_reference(ref: dict[str, Any], pointer: str) -> list[Finding]:
    """The embedded schema must hash to the declared digest (RULES CMP1, SR4)."""
    schema = embedded_schema(ref)
    if schema is None:
        return [
            Finding(
                f"no inline schema at {pointer}/resolution/schema (RULES SR3)",
                pointer=pointer,
                rule="CMP1",
                code=ErrorCode.INTERFACE_INVALID,
            )
        ]
    try:
        computed = digest_of(schema)
    except CanonicalizationError as exc:
        return [
            Finding(
                f"the embedded schema cannot be canonicalized: {exc}",
                pointer=f"{pointer}/resolution/schema",
                rule="CMP1",
                code=ErrorCode.INTERFACE_INVALID,
            )
        ]
    if computed != ref.get("digest"):
        return [
            Finding(
                f"embedded schema digest mismatch: declared {ref.get('digest')!r}, "
                f"computed {computed}",
                pointer=f"{pointer}/digest",
                rule="CMP1",
                code=ErrorCode.INTERFACE_INVALID,
                expected=str(ref.get("digest")),
                actual=computed,
            )
        ]
    return []


def strip_annotations(schema: Any, depth: int = 0) -> Any:
    """The schema without titles, descriptions and other annotations (bounded depth)."""
    if depth > MAX_DEPTH:
        return schema
    if isinstance(schema, dict):
        return {
            k: strip_annotations(v, depth + 1)
            for k, v in schema.items()
            if k not in ANNOTATIONS and k != "$id"
        }
    if isinstance(schema, list):
        return [strip_annotations(v, depth + 1) for v in schema]
    return schema


def _same_structure(a: Any, b: Any) -> bool:
    try:
        return canonical_bytes(strip_annotations(a)) == canonical_bytes(strip_annotations(b))
    except CanonicalizationError:
        return False


def _validate(schema: Any, instance: Any, source_text: str | None) -> list[Finding]:
    """Validate with the core validator; a schema it cannot compile is one located finding."""
    try:
        findings = compile_schema(schema).validate(instance, source_text=source_text)
        return [replace(f, rule="CMP3") for f in findings]
    except SiaError as exc:
        return [Finding(f"the schema cannot be used for validation: {exc}", rule="CMP3")]


def check_composition(
    upstream_doc: Any,
    downstream_doc: Any,
    *,
    instance: Any = None,
    instance_text: str | None = None,
    has_instance: bool | None = None,
    upstream_task_id: str | None = None,
    downstream_task_id: str | None = None,
) -> CompositionVerdict:
    """Compare the upstream output Schema Reference with the downstream input one.

    ``instance`` (an upstream output value) is checked only when given; pass
    ``has_instance=True`` to check a JSON ``null`` instance.
    """
    up_ref = _reference(upstream_doc, "output_schema")
    down_ref = _reference(downstream_doc, "input_schema")
    verdict = CompositionVerdict(
        upstream_skill=upstream_doc.get("skill_id") if isinstance(upstream_doc, dict) else None,
        downstream_skill=(
            downstream_doc.get("skill_id") if isinstance(downstream_doc, dict) else None
        ),
        fields=tuple(
            FieldComparison(name, up_ref.get(name), down_ref.get(name)) for name in IDENTITY_FIELDS
        ),
        upstream_task_id=upstream_task_id,
        downstream_task_id=downstream_task_id,
    )
    # RULES CMP1: verify each embedded schema before trusting the comparison.
    verdict.digest_findings = verify_reference(up_ref, "upstream/output_schema") + verify_reference(
        down_ref, "downstream/input_schema"
    )
    up_schema, down_schema = embedded_schema(up_ref), embedded_schema(down_ref)
    if has_instance or (has_instance is None and instance is not None):
        # RULES CMP3: the transferred instance is validated against the downstream input.
        verdict.instance_findings = _validate(down_schema, instance, instance_text)
        verdict.instance_fits_upstream = not _validate(up_schema, instance, instance_text)
    if verdict.differing:
        _explain_look_alike(verdict, up_ref, down_ref, up_schema, down_schema)
    elif verdict.allowed:
        verdict.notes.append(STRUCTURAL_NOTE)
    # RULES INV12: the downstream delegation is its own task; its id never reuses upstream's.
    if upstream_task_id is not None and upstream_task_id == downstream_task_id:
        verdict.notes.append(
            f"upstream and downstream report the same task id "
            f"{upstream_task_id!r}; they must be distinct tasks (RULES INV12)"
        )
    return verdict


def _explain_look_alike(
    verdict: CompositionVerdict,
    up_ref: dict[str, Any],
    down_ref: dict[str, Any],
    up_schema: Any,
    down_schema: Any,
) -> None:
    """CMP2: say plainly when the schemas look alike, and why that is not enough."""
    if (
        up_schema is not None
        and up_ref.get("digest") == down_ref.get("digest")
        and not verdict.digest_findings
    ):
        verdict.look_alike.append(
            "the embedded schemas are identical (same digest), but the "
            "references differ on " + ", ".join(verdict.differing)
        )
    elif (
        up_schema is not None
        and down_schema is not None
        and _same_structure(up_schema, down_schema)
    ):
        verdict.look_alike.append(
            "the schemas have the same structure once titles and descriptions are ignored"
        )
    if verdict.instance_findings == [] and verdict.instance_fits_upstream:
        verdict.look_alike.append("the instance validates against both schemas")
    if verdict.look_alike:
        verdict.notes.append(LOOK_ALIKE_NOTE)
    if verdict.instance_findings is not None and verdict.differing:
        verdict.notes.append(
            "the instance check does not make the composition direct: the "
            "references still differ (RULES CMP2)"
        )
