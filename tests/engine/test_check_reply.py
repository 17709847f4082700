"""`sia-tui check --reply`: one reply per question of an interrupted task, in order; a task
that asks with no reply left ends incomplete (exit 3) with its question in the report."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent
from sia_tui.cli import main
from sia_tui.core.run.turns import UNVALIDATED

QUESTION = "Which site should the report name? Reply with any text."
SKILL = ["--skill", "evaluate_resource_condition", "--args", "example"]


@pytest.fixture
def asking_url() -> Iterator[str]:
    agent = start_agent(AgentConfig(ask="input", step_delay=0.02))
    try:
        yield agent.url
    finally:
        agent.stop()


def check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_question_without_a_reply_is_incomplete_with_the_question(
    asking_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", asking_url, *SKILL])
    out = capsys.readouterr().out
    assert code == 3
    assert f"the agent asks: {QUESTION}" in out
    # It says how to answer on the command line.
    assert "no reply given: the task still waits; answer it with --reply" in out
    assert "outcome: INCOMPLETE" in out


def test_a_text_reply_completes_the_task(
    asking_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, asking_url, *SKILL, "--reply", "north hall")
    assert code == 0 and report["outcome"] == "passed"
    [turn] = report["turns"]
    assert turn["question"] == QUESTION and turn["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert (turn["reply_kind"], turn["reply"]) == ("text", "north hall")
    assert turn["validation"] == UNVALIDATED and turn["sent_at"]


def test_a_json_file_reply_is_one_data_part(
    asking_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reply = tmp_path / "reply.json"
    reply.write_text('{"site": "north hall"}')
    code, report = check_json(capsys, asking_url, *SKILL, "--reply", f"@{reply}")
    assert code == 0
    [turn] = report["turns"]
    assert (turn["reply_kind"], turn["reply"]) == ("data", {"site": "north hall"})


def test_an_unreadable_reply_file_is_usage(
    asking_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", asking_url, *SKILL, "--reply", f"@{tmp_path / 'missing.txt'}"])
    assert code == 2
    assert "missing.txt" in capsys.readouterr().err


def test_junit_lists_the_turn_under_step_9(
    asking_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "check.xml"
    code = main(["check", asking_url, *SKILL, "--reply", "north hall", "--junit", str(junit)])
    capsys.readouterr()
    assert code == 0
    xml = junit.read_text()
    assert "turn 1: TASK_STATE_INPUT_REQUIRED; the agent asks: Which site" in xml
    assert "north hall" in xml


@pytest.mark.parametrize("mode", ["sync", "stream"])
def test_a_saved_session_keeps_every_turn_and_replays_it(
    asking_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    """sia-session/6 records the turns; replay answers the reply from its recorded bytes
    and ends as the run did, and the bug report shows the question and the reply."""
    from sia_tui.core.session import load_session, replay_session

    saved = tmp_path / "run.json"
    argv = ["check", asking_url, *SKILL, "--mode", mode, "--reply", "north hall"]
    assert main([*argv, "--save", str(saved)]) == 0
    capsys.readouterr()
    loaded = load_session(saved)
    [turn] = loaded.run.turns
    assert (turn.question, turn.reply, turn.reply_kind) == (QUESTION, "north hall", "text")
    replayed = asyncio.run(replay_session(loaded))
    assert replayed.same, replayed.to_json()
    [result] = replayed.results
    assert [t.reply for t in result.run.turns] == ["north hall"]
    assert main(["report", str(saved)]) == 0
    report = capsys.readouterr().out
    assert QUESTION in report and "north hall" in report


def test_replies_beyond_the_questions_are_not_sent_and_said(
    asking_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", asking_url, *SKILL, "--reply", "north hall", "--reply", "extra"]
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0
    said = "1 --reply value was not sent: the task asked 1 question"
    # In the report a person reads (stdout), not only on stderr.
    assert said in captured.out.splitlines() and said in captured.err
    assert "extra" not in captured.out
    code, report = check_json(capsys, *argv[1:])
    assert code == 0 and report["unused_replies"] == said
    one = check_json(capsys, asking_url, *SKILL, "--reply", "north hall")[1]
    assert one["unused_replies"] is None  # one reply for the one question
