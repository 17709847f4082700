"""`sia-tui send`: one plain A2A message to the reference agent on every binding, with and
without the schema-interface extension; the execute gate, the card's capabilities, and a
saved session that replays, reports and exports as HAR."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent

#: A skill the reference agent binds whose document declares no execute authority.
READ_ONLY = "check_link_capacity"
#: A skill whose document declares execute authority (RULES SID5).
EXECUTES = "apply_interface_shutdown"


def _plain_card(url: str, tmp_path: Path, **capabilities: Any) -> str:
    """The reference agent's card without the schema-interface extension, as a file."""
    card = httpx.get(f"{url}/.well-known/agent-card.json").json()
    card["capabilities"].pop("extensions", None)
    card["capabilities"].update(capabilities)
    path = tmp_path / "plain-card.json"
    path.write_text(json.dumps(card))
    return str(path)


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
@pytest.mark.parametrize("extension", [True, False], ids=["extension", "plain"])
def test_send_answers_with_a_task_on_every_binding_and_replays(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    binding: str,
    extension: bool,
) -> None:
    agent = reference_agent(grpc_port=0)
    card = agent.url if extension else _plain_card(agent.url, tmp_path)
    saved = tmp_path / "send.json"
    code = main(
        ["send", card, "--text", "hello <b>[red]x", "--skill", READ_ONLY]
        + ["--binding", binding, "--save", str(saved)]
        # A card read from a file says nothing of the agent's TLS: plaintext is named.
        + (["--grpc-plaintext"] if binding == "grpc" and not extension else [])
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "sent: one message (text part, sync, skill check_link_capacity)" in out
    assert "answer: Task " in out and "TASK_STATE_INPUT_REQUIRED" in out
    # The agent's text, literally, and the task's history (the user's message, the echo).
    assert "text: echo: hello <b>[red]x" in out
    assert "history: 2 messages" in out and "ROLE_USER" in out
    assert main(["replay", str(saved)]) == 3  # incomplete: no step graded the answer
    replayed = capsys.readouterr().out
    assert "same: today's code reaches the recorded diagnosis" in replayed
    assert "a plain A2A message was sent instead of an invocation" in replayed
    assert main(["report", str(saved)]) == 3  # the report says the run is incomplete
    report = capsys.readouterr().out
    assert "## Plain A2A message" in report and "echo: hello" in report
    har = tmp_path / "send.har"
    main(["report", str(saved), "--format", "har", "-o", str(har)])
    entries = json.loads(har.read_text())["log"]["entries"]
    if binding != "grpc":
        assert any("echo: hello" in e["response"]["content"].get("text", "") for e in entries)


@pytest.mark.parametrize("mode", ["stream", "poll"])
def test_send_json_in_stream_and_poll_modes(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    agent = reference_agent(plain_work_seconds=0.05)
    code = main(["send", agent.url, "--text", "hi", "--skill", READ_ONLY, "--mode", mode, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report
    assert report["sent"] is True and report["answer"] == "task"
    assert report["request"] == {
        "part": "text",
        "mode": mode,
        "skill": READ_ONLY,
        "task_id": None,
        "consent": False,
        "ignore_capabilities": False,
    }
    assert report["task"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert report["task"]["status_message"]["parts"] == [
        {"kind": "text", "value": "echo: hi", "media_type": None}
    ]


def test_send_continues_a_task(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent()
    assert main(["send", agent.url, "--text", "one", "--skill", READ_ONLY, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)["task"]
    code = main(
        ["send", agent.url, "--text", "two", "--skill", READ_ONLY, "--task", first["id"], "--json"]
    )
    second = json.loads(capsys.readouterr().out)
    assert code == 0
    assert second["task"]["id"] == first["id"]
    assert second["task"]["status_message"]["parts"][0]["value"] == "echo: two"


def test_a_skill_that_may_act_is_sent_only_with_consent(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    """RULES SID5: the document's execute authority holds the message until --allow-execute."""
    agent = reference_agent()
    assert main(["send", agent.url, "--text", "go", "--skill", EXECUTES]) == 3
    out = capsys.readouterr().out
    assert "not sent" in out and "execute authority" in out and "--allow-execute" in out
    assert "answer:" not in out
    assert main(["send", agent.url, "--text", "go", "--skill", EXECUTES, "--allow-execute"]) == 0
    assert "answer: Task " in capsys.readouterr().out


def test_several_bound_skills_and_no_skill_named_is_held(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent()
    assert main(["send", agent.url, "--text", "hi"]) == 3
    out = capsys.readouterr().out
    assert "an A2A message names none" in out and "--skill" in out


def test_stream_to_a_card_without_streaming_is_refused_with_the_override_named(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A2A 1.0 section 3.1.7: SendStreamingMessage is not sent to a card that does not
    declare capabilities.streaming, unless the user asks to ignore the capabilities."""
    agent = reference_agent()
    card = _plain_card(agent.url, tmp_path, streaming=False)
    assert main(["send", card, "--text", "hi", "--mode", "stream"]) == 3
    out = capsys.readouterr().out
    assert "does not declare capabilities.streaming" in out and "--ignore-capabilities" in out
    code = main(["send", card, "--text", "hi", "--mode", "stream", "--ignore-capabilities"])
    assert code == 0
    assert "answer: Task " in capsys.readouterr().out


def test_send_data_part_from_a_file(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent()
    data = tmp_path / "data.json"
    data.write_text('{"skill": "nope"}')
    code = main(["send", _plain_card(agent.url, tmp_path), "--data", str(data), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["sent"] is True and report["request"]["part"] == "data"
    assert code in (0, 1)  # the agent's answer to an unknown skill is data, not a crash
    assert report["answer"] == "task" or report["error"] is not None


def test_send_needs_a_part(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["send", "http://127.0.0.1:9"])
    assert exit_.value.code == 2
    assert "--text" in capsys.readouterr().err


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
@pytest.mark.parametrize("mode", ["sync", "stream"])
def test_send_reads_a_bare_message_from_the_reference_agent_and_replays(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    binding: str,
    mode: str,
) -> None:
    """`serve-demo --plain-reply message` answers a plain message with a bare Message (no
    task), the other answer A2A allows: `send` prints its id, role and parts, the agent's
    text literally, on every binding and in both modes, and the saved session replays."""
    agent = reference_agent(grpc_port=0, plain_reply="message")
    card = _plain_card(agent.url, tmp_path)
    saved = tmp_path / "bare.json"
    code = main(
        ["send", card, "--text", "hello <b>[red]x", "--binding", binding, "--mode", mode]
        + ["--save", str(saved)]
        + (["--grpc-plaintext"] if binding == "grpc" else [])
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "answer: Message " in out and "ROLE_AGENT" in out and "answer: Task" not in out
    assert "text: echo: hello <b>[red]x" in out
    assert main(["replay", str(saved)]) == 3  # incomplete: no step graded the answer
    assert "same: today's code reaches the recorded diagnosis" in capsys.readouterr().out
