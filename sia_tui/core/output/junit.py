"""JUnit XML reports (headless): a typed suite/testcase model written with ElementTree.

One writer for every command that reports to CI (``check --junit``, ``probe --junit``,
``matrix --junit``). The document follows the common JUnit schema that Jenkins, GitLab and
GitHub reporters read: ``<testsuites>`` with totals, one ``<testsuite>`` per suite with its
own counts, ``<testcase name classname time>`` with at most one of ``<failure>``,
``<error>`` or ``<skipped>``, and an optional ``<system-out>``.

Agent text is untrusted: XML 1.0 forbids most C0 controls, lone surrogates and U+FFFE/FFFF,
and ElementTree writes them anyway, producing a file no parser accepts. Every string goes
through :func:`xml_safe` first, and long texts are cut so a hostile agent cannot make the
report huge.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Final

from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.output.policy import printable

#: Longest text kept in one message, failure body or system-out (characters); the rest is
#: cut with a note saying how much. Kept here, not in limits.py, while only JUnit uses it.
MAX_JUNIT_TEXT_CHARS: Final = 64 * 1024

#: Noncharacters that XML 1.0 forbids and ``printable`` leaves alone (category Cn).
_XML_NONCHARACTERS = {"\ufffe": "\\ufffe", "\uffff": "\\uffff"}


class CaseStatus(StrEnum):
    """The outcome of one testcase."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    ERROR = "error"


@dataclass(frozen=True)
class JUnitCase:
    """One ``<testcase>``: a step, a probe or a matrix cell.

    ``message`` is the one-line reason (the ``message`` attribute of failure, error or
    skipped), ``text`` the detail (the element's body), ``kind`` the ``type`` attribute
    (an error code, for instance). ``time`` is in seconds.
    """

    name: str
    classname: str
    status: CaseStatus = CaseStatus.PASSED
    time: float = 0.0
    message: str = ""
    text: str = ""
    kind: str = ""
    system_out: str = ""

    def __post_init__(self) -> None:
        if not math.isfinite(self.time) or self.time < 0:
            raise ValueError(f"testcase time must be a finite number >= 0, got {self.time!r}")


@dataclass(frozen=True)
class JUnitSuite:
    """One ``<testsuite>``; its counts are computed from its cases, never given."""

    name: str
    cases: tuple[JUnitCase, ...] = ()
    timestamp: str = ""
    properties: tuple[tuple[str, str], ...] = ()

    def count(self, status: CaseStatus) -> int:
        """How many cases ended with ``status``."""
        return sum(1 for case in self.cases if case.status is status)

    @property
    def time(self) -> float:
        """The suite's time: the sum of its cases' times."""
        return sum(case.time for case in self.cases)


def xml_safe(text: str, *, limit: int = MAX_JUNIT_TEXT_CHARS) -> str:
    """``text`` that any XML 1.0 parser accepts and a person can read in a CI page.

    C0 controls other than tab and newline become control pictures (``␛`` for ESC), other
    control/format characters and lone surrogates become ``\\uXXXX`` (as on screen, see
    ``printable``), U+FFFE/U+FFFF become escapes; text beyond ``limit`` is cut with a note.
    """
    cut = ""
    if len(text) > limit:
        cut = f"\n… ({len(text) - limit} more characters cut)"
        text = text[:limit]
    safe = printable(text, keep_newlines=True)
    for char, escape in _XML_NONCHARACTERS.items():
        safe = safe.replace(char, escape)
    return safe + cut


def _counts(element: ET.Element, suites: Sequence[JUnitSuite]) -> None:
    """Set tests/failures/errors/skipped/time on ``element`` from ``suites``."""
    element.set("tests", str(sum(len(suite.cases) for suite in suites)))
    element.set("failures", str(sum(suite.count(CaseStatus.FAILED) for suite in suites)))
    element.set("errors", str(sum(suite.count(CaseStatus.ERROR) for suite in suites)))
    element.set("skipped", str(sum(suite.count(CaseStatus.SKIPPED) for suite in suites)))
    element.set("time", f"{sum(suite.time for suite in suites):.3f}")


_OUTCOME_TAGS = {
    CaseStatus.FAILED: "failure",
    CaseStatus.ERROR: "error",
    CaseStatus.SKIPPED: "skipped",
}


def _case_element(parent: ET.Element, case: JUnitCase) -> None:
    element = ET.SubElement(
        parent,
        "testcase",
        name=xml_safe(case.name),
        classname=xml_safe(case.classname),
        time=f"{case.time:.3f}",
    )
    tag = _OUTCOME_TAGS.get(case.status)
    if tag is not None:
        outcome = ET.SubElement(element, tag)
        if case.message:
            outcome.set("message", xml_safe(case.message))
        if case.kind and case.status is not CaseStatus.SKIPPED:
            outcome.set("type", xml_safe(case.kind))
        if case.text:
            outcome.text = xml_safe(case.text)
    if case.system_out:
        ET.SubElement(element, "system-out").text = xml_safe(case.system_out)


def junit_document(suites: Sequence[JUnitSuite], *, name: str = "sia-tui") -> ET.Element:
    """The ``<testsuites>`` element holding every suite, with totals."""
    root = ET.Element("testsuites", name=xml_safe(name))
    _counts(root, suites)
    for suite in suites:
        element = ET.SubElement(root, "testsuite", name=xml_safe(suite.name))
        _counts(element, [suite])
        if suite.timestamp:
            element.set("timestamp", xml_safe(suite.timestamp))
        if suite.properties:
            properties = ET.SubElement(element, "properties")
            for key, value in suite.properties:
                ET.SubElement(properties, "property", name=xml_safe(key), value=xml_safe(value))
        for case in suite.cases:
            _case_element(element, case)
    return root


def junit_text(suites: Sequence[JUnitSuite], *, name: str = "sia-tui") -> str:
    """The whole document as text, with an XML declaration, indented for people."""
    root = junit_document(suites, name=name)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def redacted(suites: Sequence[JUnitSuite], redact: Callable[[str], str]) -> list[JUnitSuite]:
    """``suites`` with ``redact`` applied to every text (names, messages, properties): an
    agent's answer may echo a credential, and a CI page is a published page."""
    return [
        replace(
            suite,
            name=redact(suite.name),
            properties=tuple((k, redact(v)) for k, v in suite.properties),
            cases=tuple(
                replace(
                    case,
                    name=redact(case.name),
                    classname=redact(case.classname),
                    message=redact(case.message),
                    text=redact(case.text),
                    kind=redact(case.kind),
                    system_out=redact(case.system_out),
                )
                for case in suite.cases
            ),
        )
        for suite in suites
    ]


def write_junit(
    path: Path,
    suites: Sequence[JUnitSuite],
    *,
    name: str = "sia-tui",
    redact: Callable[[str], str] | None = None,
) -> None:
    """Write the report atomically (UTF-8): a CI reader never sees half a file. ``redact``
    (a :class:`~sia_tui.core.redaction.redact.Redactor`'s text) is applied to every text first."""
    if redact is not None:
        suites = redacted(suites, redact)
    atomic_write(path, junit_text(suites, name=name))
