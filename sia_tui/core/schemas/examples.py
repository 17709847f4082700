"""A schema's own ``examples`` checked against it: an argument editor offers the first one.

JSON Schema 2020-12 recommends that ``examples`` validate against their schema; the input
schema's are where the editor and ``check --args example`` start (RULES CP7), so one that
fails is said, with its pointer and its first error, before anybody is offered it. It is a
warning and never interface_invalid: the schema is valid, and it rejects one instance
(RULES ERR4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core.bounded import cap_findings
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.jsonkit.pointer import display_pointer

if TYPE_CHECKING:
    from sia_tui.core.schemas.validation import CompiledSchema

#: Examples validated per schema: an agent may send a flood of them; an editor offers one.
MAX_EXAMPLES_CHECKED = 64


def first_error(compiled: CompiledSchema, value: Any) -> Finding | None:
    """The first error ``value`` has against ``compiled``, or None when it validates."""
    if compiled.is_valid(value):
        return None
    return next((f for f in compiled.validate(value) if f.severity is Severity.ERROR), None)


def example_findings(
    compiled: CompiledSchema, schema: Any, pointer: str, *, what: str, rule: str
) -> list[Finding]:
    """A warning for each of the schema's own root ``examples`` that fails it; ``pointer``
    is the schema's, ``what`` names it ("the input schema") and ``rule`` is what the
    example would break if used (CP7 for input, CP10 for output and records)."""
    examples = schema.get("examples") if isinstance(schema, dict) else None
    if not isinstance(examples, list):
        return []
    findings = []
    if len(examples) > MAX_EXAMPLES_CHECKED:
        findings.append(
            Finding(
                f"{what} has {len(examples)} examples; the first {MAX_EXAMPLES_CHECKED} are "
                "checked against it",
                severity=Severity.INFO,
                pointer=f"{pointer}/examples",
                rule=rule,
            )
        )
    for index, example in enumerate(examples[:MAX_EXAMPLES_CHECKED]):
        error = first_error(compiled, example)
        if error is None:
            continue
        findings.append(
            Finding(
                f"examples[{index}] fails {what}: at {display_pointer(error.pointer)}: "
                f"{error.message}",
                severity=Severity.WARNING,
                pointer=f"{pointer}/examples/{index}",
                rule=rule,
                schema_path=error.schema_path,
                keyword=error.keyword,
                expected=error.expected,
                actual=error.actual,
            )
        )
    return cap_findings(findings)
