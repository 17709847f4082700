"""`lint` step 4 (RULES CP4): every digest given or carried is compared, and the pair that
differs is named, in text and in --json; the engine's step 4 decides it for both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.engine.offline import verify_offline
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.engine.steps.verification import digests_step
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.run.read_model import Run, Step, Target
from tests.support.documents import make_document

OTHER = "sha256:" + "0" * 64


def _payload(tmp_path: Path, returned: Any) -> tuple[Path, str]:
    document = make_document()
    path = tmp_path / "payload.json"
    path.write_text(json.dumps({"interface_digest": returned, "skill_interface": document}))
    return path, digest_of(document)


@pytest.mark.parametrize(
    "returned, fragment",
    [
        (OTHER, f"describe_skill returned {OTHER}, but --digest advertises"),
        ("not a digest", "the returned digest is malformed: missing the 'sha256:' prefix"),
    ],
    ids=["another-document", "not-a-digest"],
)
def test_cp4_lint_compares_the_returned_digest_even_when_the_advertised_one_is_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], returned: str, fragment: str
) -> None:
    path, right = _payload(tmp_path, returned)
    assert main(["lint", str(path), "--digest", right]) == 1
    out = capsys.readouterr().out
    assert fragment in out and "[CP4]" in out
    # The table names the odd one out: the two that agree are not blamed.
    assert f"advertised (--digest)        {right}  = computed" in out
    assert f"returned (interface_digest)  {returned}  ≠ both" in out
    assert "ok:" not in out


def test_cp4_lint_json_names_every_pair_that_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, right = _payload(tmp_path, OTHER)
    assert main(["lint", str(path), "--json", "--digest", right]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["digests"]["values"] == {
        "advertised": right,
        "returned": OTHER,
        "computed": right,
    }
    assert report["digests"]["differ"] == [["advertised", "returned"], ["returned", "computed"]]
    [finding] = report["findings"]
    assert (finding["rule"], finding["instance_path"], finding["actual"]) == (
        "CP4",
        "/interface_digest",
        OTHER,
    )


def test_cp4_lint_three_different_digests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, right = _payload(tmp_path, OTHER)
    third = "sha256:" + "1" * 64
    assert main(["lint", str(path), "--json", "--digest", third]) == 1
    report = json.loads(capsys.readouterr().out)
    assert len(report["digests"]["differ"]) == 3
    messages = [f["message"] for f in report["findings"]]
    assert messages[0] == f"describe_skill returned digest {OTHER} but --digest advertises {third}"
    assert messages[1].startswith(f"the returned document hashes to {right}, not {OTHER}")


def test_cp4_lint_without_digest_compares_the_payload_with_the_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, right = _payload(tmp_path, OTHER)
    assert main(["lint", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"the returned document hashes to {right}, not {OTHER}" in out
    assert "advertised" not in out  # a file has no card: nothing is said to be advertised
    assert f"returned (interface_digest)  {OTHER}  ≠ computed" in out


@pytest.mark.usefixtures("cli_wording")
def test_cp4_lint_and_the_engine_share_step_4(tmp_path: Path) -> None:
    """The same three digests give the same findings in a run's step 4 and in `lint`."""
    document = make_document()
    right = digest_of(document)
    run = Run(target=Target("http://agent.test"))
    run.document = document
    run.digests.advertised, run.digests.returned = right, OTHER
    with pytest.raises(StepFailed) as failed:
        digests_step(run, run.step(Step.DIGESTS))
    live = [(f.rule, f.pointer, f.expected, f.actual) for f in failed.value.findings]
    offline = verify_offline(document, advertised=right, returned=OTHER)
    assert [(f.rule, f.pointer, f.expected, f.actual) for f in offline.findings] == live
    assert "the Agent Card advertises" in failed.value.findings[0].message
    assert "--digest advertises" in offline.findings[0].message
