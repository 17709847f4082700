"""The JUnit XML writer: counts CI reads, and hostile agent text that must not break the file."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sia_tui.core.output.junit import (
    MAX_JUNIT_TEXT_CHARS,
    CaseStatus,
    JUnitCase,
    JUnitSuite,
    junit_text,
    write_junit,
    xml_safe,
)

#: Every code point XML 1.0 forbids that a str can hold, plus markup look-alikes.
HOSTILE = (
    "".join(chr(code) for code in range(0x20))
    + "\x7f\x85\u202e\ud800\udfff\ufffe\uffff"
    + "]]><!-- &amp; <tag attr='\"'> \x1b[2J\x1b]8;;http://evil\x07"
)


def _suite(name: str, *statuses: CaseStatus) -> JUnitSuite:
    cases = tuple(
        JUnitCase(
            name=f"step {index}",
            classname=f"sia.{name}",
            status=status,
            time=0.25,
            message=f"{status} message",
            text=f"{status} detail",
            kind="SCHEMA_MISMATCH",
        )
        for index, status in enumerate(statuses, start=1)
    )
    return JUnitSuite(name=name, cases=cases, properties=(("agent", "http://127.0.0.1"),))


def test_counts_per_suite_and_in_total() -> None:
    """What a CI summary shows: tests/failures/errors/skipped per suite and overall."""
    S = CaseStatus
    suites = [
        _suite("alpha", S.PASSED, S.FAILED, S.SKIPPED, S.ERROR, S.FAILED),
        _suite("beta", S.PASSED, S.PASSED, S.SKIPPED),
        JUnitSuite(name="empty"),
    ]
    root = ET.fromstring(junit_text(suites).encode("utf-8"))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("8", "2", "1")
    assert (root.get("skipped"), root.get("time")) == ("2", "2.000")
    alpha, beta, empty = root.findall("testsuite")
    assert [alpha.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "5",
        "2",
        "1",
        "1",
    ]
    assert [beta.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "3",
        "0",
        "0",
        "1",
    ]
    assert empty.get("tests") == "0" and empty.findall("testcase") == []
    # The counts agree with the elements a reader would count itself.
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 8
    assert len(root.findall("testsuite/testcase/failure")) == 2
    assert len(root.findall("testsuite/testcase/error")) == 1
    assert len(root.findall("testsuite/testcase/skipped")) == 2
    assert alpha.find("properties/property").attrib == {  # type: ignore[union-attr]
        "name": "agent",
        "value": "http://127.0.0.1",
    }


def test_each_outcome_element_carries_message_type_and_text() -> None:
    """A failure names its message and error code; a pass has no outcome element."""
    root = ET.fromstring(
        junit_text([_suite("s", CaseStatus.PASSED, CaseStatus.FAILED, CaseStatus.SKIPPED)])
    )
    passed, failed, skipped = root.findall("testsuite/testcase")
    assert list(passed) == []
    assert (passed.get("name"), passed.get("classname"), passed.get("time")) == (
        "step 1",
        "sia.s",
        "0.250",
    )
    failure = failed.find("failure")
    assert failure is not None
    assert failure.attrib == {"message": "failed message", "type": "SCHEMA_MISMATCH"}
    assert failure.text == "failed detail"
    skip = skipped.find("skipped")
    assert skip is not None and skip.get("message") == "skipped message"


def test_unsafe_text_is_what_breaks_a_plain_elementtree_file() -> None:
    """The hazard is real: ElementTree writes a C0 control that its own parser rejects."""
    element = ET.Element("testcase", name="x")
    element.text = "agent said \x1b[31m"
    with pytest.raises(ET.ParseError):
        ET.fromstring(ET.tostring(element))


def test_hostile_agent_text_everywhere_still_parses(tmp_path: Path) -> None:
    """Controls, lone surrogates, U+FFFE/FFFF and markup in every field: the file parses,
    the markup survives as text, and ESC shows as a visible picture, not as itself."""
    case = JUnitCase(
        name=HOSTILE,
        classname=HOSTILE,
        status=CaseStatus.ERROR,
        message=HOSTILE,
        text=HOSTILE,
        kind=HOSTILE,
        system_out=HOSTILE,
    )
    suite = JUnitSuite(name=HOSTILE, cases=(case,), timestamp=HOSTILE, properties=((HOSTILE,) * 2,))
    path = tmp_path / "report.xml"
    write_junit(path, [suite], name=HOSTILE)
    root = ET.parse(path).getroot()
    error = root.find("testsuite/testcase/error")
    assert error is not None and error.text is not None
    assert "]]><!-- &amp; <tag attr='\"'>" in error.text
    assert "\x1b" not in error.text and "␛[2J" in error.text
    assert "\\ud800" in error.text and "\\ufffe" in error.text
    out = root.find("testsuite/testcase/system-out")
    assert out is not None and out.text == error.text
    assert root.get("errors") == "1"


def test_xml_safe_keeps_ordinary_text_and_newlines() -> None:
    """Normal multilingual text with tabs and newlines is unchanged."""
    text = "étape 4 — digest ≠\n\tok 数字 🙂"
    assert xml_safe(text) == text


def test_long_text_is_cut_with_a_note() -> None:
    """A hostile agent cannot make the report arbitrarily large."""
    big = "x" * (MAX_JUNIT_TEXT_CHARS + 500)
    case = JUnitCase(name="n", classname="c", status=CaseStatus.FAILED, text=big)
    root = ET.fromstring(junit_text([JUnitSuite(name="s", cases=(case,))]))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.text is not None
    assert failure.text.startswith("x" * MAX_JUNIT_TEXT_CHARS)
    assert failure.text.endswith("(500 more characters cut)")


@pytest.mark.parametrize("time", [-1.0, float("nan"), float("inf")])
def test_a_case_time_must_be_a_finite_non_negative_number(time: float) -> None:
    """A wrong time is a programming error caught at construction, not a broken report."""
    with pytest.raises(ValueError, match="finite"):
        JUnitCase(name="n", classname="c", time=time)
