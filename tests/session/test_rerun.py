"""Rerun: the recorded requests against the live target; "still reproduces" or what changed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.json_changes import json_diff
from sia_tui.core.session.rerun import rerun_session
from tests.support.agents import StartAgent
from tests.support.sessions import record_live, run_session_cli

BEARER = "canary-rerun-bearer-88c1"


@pytest.fixture
async def recorded(reference_agent: StartAgent, tmp_path: Path) -> tuple[Path, str]:
    agent = reference_agent(fault="digest-card")
    run = await record_live(agent.url, ClientOptions(bearer=BEARER))
    path = tmp_path / "s.json"
    save_session(run, ClientOptions(bearer=BEARER), path)
    return path, agent.url


def test_rerun_still_reproduces(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = recorded
    assert run_session_cli(["rerun", str(path), "--bearer", BEARER]) == 1  # still fails
    out, err = capsys.readouterr()
    assert out.startswith("still reproduces")
    assert BEARER not in out + err


def test_rerun_against_a_fixed_agent_reports_what_changed(
    recorded: tuple[Path, str], reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = recorded
    fixed = reference_agent()
    [result] = asyncio.run(rerun_session(load_session(path), location=fixed.url)).results
    assert not result.still_reproduces and not result.same
    assert "advertised" in result.digest_changes
    assert [c.step for c in result.step_changes][:1] == [4]
    assert result.step_changes[0].today == "passed"
    assert run_session_cli(["rerun", str(path), "--target", fixed.url, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    card_change = next(
        b for b in report["invocations"][0]["body_changes"] if b["purpose"] == "agent card"
    )
    assert any("interface_digest" in c["pointer"] for c in card_change["changes"])


def test_structural_diff_names_pointers_and_ignores_fresh_ids() -> None:
    before = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "task": {"id": "t1", "contextId": "c1", "status": {"state": "A"}, "n": 1, "gone": True}
        },
    }
    after = {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {
            "task": {"id": "t2", "contextId": "c2", "status": {"state": "B"}, "n": 1.0, "new": [1]}
        },
    }
    changes = {(c.op, c.pointer) for c in json_diff(before, after)}
    assert changes == {
        ("changed", "/result/task/status/state"),
        ("removed", "/result/task/gone"),
        ("added", "/result/task/new"),
    }


def test_a_redacted_target_needs_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.sessions import canary_options, digest_card_run

    path = tmp_path / "s.json"
    save_session(digest_card_run(), canary_options(), path)
    assert run_session_cli(["rerun", str(path)]) == 2
    assert "--target" in capsys.readouterr().err


async def test_rerun_against_an_agent_that_is_gone_says_connection_refused(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing answers at the recorded URL: the headline names the refused connection and
    compares nothing; a digest that was not obtained did not 'change'."""
    agent = reference_agent(fault="digest-card")
    run = await record_live(agent.url, ClientOptions())
    path = tmp_path / "gone.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    code = await asyncio.to_thread(run_session_cli, ["rerun", str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("not re-run: the agent could not be reached")
    assert "connection refused" in out.lower() and "nothing was compared" in out
    assert "digest changed" not in out and "no such request today" not in out
