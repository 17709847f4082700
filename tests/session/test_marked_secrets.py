"""A value marked secret is hidden everywhere except in the bytes a digest is checked over.

The Appendix B resource id is both an argument the user may mark secret and the first
example in the published input schema: redacting it from the describe_skill document
would change the document's digest, so replay would fail step 4 and the Digests screen
would contradict the Steps screen.
"""

from __future__ import annotations

import json
from pathlib import Path

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import replay_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import record_live

MARKED = "network-resource-123"


async def saved_with_marked_value(reference_agent: StartAgent, path: Path) -> None:
    agent = reference_agent()
    run = await record_live(agent.url, ClientOptions(), arguments=APPENDIX_B_ARGUMENTS)
    assert run.verdict.outcome == "passed"
    document = json.dumps(run.document)
    assert MARKED in document  # the published input schema's example carries it
    save_session(run, ClientOptions(), path, secret_values=[MARKED])
    agent.stop()


async def test_replay_reaches_the_live_verdicts_when_a_value_is_marked_secret(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """Every step's verdict on replay is the live one: the document bytes were kept."""
    path = tmp_path / "marked.session.json"
    await saved_with_marked_value(reference_agent, path)
    session = load_session(path)
    assert not session.warnings
    [result] = (await replay_session(session)).results
    assert result.same, [(c.step, c.recorded, c.today) for c in result.changes]
    assert [s.status.value for s in result.run.steps] == ["passed"] * 11


async def test_the_marked_value_is_hidden_everywhere_but_in_the_digested_document(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The invoke request and the recorded arguments carry the placeholder; the
    describe_skill document (its exchange and ``run.document``) keeps its bytes."""
    path = tmp_path / "marked.session.json"
    await saved_with_marked_value(reference_agent, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    invoke = next(ex for ex in data["exchanges"] if ex["purpose"] == "invoke")
    describe = next(ex for ex in data["exchanges"] if ex["purpose"] == "describe_skill")
    assert MARKED not in invoke["request"]["body"]["text"]
    assert "«redacted:secret»" in invoke["request"]["body"]["text"]
    assert MARKED not in json.dumps(data["run"]["arguments"])
    assert MARKED not in json.dumps(data["run"]["steps"][6:])
    assert MARKED in describe["response"]["body"]["text"] and describe["digested"] is True
    assert MARKED in json.dumps(data["run"]["document"])
