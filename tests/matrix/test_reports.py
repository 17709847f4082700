"""The matrix reports: a self-contained page for a projector, Markdown, JUnit; hostile agent
text stays inert in all of them, and no secret reaches any of them."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.codes import DetectedBy
from sia_tui.core.matrix.baseline import compare
from sia_tui.core.matrix.grid import Cell, CellStatus, ColumnKind, Matrix, Row, columns_for
from sia_tui.core.matrix.plugfest import Expectation, Plugfest
from sia_tui.core.matrix.plugfest_agents import AgentEntry
from sia_tui.core.matrix.report_html import matrix_to_html
from sia_tui.core.matrix.report_junit import matrix_junit_suites
from sia_tui.core.matrix.report_text import matrix_to_markdown, matrix_to_text
from sia_tui.core.output.junit import junit_text
from tests.support.agents import StartAgent
from tests.support.plugfest import plugfest_file

#: What a hostile vendor could put in a name, an id or an error message.
HOSTILE = "<script>alert(1)</script> [bold red]x[/] | `tick` \x1b[2J\x07 \u202e ]]> &amp;"


def _hostile_matrix() -> Matrix:
    plugfest = Plugfest(
        source=Path("P.toml"),
        name=HOSTILE,
        agents=(AgentEntry(HOSTILE, "http://a"),),
        bindings=("jsonrpc",),
        modes=("sync",),
    )
    matrix = Matrix(plugfest, columns_for(plugfest))
    cell = Cell(
        CellStatus.FAIL,
        HOSTILE,
        step=8,
        code="input_invalid",
        origin=DetectedBy.REMOTE,
        party="agent",
        statement=HOSTILE,
        session="/tmp/s/01-x.session.json",
    )
    matrix.rows.append(Row(HOSTILE, HOSTILE, {c.key: cell for c in matrix.columns}))
    matrix.baseline = compare(matrix)
    return matrix


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.urls += [v or "" for k, v in attrs if k in ("href", "src")]


def test_the_page_is_self_contained_and_agent_text_is_inert() -> None:
    page = matrix_to_html(_hostile_matrix(), base=Path("/tmp"))
    parser = _Tags()
    parser.feed(page)
    # No script, no remote asset of any kind; the only links are the relative sessions.
    assert "script" not in parser.tags and "link" not in parser.tags and "img" not in parser.tags
    assert parser.urls == ["s/01-x.session.json"]
    assert "url(" not in page and "@import" not in page
    assert "default-src 'none'" in page
    # Agent text: escaped, controls visible (ESC as ␛, BEL as ␇, the bidi override escaped).
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x1b" not in page and "\x07" not in page and "\u202e" not in page
    assert "␛[2J␇" in page and "\\u202e" in page


def test_the_page_reads_on_a_projector() -> None:
    """Large type, black on white, a word beside every colour."""
    page = matrix_to_html(_hostile_matrix())
    assert "html{font-size:22px}" in page
    assert re.search(r"\.fail\{background:#b00020;color:#fff", page)
    assert '<td class="fail"' in page and "✘ FAIL<br>step 8<br>input_<wbr>invalid<br>remote" in page


def _plugfest_matrix() -> Matrix:
    """The README's plugfest shape: two bindings x three modes; digest-card fails step 4 as
    its baseline expects, vendor-c fails step 10 (new), poll does not apply."""
    plugfest = Plugfest(
        source=Path("P.toml"),
        name="sample",
        agents=(AgentEntry("digest-card", "http://a"), AgentEntry("vendor-c", "http://c")),
        bindings=("jsonrpc", "http-json"),
        modes=("sync", "stream", "poll"),
        expectations=(Expectation("digest-card", "ticket 12", step=4, code="interface_invalid"),),
    )
    matrix = Matrix(plugfest, columns_for(plugfest))
    for agent, step, code in (
        ("digest-card", 4, "interface_invalid"),
        ("vendor-c", 10, "output_invalid"),
    ):
        cells: dict[str, Cell] = {}
        for column in matrix.columns:
            if column.kind is ColumnKind.STEP:
                status = CellStatus.PASS if (column.step or 0) < step else CellStatus.SKIP
            elif column.kind is ColumnKind.WIRE:
                status = CellStatus.PASS  # the first run's messages are A2A as the schema says
            else:
                status = CellStatus.SKIP if column.mode == "poll" else CellStatus.FAIL
            if column.step == step or status is CellStatus.FAIL:
                cells[column.key] = Cell(
                    CellStatus.FAIL, "why", step=step, code=code, origin=DetectedBy.LOCAL
                )
            else:
                cells[column.key] = Cell(status, "why")
        matrix.rows.append(Row(agent, "measure_available_bandwidth", cells))
    matrix.baseline = compare(matrix)
    return matrix


class _Table(HTMLParser):
    """The matrix table's rows: each a list of (tag, class, colspan, rowspan, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, str, int, int, str]]] = []
        self._in_matrix = False
        self._cell: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "br" and self._cell is not None:
            self._cell[4] += "\n"
        elif tag == "table":
            self._in_matrix = found.get("class") == "matrix"
        elif self._in_matrix and tag == "tr":
            self.rows.append([])
        elif self._in_matrix and tag in ("td", "th"):
            span = (int(found.get("colspan") or 1), int(found.get("rowspan") or 1))
            self._cell = [tag, found.get("class") or "", *span, ""]

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[4] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_matrix = False
        elif tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(tuple(self._cell))
            self._cell = None


def test_the_page_groups_binding_and_mode_columns_to_fit_a_projector() -> None:
    """A projector at 1400 px showed one of six binding x mode columns: the bindings are now
    a header row with their modes under it, agents a row of their own, and every cell breaks
    into short lines. Rendered in headless Chromium, the README's plugfest page is 1385 px
    wide in a 1400 px window (it was 4578 px)."""
    matrix = _plugfest_matrix()
    parser = _Table()
    parser.feed(matrix_to_html(matrix))
    top, under, *body = parser.rows
    assert [(c[4], c[2], c[3]) for c in top] == [
        ("skill", 1, 2),
        ("steps", 11, 1),
        ("wire", 1, 2),
        ("JSONRPC", 3, 1),
        ("HTTP+JSON", 3, 1),
    ]
    assert [c[4] for c in under] == [*map(str, range(1, 12)), *["sync", "stream", "poll"] * 2]
    width = 1 + len(matrix.columns)
    agent_rows = [r for r in body if len(r) == 1]
    assert [(r[0][4], r[0][2]) for r in agent_rows] == [("digest-card", width), ("vendor-c", width)]
    for row in body:
        assert sum(c[2] for c in row) == width
    # No word longer than a short code part: cells and names wrap instead of widening.
    page = matrix_to_html(matrix)
    assert "nowrap" not in page and "table.matrix{width:100%}" in page
    longest = max(
        (w for row in body if len(row) > 1 for c in row for w in re.split(r"[\s_]", c[4])),
        key=len,
    )
    assert len(longest) <= len("available"), longest


def test_expected_failures_are_calm_and_the_counts_use_the_cells_words() -> None:
    """An expected failure is pale and dashed with the word EXPECTED (its first run's step
    cell too), a new one red FAIL; the counts say n/a as the cells do, never skip."""
    page = matrix_to_html(_plugfest_matrix())
    parser = _Table()
    parser.feed(page)
    expected_row, new_row = (r for r in parser.rows[2:] if len(r) > 1)
    assert {c[1] for c in expected_row[1:] if "✘" in c[4]} == {"expected", "expected step"}
    assert {c[4].split("\n")[0] for c in expected_row[12:] if "✘" in c[4]} == {"✘ EXPECTED"}
    assert {c[1] for c in new_row[1:] if "✘" in c[4]} == {"fail", "fail step"}
    css = re.search(r"\.expected\{([^}]*)\}", page)
    assert css is not None and "#b00020" not in css[1] and "dashed" in css[1]
    assert "✘ EXPECTED (pale, dashed): a failure the baseline knows" in page
    counts = re.search(r"</p><p>([^<]*)</p><table", page)
    assert counts is not None
    assert counts[1] == "8 FAIL (4 expected) · 4 n/a" and "skip" not in counts[1]


def test_markdown_keeps_agent_text_inert() -> None:
    text = matrix_to_markdown(_hostile_matrix(), base=Path("/tmp"))
    table = [line for line in text.splitlines() if line.startswith("| ")]
    # Every row of the matrix table has as many cells as the header: no "|" leaked.
    widths = {line.count(" | ") for line in table[:2]}
    assert len(widths) == 1
    assert "\\<script\\>" in text and "\\[bold red\\]" in text and "\\`tick\\`" in text
    assert "\x1b" not in text and "␛" in text
    assert "](<s/01-x.session.json>)" in text


def test_text_and_junit_keep_agent_text_inert() -> None:
    matrix = _hostile_matrix()
    assert "\x1b" not in matrix_to_text(matrix)
    root = ET.fromstring(junit_text(matrix_junit_suites(matrix)))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.get("type") == "input_invalid"
    assert "␛[2J" in (failure.get("message") or "")


def test_no_secret_reaches_any_output(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bearer token, an API key and a header value that does not look like a credential,
    all from the environment, are sent, and appear in no report, no session, no progress
    line: whatever header_env names is a secret."""
    token, key, tenant = "tok-CANARY-0123456789", "key-CANARY-9876543210", "tenant-CANARY-42"
    monkeypatch.setenv("PLUGFEST_TOKEN", token)
    monkeypatch.setenv("PLUGFEST_KEY", key)
    monkeypatch.setenv("PLUGFEST_TENANT", tenant)
    path = plugfest_file(
        tmp_path,
        {},
        f'[[agent]]\nname = "a"\ncard = "{reference_agent().url}"\nbearer_env = "PLUGFEST_TOKEN"\n'
        'header_env = { "X-Api-Key" = "PLUGFEST_KEY", "X-Tenant" = "PLUGFEST_TENANT" }\n'
        '[[skill]]\nid = "evaluate_resource_condition"',
        head='bindings = ["JSONRPC"]\nmodes = ["sync"]',
    )
    out = tmp_path / "out"
    code = main(
        [
            "matrix",
            str(path),
            "--json",
            *("--env", "PLUGFEST_TOKEN", "--env", "PLUGFEST_KEY", "--env", "PLUGFEST_TENANT"),
            "--save-dir",
            str(out),
            "--html",
            str(tmp_path / "m.html"),
            "--markdown",
            str(tmp_path / "m.md"),
            "--junit",
            str(tmp_path / "m.xml"),
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    session = json.loads(captured.out)["rows"][0]["cells"]["JSONRPC/sync"]["session"]
    saved = Path(session).read_text(encoding="utf-8")
    assert "«redacted:authorization»" in saved  # the token was sent, and redacted
    written = [captured.out, captured.err, saved] + [
        p.read_text(encoding="utf-8") for p in tmp_path.glob("m.*")
    ]
    assert "«redacted:x-tenant»" in saved  # the header the request carried, redacted
    for text in written:
        assert token not in text and key not in text and tenant not in text
