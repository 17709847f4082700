"""CP6 reads each embedded schema's own examples: one that fails is a warning with its
pointer and first error, never interface_invalid (RULES ERR4); a flood is bounded."""

from __future__ import annotations

from sia_tui.core.findings import Severity
from sia_tui.core.interface.document import verify_embedded_schemas
from tests.support.documents import make_document, reference

SCHEMA = "/output_schema/resolution/schema"


def test_an_output_example_that_fails_is_a_cp10_warning() -> None:
    document = make_document()
    document["output_schema"] = reference({"type": "object", "examples": [{}, "text"]})
    check = verify_embedded_schemas(document)[1]
    assert check.ok
    [warning] = check.findings
    assert (warning.severity, warning.pointer, warning.rule) == (
        Severity.WARNING,
        f"{SCHEMA}/examples/1",
        "CP10",
    )
    assert warning.code is None
    assert warning.message.startswith('examples[1] fails its schema: at "" (root): ')


def test_a_flood_of_examples_is_checked_up_to_a_bound() -> None:
    """An agent's 10,000 failing examples: the first 64 are checked, and that is said."""
    document = make_document()
    document["output_schema"] = reference({"type": "object", "examples": [1] * 10_000})
    findings = verify_embedded_schemas(document)[1].findings
    assert len(findings) == 65
    assert findings[0].severity is Severity.INFO and findings[0].pointer == f"{SCHEMA}/examples"
    assert "has 10000 examples; the first 64 are checked" in findings[0].message
    assert findings[-1].pointer == f"{SCHEMA}/examples/63"
