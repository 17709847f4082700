"""A saved session keeps a record streamed before the task was cancelled, unchecked.

Reopened (``sia-tui open SESSION``, the bug report), the session must say what the person
saw while the task ran: probe-1 arrived, the task was cancelled, step 10 never checked it.
"""

from __future__ import annotations

from pathlib import Path

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bugreport.report_markdown import render_markdown
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.session import load_session, save_session
from tests.support.agents import StartAgent
from tests.support.cancelled_stream import stream_until_a_record


async def _cancel(procedure: Procedure) -> None:
    await procedure.cancel()


async def test_a_reopened_session_keeps_the_record_streamed_before_the_cancel(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """Saved and loaded again, the run names probe-1 as received before the cancel and not
    checked, with its data, exactly as the live run did; steps 10-11 are still not passed;
    the bug report made from the file lists it under "Artifacts not checked"."""
    agent = reference_agent(step_delay=1.0)
    live = await stream_until_a_record(agent.url, _cancel)
    path = tmp_path / "cancelled.session.json"
    save_session(live, ClientOptions(), path)
    session = load_session(path)
    reopened = session.run
    unchecked = reopened.answers.unchecked_artifacts
    assert unchecked is not None
    assert [a.artifact_id for a in unchecked.artifacts] == ["probe-1"]
    assert unchecked.artifacts[0].data_parts()[0]["record_id"] == "probe-1"
    assert unchecked.why.startswith("received before the task was cancelled")
    assert run_to_json(reopened)["unchecked_artifacts"] == run_to_json(live)["unchecked_artifacts"]
    assert [s.status.value for s in reopened.steps[8:]] == [s.status.value for s in live.steps[8:]]
    assert "passed" not in [s.status.value for s in reopened.steps[9:]]
    report = render_markdown(session, path.name)
    section = report.split("## Artifacts not checked", 1)[1].split("\n## ", 1)[0]
    assert "received before the task was cancelled" in section and "`probe-1`" in section
