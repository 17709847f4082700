"""`sia-tui compose` and `sia-tui diff`: exit codes, text and JSON, against files and the agent."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli.parser import run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "documents"
Agent = Callable[..., Any]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fixture(name: str) -> str:
    return str(FIXTURES / name)


# -- diff on document files -------------------------------------------------------------------


def test_diff_compatible_release_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "diff", fixture("reservation-1.0.json"), fixture("reservation-1.1-compatible.json")
    )
    assert code == 0
    assert 'compatible input priority: enum added: ["urgent"]' in out
    assert "version rule followed: compatible change, 1.0 -> 1.1" in out
    assert "\x1b[" not in out  # no colour when stdout is not a terminal


def test_diff_breaking_with_minor_bump_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "diff", fixture("reservation-1.0.json"), fixture("reservation-1.1-breaking.json")
    )
    assert code == 1
    assert "BREAKING   input tenant_id: member added: required" in out
    assert "version rule violated: breaking change but minor bump (expected 2.0)" in out


def test_diff_breaking_with_major_bump_still_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "diff", fixture("reservation-1.0.json"), fixture("reservation-2.0-breaking.json")
    )
    assert code == 1
    assert "version rule followed: breaking change, 1.0 -> 2.0" in out


def test_diff_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys,
        "diff",
        fixture("reservation-1.0.json"),
        fixture("reservation-1.1-payload.json"),
        "--json",
    )
    report = json.loads(out)
    assert code == 0
    assert set(report) == {
        "a",
        "b",
        "ok",
        "breaking",
        "compatible",
        "info",
        "review",
        "version",
        "changes",
        "notes",
    }
    assert report["b"]["skill_version"] == "1.1"
    assert report["version"]["follows"] is True
    change = report["changes"][0]
    assert set(change) == {
        "pointer",
        "where",
        "aspect",
        "kind",
        "old",
        "new",
        "impact",
        "reason",
        "review",
    }
    assert {c["impact"] for c in report["changes"]} <= {"breaking", "compatible", "info"}


def test_diff_payload_with_wrong_digest_is_noted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    payload = json.loads(Path(fixture("reservation-1.1-payload.json")).read_text())
    payload["interface_digest"] = "sha256:" + "0" * 64
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(payload))
    _, out, _ = cli(capsys, "diff", fixture("reservation-1.0.json"), str(path), "--json")
    # The payload's digest is the returned one; with no card, it is compared with the
    # digest computed over the document (RULES CP4).
    assert any(
        "(RULES CP4)" in n and "hashes to" in n and "0" * 64 in n
        for n in json.loads(out)["b"]["notes"]
    )


def test_diff_file_with_broken_embedded_digest_is_noted_and_not_approved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A document `lint` rejects (CP6) is never approved by `diff`, whatever its versions."""
    doc = json.loads(Path(fixture("reservation-1.1-compatible.json")).read_text())
    doc["input_schema"]["digest"] = "sha256:" + "0" * 64
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    code, out, _ = cli(capsys, "diff", fixture("reservation-1.0.json"), str(path))
    assert "at /input_schema/digest" in out and "(RULES CP6)" in out
    assert "B fails steps 4-6 (see its notes): an invalid document, not approved" in out
    assert code == 1 == cli(capsys, "lint", str(path))[0]
    code, out, _ = cli(capsys, "diff", fixture("reservation-1.0.json"), str(path), "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    assert (report["a"]["valid"], report["b"]["valid"]) == (True, False)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["diff", "no-such-file.json", "x#y"], "A: 'no-such-file.json' is neither a file nor"),
        (["diff", "__FIX__", "__NOTJSON__"], "B: "),
        (["diff", "__FIX__", "__SESSION2__"], "unsupported session format 'sia-session/9'"),
    ],
)
def test_diff_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], fragment: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1,}')
    future = tmp_path / "future.json"
    future.write_text(json.dumps({"format": "sia-session/9"}))
    swap = {
        "__FIX__": fixture("reservation-1.0.json"),
        "__NOTJSON__": str(bad),
        "__SESSION2__": str(future),
    }
    code, out, err = cli(capsys, *[swap.get(a, a) for a in argv])
    assert code == 2 and out == ""
    assert fragment in err and "Traceback" not in err


# -- against the reference agent --------------------------------------------------------------


def test_compose_identical_pair_exits_0(
    capsys: pytest.CaptureFixture[str], reference_agent: Agent
) -> None:
    url = reference_agent().url
    code, out, _ = cli(
        capsys, "compose", url, "measure_available_bandwidth", url, "admit_traffic_demand"
    )
    assert code == 0
    assert "✔ direct composition allowed" in out
    assert "structural compatibility only" in out  # RULES CMP3


def test_compose_look_alike_pair_exits_1_naming_fields(
    capsys: pytest.CaptureFixture[str], reference_agent: Agent
) -> None:
    url = reference_agent().url
    code, out, _ = cli(capsys, "compose", url, "measure_link_capacity", url, "admit_traffic_demand")
    assert code == 1
    assert "direct composition not allowed: schema_uri, digest differ" in out  # RULES CMP2
    assert "DIFFER schema_uri" in out and "equal  version" in out
    assert "Looking alike is not enough" in out


def test_compose_json_keeps_task_ids_distinct(
    capsys: pytest.CaptureFixture[str], reference_agent: Agent, tmp_path: Path
) -> None:
    url = reference_agent().url
    instance = tmp_path / "value.json"
    instance.write_text('{"link_id": "l-1",\n "value": -5, "unit": "Mbit/s"}')
    code, out, _ = cli(
        capsys,
        "compose",
        url,
        "measure_link_capacity",
        url,
        "admit_traffic_demand",
        "--instance",
        str(instance),
        "--json",
    )
    report = json.loads(out)
    assert code == 1
    assert report["differing"] == ["schema_uri", "digest"]
    assert [f["name"] for f in report["fields"]] == ["schema_uri", "version", "dialect", "digest"]
    up_task, down_task = report["upstream"]["task_id"], report["downstream"]["task_id"]
    assert up_task and down_task and up_task != down_task  # RULES INV12
    finding = report["instance"]["findings"][0]
    assert (finding["instance_path"], finding["keyword"], finding["line"]) == (
        "/value",
        "minimum",
        2,
    )


def test_compose_unobtainable_side_exits_2_naming_side_and_step(
    capsys: pytest.CaptureFixture[str], reference_agent: Agent
) -> None:
    url = reference_agent().url
    code, out, err = cli(
        capsys, "compose", url, "measure_available_bandwidth", url, "no_such_skill"
    )
    assert code == 2 and out == ""
    assert "downstream: step 2 (Select the advertised skill) failed" in err


def test_compose_refuses_a_document_with_a_corrupt_schema_digest(
    capsys: pytest.CaptureFixture[str], reference_agent: Agent
) -> None:
    url = reference_agent(fault="schema-digest").url
    code, _, err = cli(
        capsys, "compose", url, "evaluate_resource_condition", url, "admit_traffic_demand"
    )
    assert code == 2  # RULES CP0/CMP1: an unverified schema never reaches the comparison
    assert "upstream: step 6" in err


def test_diff_live_sides_and_a_saved_session(
    capsys: pytest.CaptureFixture[str], reference_agent: Agent, tmp_path: Path
) -> None:
    url = reference_agent().url
    session = tmp_path / "capacity.sia.json"
    code, _, _ = cli(
        capsys,
        "check",
        url,
        "--skill",
        "measure_link_capacity",
        "--save",
        str(session),
    )
    assert code == 3  # steps 1-6 passed; without --args the run is incomplete
    code, out, _ = cli(capsys, "diff", f"{url}#measure_available_bandwidth", str(session), "--json")
    report = json.loads(out)
    assert code == 1
    assert report["b"]["skill_id"] == "measure_link_capacity"
    assert [c["aspect"] for c in report["changes"] if c["impact"] == "breaking"] == ["schema_uri"]
    code, out, _ = cli(capsys, "diff", f"{url}#admit_traffic_demand", f"{url}#admit_traffic_demand")
    assert code == 0 and "no structural change" in out
