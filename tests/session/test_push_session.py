"""A session keeps a run's push deliveries (``run.push``, added to sia-session/4 as an
optional member) and the target's push request; older files load with none."""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.push_log import LOOPBACK
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session import load_session, save_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import run_appendix_b


async def push_run(agent_url: str, invocations: int = 1) -> Run:
    """A run of the Appendix B arguments with sia-tui's loopback receiver."""
    target = Target(agent_url, skill_id="evaluate_resource_condition", push=LOOPBACK)
    return await run_appendix_b(target, invocations=invocations)


async def test_deliveries_survive_save_and_load(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    run = await push_run(reference_agent(push="on").url)
    assert run.push is not None and run.push.deliveries
    save_session(run, ClientOptions(), tmp_path / "s.json")
    loaded = load_session(tmp_path / "s.json").run
    assert loaded.target.push == LOOPBACK
    assert loaded.push == run.push
    assert loaded.push is not None
    assert [d.task_state for d in loaded.push.deliveries] == [
        d.task_state for d in run.push.deliveries
    ]


def test_a_session_without_push_loads_with_none(tmp_path: Path) -> None:
    """A file written before push existed has no ``push`` members: the defaults apply."""
    from sia_tui.core.session.dataclass_json import from_json, to_json

    raw = to_json(Run(target=Target("http://127.0.0.1:9")))
    raw.pop("push")
    raw["target"].pop("push")
    run = from_json(Run, raw, "run")
    assert run.push is None and run.target.push is None


@pytest.mark.parametrize("push", ["on", "refuse-loopback"])
async def test_a_push_session_replays_offline_to_the_same_verdict(
    reference_agent: StartAgent, tmp_path: Path, push: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replay listens on nothing and waits for no delivery: the recorded webhook URL is
    registered as an external one, and a recorded refusal replays as it happened (the send
    with the webhook refused, the send without it answered)."""
    from sia_tui.core.a2a.push.receiver import PushReceiver
    from sia_tui.core.session.replay import replay_session

    save_session(
        await push_run(reference_agent(push=push).url), ClientOptions(), tmp_path / "s.json"
    )
    waits: list[float] = []

    async def wait_for(self: PushReceiver, done: object, seconds: float) -> bool:
        waits.append(seconds)
        return False

    monkeypatch.setattr(PushReceiver, "wait_for", wait_for)
    [result] = (await replay_session(load_session(tmp_path / "s.json"))).results
    assert result.same and result.unmatched == [], result.changes
    assert result.run.push is not None and not result.run.push.sees_deliveries
    assert waits == []  # no grace spent waiting for a push


async def test_each_invocation_keeps_its_own_deliveries_after_save_and_load(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """Two invocations with push: after loading, the first shows the notifications of its
    own task, not the last invocation's (replay, the bug report and History read each one)."""
    run = await push_run(reference_agent(push="on").url, invocations=2)
    first, last = (each.run for each in run.invocations)
    assert first.push is not None and last.push is not None
    assert first.push != last.push
    save_session(run, ClientOptions(), tmp_path / "s.json")
    loaded_first, loaded_last = (
        each.run for each in load_session(tmp_path / "s.json").run.invocations
    )
    assert loaded_first.push == first.push
    assert loaded_last.push == last.push


async def test_the_push_token_never_reaches_the_saved_file(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The webhook's token lets whoever holds it post notifications the receiver believes,
    so the session file carries it redacted, in the send's request body too."""
    run = await push_run(reference_agent(push="on").url)
    [(_, token)] = run.issued.pairs()
    assert run.push is not None and run.push.deliveries
    save_session(run, ClientOptions(), tmp_path / "s.json")
    saved = (tmp_path / "s.json").read_text()
    assert token not in saved
    assert "push notification token" in saved
