"""`sia-tui report` of a probe session: every recorded grade, and what a failure should
have answered, in Markdown and in HTML."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sia_tui.cli import main
from sia_tui.core import limits
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.session import save_probe_session
from tests.hostile.measure import run_measured
from tests.support.agents import StartAgent
from tests.support.probe import grades, probe


async def _saved(reference_agent: StartAgent, tmp_path: Path) -> Path:
    """A probe run against an agent that ignores max_input_bytes, saved as a session."""
    report = await probe(reference_agent(fault="ignores-max-input").url)
    assert grades(report)["oversized-input"] == "fail"
    path = tmp_path / "probe.session.json"
    save_probe_session(report, ClientOptions(), path)
    return path


async def test_the_markdown_report_shows_every_probe_and_the_answer_due(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    path = await _saved(reference_agent, tmp_path)
    out = tmp_path / "r.md"
    assert main(["report", str(path), "-o", str(out)]) == 0
    md = out.read_text(encoding="utf-8")
    assert "probes failed (1 pass" not in md  # the counts are the recorded ones
    assert re.search(r"probes failed \(\d+ pass, 1 fail, \d+ warn, \d+ skip\)", md.splitlines()[2])
    # The probe verdict leads the headline: a passing baseline must not read as a pass.
    assert re.search(r": probes failed .*; PASSED: all eleven steps passed", md.splitlines()[2])
    assert "## Probes" in md
    assert "| probe | rule | expected | observed | grade | reason |" in md
    row = next(line for line in md.splitlines() if line.startswith("| `oversized-input`"))
    assert "| ERR3 |" in row and "TASK\\_STATE\\_COMPLETED" in row and "❌ fail" in row
    assert re.search(r"\| `stale-digest` \| INV2 \|.*\| pass \|", md)
    assert re.search(r"\| `missing-credentials` \| INV4 \|.*\| skip \|", md)
    # The failure says what the agent should have answered.
    assert "- should have answered: a task in TASK\\_STATE\\_REJECTED" in md
    assert "constraint\\_rejected" in md
    # ... and quotes the exchange that shows it, ready for the vendor.
    assert re.search(r"Exchange \d+ \(probe oversized-input\): POST ", md)


async def test_the_html_report_shows_the_probes_too(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    path = await _saved(reference_agent, tmp_path)
    out = tmp_path / "r.html"
    assert main(["report", str(path), "--format", "html", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>Probes</h2>" in page
    assert "<td><code>oversized-input</code></td>" in page
    assert '<span class="failed">fail</span>' in page
    assert "should have answered" in page


#: Peak memory of a report (24,500 failures took 2.7 GB); generous, a guard only: the page's
#: counts below are what show each bound held.
REPORT_RSS_MB = 600


@pytest.mark.slow  # started first (tests/conftest.py)
async def test_the_report_of_a_huge_probe_session_is_bounded(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """24,500 failed probes made a 293-437 MB page in 43-52 s and 1.3-2.7 GB: every failure
    quoted its exchanges again. Now the table lists MAX_LISTED, MAX_EXPLAINED failures are
    explained, each exchange is quoted once, and the rest are counted."""
    path = await _saved(reference_agent, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    failed = next(r for r in data["probe"]["results"] if r["grade"] == "fail")
    # Just past the larger bound (MAX_LISTED rows; MAX_EXPLAINED is smaller): one probe more
    # than the table lists. The bounds hold for any count past them; 23,000 copies (as many
    # as the session limit lets load, a 118 MB file) cost 7 s and proved nothing more.
    copies = limits.MAX_LISTED + 1
    data["probe"]["results"] = [failed] * copies
    path.write_text(json.dumps(data), encoding="utf-8")
    for form in ("html", "markdown"):
        out = tmp_path / f"r.{form}"
        measured = run_measured(
            ["report", str(path), "--format", form, "-o", str(out)], hang_after=90
        )
        assert measured.exit == 0 and measured.peak_rss_mb < REPORT_RSS_MB, measured
        page = out.read_text(encoding="utf-8")
        assert len(page) < 1_000_000, len(page)  # was 293 MB
        assert f"{copies - limits.MAX_LISTED} more probes are not listed" in page
        left = copies - limits.MAX_EXPLAINED
        assert f"{left} more failed probes are not explained here" in page
        (seq,) = failed["exchanges"]
        assert page.count(f"Exchange {seq} (probe oversized-input)") == 1
        assert page.count(f"#{seq} (above)") == limits.MAX_EXPLAINED - 1
