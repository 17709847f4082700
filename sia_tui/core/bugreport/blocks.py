"""The bug report's document model: sections of blocks that Markdown and HTML only render."""

from __future__ import annotations

from dataclasses import dataclass, field

from sia_tui.core.output.policy import printable


def clean(text: str) -> str:
    """Agent text made printable (tabs and newlines kept): the core's output policy."""
    return printable(text, keep_newlines=True)


@dataclass(frozen=True)
class Cell:
    """A table cell: plain text, or code (digests, pointers), with an optional tone."""

    text: str
    code: bool = False
    #: "passed", "failed", "skipped", "match", "differs"... (colour in HTML, a mark in MD).
    tone: str | None = None


@dataclass(frozen=True)
class Paragraph:
    """Prose; ``strong`` for the summary."""

    text: str
    strong: bool = False


@dataclass(frozen=True)
class Facts:
    """``label: text`` pairs (a definition list)."""

    items: list[tuple[str, str]]


@dataclass(frozen=True)
class Table:
    """A header and rows of cells."""

    header: list[str]
    rows: list[list[Cell]]


@dataclass(frozen=True)
class Code:
    """A verbatim block."""

    text: str
    language: str = ""


Block = Paragraph | Facts | Table | Code


@dataclass
class Section:
    """A titled part of the report."""

    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class BugReport:
    """What the Markdown and the HTML report both show, in order."""

    summary: str
    warnings: list[str]
    sections: list[Section]
