"""A plugfest of many rows: memory bounded whatever the number of cells, the composition
table judged within its bound with the rest counted, and reports that stay readable."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from sia_tui.core import limits
from sia_tui.core.matrix import Matrix, MatrixRunner, load_plugfest
from sia_tui.core.matrix.composition import MAX_GRID_ROWS
from tests.hostile.honest import ARGUMENTS
from tests.hostile.measure import run_measured
from tests.hostile.registry import Attack
from tests.hostile.server import HostileServer

#: Rows (agent entries on one honest agent, one skill each): the fewest whose ordered pairs
#: pass MAX_COMPOSITION_PAIRS (101 rows: 606 cells, 10,100 pairs), past MAX_GRID_ROWS too.
ROWS = math.isqrt(limits.MAX_COMPOSITION_PAIRS) + 1
#: Peak memory of that matrix (was about 450 MB: the matrix's repr, every composition
#: pair with both its rows, made when asyncio.run returned it); generous for a busy machine.
PEAK_RSS_MB = 200
HONEST = Attack("honest", "answers every request correctly")


#: Rows of the matrix whose repr is checked: the repr is the same few fields whatever the
#: size (a full repr of even 3 rows is thousands of characters), so no need for ROWS.
REPR_ROWS = 3


def _plugfest(tmp_path: Path, url: str, rows: int) -> Path:
    """``rows`` agent entries, all on the agent at ``url``."""
    (tmp_path / "args.json").write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    lines = ['name = "scale"', 'arguments = "args.json"', "deadline = 30"]
    for index in range(rows):
        lines += ["[[agent]]", f'name = "vendor-{index:03d}"', f'card = "{url}"']
    path = tmp_path / "PLUGFEST.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def honest_url() -> Iterator[str]:
    """One honest agent on 127.0.0.1."""
    with HostileServer(HONEST.handler) as server:
        yield server.url


@pytest.fixture
def plugfest(tmp_path: Path, honest_url: str) -> Path:
    """ROWS agent entries, all on one honest agent on 127.0.0.1."""
    return _plugfest(tmp_path, honest_url, ROWS)


def test_a_large_matrix_stays_in_bounded_memory_with_bounded_reports(
    plugfest: Path, tmp_path: Path
) -> None:
    markdown, html = tmp_path / "m.md", tmp_path / "m.html"
    args = ["matrix", str(plugfest), "--json", "--markdown", str(markdown), "--html", str(html)]
    measured = run_measured(args, hang_after=150)
    assert measured.exit == 0, measured.stderr[-2000:]
    assert measured.peak_rss_mb < PEAK_RSS_MB
    report = measured.report
    assert report["counts"] == {"pass": 3 * ROWS, "skip": 3 * ROWS}
    pairs = ROWS * (ROWS - 1)
    assert pairs > limits.MAX_COMPOSITION_PAIRS and ROWS > MAX_GRID_ROWS
    assert len(report["composition"]) == limits.MAX_COMPOSITION_PAIRS
    assert report["composition_not_listed"] == pairs - limits.MAX_COMPOSITION_PAIRS
    assert {p["status"] for p in report["composition"]} == {"not_allowed"}  # output != input
    left = f"{pairs - limits.MAX_COMPOSITION_PAIRS} more pairs are not judged"
    for page in (markdown.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")):
        assert f"{ROWS} rows: too many for a grid" in page and left in page
        assert len(page) < 3_000_000  # a grid of 110 x 110 rows is neither


async def test_a_matrix_has_a_short_repr(tmp_path: Path, honest_url: str) -> None:
    """asyncio.run formats its task's result with repr(), twice: the full repr of a matrix
    grew with every cell and every composition pair."""
    plugfest = _plugfest(tmp_path, honest_url, REPR_ROWS)
    matrix: Matrix = await MatrixRunner(load_plugfest(plugfest), jobs=8).run()
    pairs = REPR_ROWS * (REPR_ROWS - 1)
    assert repr(matrix) == (
        f"Matrix(plugfest='scale', rows={REPR_ROWS}, columns=18, "
        f"composition={pairs}, finished=True)"
    )
    assert len(repr(matrix.rows[0])) < 100 and len(repr(matrix.composition[0])) < 200
