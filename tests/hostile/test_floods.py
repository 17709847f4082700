"""Floods: 40,000 warnings, advertisements or findings end the run with what is kept
bounded and the rest counted (their seconds: benchmarks/floods.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core import limits
from tests.hostile.attacks import ARTIFACTS, FLOOD, LISTED_FLOOD
from tests.hostile.measure import check

#: Floods of findings and artifacts, each in a child process.
#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow

#: Neither the run's deadline nor the read timeout may be what ends a flood on a loaded
#: machine (what a flood costs in seconds is a figure of benchmarks/floods.py).
SLOW = ("--deadline", "30", "--timeout", "30")


def test_card_warnings_flood_is_capped_and_counted(tmp_path: Path) -> None:
    measured = check("card-warnings-flood", tmp_path, *SLOW)
    assert measured.exit == 0  # warnings are not failures: every step passed
    warnings = measured.report["warnings"]
    assert len(warnings) == limits.MAX_WARNINGS + 1
    assert warnings[-1].startswith(f"{FLOOD - limits.MAX_WARNINGS} more warning(s) not kept")


def test_extension_advertisement_flood_fails_step_2_with_counted_findings(
    tmp_path: Path,
) -> None:
    # 40,000 bindings are ~6 MB of card, near the default size limit: raise it, so the
    # size limit is not what ends the run.
    big = ("--max-response-bytes", str(32 * 1024 * 1024))
    measured = check("extension-flood", tmp_path, *big, *SLOW)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (2, "interface_invalid", "local")
    findings = failed["findings"]
    assert len(findings) == limits.MAX_FINDINGS + 1
    assert findings[0]["rule"] == "ADV3" and findings[0]["pointer"] == "/params/skills/1/skill_id"
    closing = findings[-1]
    assert closing["rule"] == "LIMIT" and closing["severity"] == "error"
    assert closing["message"].startswith(f"{FLOOD - limits.MAX_FINDINGS} more finding(s)")


def test_validation_findings_flood_fails_step_10_with_an_exact_count(tmp_path: Path) -> None:
    """10,000 errors used to take 34 s (20,000: 117 s)."""
    measured = check("findings-flood-listed", tmp_path, *SLOW)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (10, "output_invalid", "local")
    assert failed["message"].endswith(f"(+{LISTED_FLOOD - 1} more)")
    findings = failed["findings"]
    assert len(findings) == limits.MAX_FINDINGS + 1
    assert [f["pointer"] for f in findings[:3]] == ["/result/0", "/result/1", "/result/2"]
    left_out = LISTED_FLOOD - limits.MAX_FINDINGS
    assert findings[-1]["message"].startswith(f"{left_out} more finding(s) not kept")


def test_a_validation_flood_lists_a_thousand_and_counts_to_a_bound(tmp_path: Path) -> None:
    """40,000 errors are listed part by part: the first thousand in order, then a count
    that stops at MAX_COUNTED_ERRORS and says "at least" (only the first used to be listed)."""
    measured = check("findings-flood", tmp_path, *SLOW)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (10, "output_invalid", "local")
    findings = failed["findings"]
    assert len(findings) == limits.MAX_FINDINGS + 1
    assert [(f["pointer"], f["keyword"]) for f in findings[:2]] == [
        ("/result/0", "type"),
        ("/result/1", "type"),
    ]
    counted = limits.MAX_COUNTED_ERRORS
    closing = findings[-1]
    assert closing["message"].startswith(f"at least {counted - limits.MAX_FINDINGS} more error")
    assert (closing["rule"], closing["severity"]) == ("LIMIT", "error")
    assert failed["message"].endswith(f"(+at least {counted - 1} more)")


def test_errors_that_each_copied_the_whole_result_stay_within_memory(tmp_path: Path) -> None:
    """100 root errors over a million values: each error used to carry its own copy."""
    measured = check("error-copies", tmp_path, *SLOW)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (10, "output_invalid", "local")
    assert failed["findings"][0]["keyword"] == "required"


#: The goal for 50,000 artifacts (was 41 s and 1.15 GB); generous: a loaded machine.
ARTIFACT_FLOOD_RSS_MB = 300


def test_fifty_thousand_artifacts_are_listed_bounded_and_counted(tmp_path: Path) -> None:
    """A 4 MB answer of 50,000 tiny records: `check --json` printed 128 MB, its step-10
    message alone 489 KB (every record id), and took 1.15 GB."""
    measured = check("artifact-flood", tmp_path, *SLOW)
    assert measured.peak_rss_mb < ARTIFACT_FLOOD_RSS_MB
    report = measured.report
    assert len(json.dumps(report)) < 3_000_000  # was 128 MB
    failed = measured.failed
    assert (failed["step"], failed["code"]) == (10, "output_invalid")
    named = "'extra-00000', 'extra-00001', 'extra-00002', 'extra-00003', 'extra-00004'"
    assert (
        f"supporting record {named} and {ARTIFACTS - 5} more does not validate"
        in (failed["message"])
    )
    assert len(failed["message"]) < 1000 and len(report["at_fault"]["statement"]) < 1000
    received = measured.step(9)["evidence"]
    assert len(received["artifacts"]) == limits.MAX_LISTED
    assert received["artifacts_not_listed"] == ARTIFACTS + 1 - limits.MAX_LISTED
    output = failed["evidence"]
    assert len(output["records"]) == limits.MAX_LISTED
    assert output["records_not_listed"] == ARTIFACTS - limits.MAX_LISTED
    assert not any(record["valid"] for record in output["records"])
    assert len(report["records"]) == limits.MAX_LISTED
    assert report["records_not_listed"] == ARTIFACTS - limits.MAX_LISTED
    # Every record still has its verdict, its errors listed only while the cap allows.
    assert len(failed["findings"]) == limits.MAX_FINDINGS + 1
    left_out = ARTIFACTS - limits.MAX_FINDINGS
    assert failed["findings"][-1]["message"].startswith(
        f"{left_out} more finding(s) not kept ({left_out} error(s))"
    )


def test_the_text_and_bug_reports_list_records_bounded_and_count_the_rest() -> None:
    """`check` without --json printed a line per record (50,000 lines), and the bug report a
    table row per record finding."""
    from sia_tui.core.a2a.task_views import Artifact
    from sia_tui.core.bugreport.blocks import Paragraph, Table
    from sia_tui.core.bugreport.build import _located
    from sia_tui.core.engine.report_text import render_text
    from sia_tui.core.findings import Finding
    from sia_tui.core.run.read_model import RecordResult, Run, Target

    run = Run(Target("http://127.0.0.1:1/"))
    extra = limits.MAX_LISTED + 500
    run.records = [
        RecordResult(Artifact(f"r{i}", "kind", (), {}), "kind", [Finding(f"bad {i}")])
        for i in range(extra)
    ]
    lines = render_text(run).splitlines()
    assert sum(line.startswith("record r") for line in lines) == limits.MAX_LISTED
    assert "... and 500 more record(s), 500 of them INVALID" in lines
    table, note = _located(run).blocks
    assert isinstance(table, Table) and len(table.rows) == limits.MAX_LISTED
    assert note == Paragraph("500 more located errors are not listed.")
