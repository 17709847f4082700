"""A result of 300,000 numbers (network telemetry) saves, loads and replays (format /3).

``sia-session/2`` stored each artifact payload five times parsed (the task's artifact, its
``raw``, the task's ``raw``, the result, the result's ``raw``): 1.5 million values, over
the 1,000,000 a session may hold, so ``check --save`` refused the bug report.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.agent import skills
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.jsonkit.strictjson import count_values
from sia_tui.core.run.read_model import Run
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import replay_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import record_live

#: A result of 300,000 numbers.
#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow

NUMBERS = 300_000


@pytest.mark.parametrize("mode", ["sync", "stream"])
async def test_a_result_of_300000_numbers_saves_and_replays_the_same(
    reference_agent: StartAgent,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
) -> None:
    telemetry = [n % 1000 for n in range(NUMBERS)]
    monkeypatch.setattr(skills, "large_samples", lambda: telemetry)
    agent = reference_agent(fault="large-result")
    run: Run = await record_live(
        agent.url, ClientOptions(), arguments=APPENDIX_B_ARGUMENTS, mode=mode
    )
    agent.stop()
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (10, "output_invalid")

    path = tmp_path / "telemetry.session.json"
    save_session(run, ClientOptions(), path)  # refused before: 1.5 million values
    assert count_values(path.read_bytes(), 0) < NUMBERS * 2  # 0: count outside strings

    session = load_session(path)
    assert session.manifest_ok, session.warnings
    loaded = session.run
    assert loaded.task is not None and loaded.result is not None
    assert loaded.result.parts[0].value["x_samples"] == telemetry
    assert loaded.task == run.task
    assert loaded.result == run.result
    assert [r.artifact for r in loaded.records] == [r.artifact for r in run.records]
    assert [s.status for s in loaded.steps] == [s.status for s in run.steps]
    [replayed] = (await replay_session(session)).results
    assert replayed.same
    again = replayed.run.failed_step
    assert again is not None and (again.step, again.code) == (10, "output_invalid")
