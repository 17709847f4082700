"""Refused push deliveries (no token, or the wrong one: any local process can post to the
loopback receiver) are kept apart from the agent's and counted on every surface: check's
text and ``--json`` ``push``, and sessions."""

from __future__ import annotations

from sia_tui.core.a2a.push.receiver import Delivery
from sia_tui.core.engine.push import push_to_json
from sia_tui.core.engine.report_text import render_text
from sia_tui.core.run.push_log import LOOPBACK, PushLog
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session.dataclass_json import from_json, to_json

URL = "http://127.0.0.1:4000/a2a/push"


def _run() -> Run:
    run = Run(target=Target("http://127.0.0.1:9", push=LOOPBACK))
    run.push = PushLog(
        receiver=LOOPBACK,
        url=URL,
        registered=True,
        deliveries=[Delivery(1, "", 0.1, 300, True, True, "status", "t-1", "TASK_STATE_WORKING")],
        refused=[Delivery(1, "", 0.05, 200, False, False, "status", "t-1", "TASK_STATE_COMPLETED")],
        refused_count=37,
    )
    return run


def test_json_push_lists_the_refused_apart_with_their_count() -> None:
    push = push_to_json(_run().push)
    assert push is not None
    assert [d["token_ok"] for d in push["deliveries"]] == [True]
    assert push["refused_count"] == 37
    assert [(d["number"], d["token_ok"]) for d in push["refused"]] == [(1, False)]


def test_text_report_counts_the_refused() -> None:
    text = render_text(_run())
    assert f"1 delivery received at {URL}; 37 refused without the run's token" in text
    assert "refused #1 +0.05 s status TASK_STATE_COMPLETED: token WRONG" in text
    assert "... and 36 more refused, not kept" in text


def test_a_session_keeps_the_refused_and_an_older_one_loads_without() -> None:
    run = _run()
    loaded = from_json(Run, to_json(run), "run")
    assert loaded.push == run.push and loaded.push is not None
    assert loaded.push.refused_count == 37
    raw = to_json(run)
    del raw["push"]["refused"], raw["push"]["refused_count"]
    older = from_json(Run, raw, "run")
    assert older.push is not None and older.push.refused == [] and older.push.refused_count == 0
