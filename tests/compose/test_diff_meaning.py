"""`diff` keeps its verdict on annotation and unit changes but flags them for a person to read.

The seed's warning: a field named "threshold" might be a percentage, a count or a ratio.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli.parser import run
from sia_tui.core.interface.document_diff import diff_documents
from sia_tui.core.schemas.meaning import REVIEW, meaning_review
from sia_tui.core.schemas.schema_diff import Change, Impact
from tests.support.documents import condition_schema as _condition
from tests.support.documents import make_document, threshold_meaning_pair
from tests.support.documents import reseal_input as _reseal


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """The schema changes (the digest follows them, an informational change of its own)."""
    return [c for c in diff_documents(old, new).changes if c.aspect != "digest"]


def test_threshold_description_change_keeps_its_verdict_and_is_flagged() -> None:
    diff = diff_documents(*threshold_meaning_pair())
    [change] = _changes(*threshold_meaning_pair())
    assert change.impact is Impact.COMPATIBLE  # validation is unchanged: the verdict stands
    assert change.where == "input condition.threshold"
    assert change.review is not None and change.review.startswith(REVIEW)
    assert diff.version.follows and diff.ok
    assert diff.to_json()["review"] == 1


@pytest.mark.parametrize("keyword", ["title", "$comment"])
def test_title_and_comment_changes_are_flagged(keyword: str) -> None:
    old, new = make_document(), make_document()
    _condition(new)["properties"]["metric"][keyword] = "the metric, in ratio"
    [change] = _changes(old, _reseal(new, "1.1"))
    assert change.review is not None and keyword in change.review


def test_examples_change_is_not_flagged() -> None:
    """Examples show values but do not say what they mean: no review."""
    old, new = make_document(), make_document()
    _condition(new)["properties"]["threshold"]["examples"] = [0.8]
    [change] = _changes(old, _reseal(new, "1.1"))
    assert change.review is None


def test_unit_const_change_is_flagged() -> None:
    """``unit`` goes from percent to ratio: breaking for input, and flagged for meaning."""
    old, new = make_document(), make_document()
    _condition(new)["properties"]["unit"] = {"const": "ratio"}
    [change] = _changes(old, _reseal(new, "2.0"))
    assert change.aspect == "const"
    assert change.review is not None and "'unit' names a unit" in change.review


def test_enum_of_units_widened_is_flagged_though_compatible() -> None:
    old, new = make_document(), make_document()
    _condition(old)["properties"]["threshold_kind"] = {"enum": ["percent"]}
    _condition(new)["properties"]["threshold_kind"] = {"enum": ["percent", "ratio"]}
    [change] = _changes(_reseal(old, "1.0"), _reseal(new, "1.1"))
    assert change.impact is Impact.COMPATIBLE
    assert change.review is not None and "name units" in change.review


def test_enum_of_plain_words_is_not_flagged() -> None:
    old, new = make_document(), make_document()
    _condition(new)["properties"]["operator"] = {"enum": ["gte", "lte", "gt"]}
    [change] = _changes(old, _reseal(new, "1.1"))
    assert change.review is None


def test_cli_text_and_json_show_the_review(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    old, new = threshold_meaning_pair()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps(new))
    assert run(["diff", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "compatible input condition.threshold: annotation changed" in out
    assert f"{REVIEW}: the description changed" in out
    assert "1 to review: meaning may have changed" in out
    assert run(["diff", str(a), str(b), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["review"] == 1
    assert [c["review"] is not None for c in report["changes"]] == [True, False]  # the digest


@pytest.mark.parametrize(
    ("name", "flagged"),
    [
        ("unit", True),
        ("time_units", True),
        ("unitOfMeasure", True),
        ("SCALE", True),
        ("community", False),
        ("scaled_value", False),
    ],
)
def test_members_named_like_a_unit_or_scale(name: str, flagged: bool) -> None:
    review = meaning_review("enum", f"condition.{name}", ["a"], ["b"])
    assert (review is not None) is flagged
