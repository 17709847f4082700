"""`check --push` / `--push-url`: the top-level ``push`` object of --json, the text
timeline, and a refusal that leaves the run to its own mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

SKILL = "evaluate_resource_condition"


@pytest.fixture
def args_file(tmp_path: Path) -> str:
    path = tmp_path / "args.json"
    path.write_text(json.dumps(APPENDIX_B_ARGUMENTS))
    return str(path)


def _check(url: str, args_file: str, *extra: str) -> list[str]:
    return ["check", url, "--skill", SKILL, "--args", args_file, "--no-cache", *extra]


def test_json_push_object_lists_each_delivery_with_state_and_token(
    reference_agent: StartAgent, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent(push="on")
    code = main(_check(agent.url, args_file, "--push", "--json", "--mode", "stream"))
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report["summary"]
    push = report["push"]
    assert push["url"].startswith("http://127.0.0.1:") and push["error"] is None
    assert push["deliveries"] and all(d["token_ok"] for d in push["deliveries"])
    assert push["deliveries"][-1]["task_state"] == "TASK_STATE_COMPLETED"
    assert all(d["task_id"] == report["task"]["id"] for d in push["deliveries"])


def test_refused_push_gives_push_error_and_the_run_passes(
    reference_agent: StartAgent, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent(push="refuse-loopback")
    code = main(_check(agent.url, args_file, "--push", "--json"))
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["outcome"] == "passed"
    assert "--push-url URL" in report["push"]["error"]
    assert report["push"]["deliveries"] == []


def test_text_report_shows_the_push_timeline(
    reference_agent: StartAgent, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent(push="on")
    assert main(_check(agent.url, args_file, "--push")) == 0
    out = capsys.readouterr().out
    assert "push (loopback): " in out and "deliveries received at http://127.0.0.1:" in out
    assert "status TASK_STATE_COMPLETED: token ok, task ok," in out


def test_without_push_the_json_push_member_is_null(
    reference_agent: StartAgent, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent(push="on")
    assert main(_check(agent.url, args_file, "--json")) == 0
    assert json.loads(capsys.readouterr().out)["push"] is None


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "not a url", "http://"])
def test_a_push_url_that_is_not_http_is_usage(
    url: str, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_check("http://127.0.0.1:9", args_file, "--push-url", url)) == 2
    assert "--push-url wants an http(s) URL" in capsys.readouterr().err


def test_push_and_push_url_are_exclusive(
    args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(_check("http://127.0.0.1:9", args_file, "--push", "--push-url", "http://a/b"))
    assert exit_info.value.code == 2
