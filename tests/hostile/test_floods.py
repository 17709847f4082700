"""Floods: 100,000 warnings, advertisements or findings cost seconds, and what is kept is
bounded with the rest counted."""

from __future__ import annotations

from pathlib import Path

from sia_tui.core import limits
from tests.hostile.attacks import FLOOD, LISTED_FLOOD
from tests.hostile.measure import check

#: The bound for 100,000 of anything, process start included.
FLOOD_SECONDS = 10.0
#: The run's deadline must not be what ends a flood on a loaded machine.
SLOW = ("--deadline", str(FLOOD_SECONDS))


def test_card_warnings_flood_is_capped_and_counted(tmp_path: Path) -> None:
    measured = check("card-warnings-flood", tmp_path, *SLOW, within=FLOOD_SECONDS)
    assert measured.exit == 0  # warnings are not failures: every step passed
    warnings = measured.report["warnings"]
    assert len(warnings) == limits.MAX_WARNINGS + 1
    assert warnings[-1].startswith(f"{FLOOD - limits.MAX_WARNINGS} more warning(s) not kept")


def test_extension_advertisement_flood_fails_step_2_with_counted_findings(
    tmp_path: Path,
) -> None:
    # 100,000 bindings are ~15 MB of card: past the default size limit, so raise it.
    big = ("--max-response-bytes", str(32 * 1024 * 1024))
    measured = check("extension-flood", tmp_path, *big, *SLOW, within=FLOOD_SECONDS)
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
    measured = check("findings-flood-listed", tmp_path, *SLOW, within=FLOOD_SECONDS)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (10, "output_invalid", "local")
    assert failed["message"].endswith(f"(+{LISTED_FLOOD - 1} more)")
    findings = failed["findings"]
    assert len(findings) == limits.MAX_FINDINGS + 1
    assert [f["pointer"] for f in findings[:3]] == ["/result/0", "/result/1", "/result/2"]
    left_out = LISTED_FLOOD - limits.MAX_FINDINGS
    assert findings[-1]["message"].startswith(f"{left_out} more finding(s) not kept")


def test_a_validation_flood_lists_a_thousand_and_counts_to_a_bound(tmp_path: Path) -> None:
    """100,000 errors are listed part by part: the first thousand in order, then a count
    that stops at MAX_COUNTED_ERRORS and says "at least" (only the first used to be listed)."""
    measured = check("findings-flood", tmp_path, *SLOW, within=FLOOD_SECONDS)
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
    measured = check("error-copies", tmp_path, *SLOW, within=FLOOD_SECONDS)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (10, "output_invalid", "local")
    assert failed["findings"][0]["keyword"] == "required"
