"""Hand-edited session and history files: a clear one-line error, never a traceback, a
hang, a file touched outside the history, or gigabytes of memory."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli.parser import run as cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.session import save_probe_session
from sia_tui.core.session import autosave, history, load_session
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import run_measured
from tests.hostile.registry import Attack
from tests.hostile.server import HostileServer
from tests.support.agents import StartAgent
from tests.support.probe import probe


def _check(card: str, tmp_path: Path, name: str) -> Path:
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    session = tmp_path / name
    cli(["check", card, "--skill", SKILL, "--args", str(arguments), "--save", str(session)])
    return session


#: The hostile agent that attacks nothing: a correct A2A agent on a raw socket server.
HONEST = Attack("honest", "answers every request correctly")


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    with HostileServer(HONEST.handler) as server:
        return _check(server.url, tmp_path, "recorded.session.json")


@pytest.fixture
def from_card_file(tmp_path: Path) -> Path:
    """A session whose card was read from a local file (a FILE exchange)."""
    with HostileServer(HONEST.handler) as server:
        card = tmp_path / "card.json"
        card.write_text(json.dumps(HONEST.agent(server.url).card()), encoding="utf-8")
        return _check(str(card), tmp_path, "file.session.json")


def _edit(path: Path, change: Any) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    edited = path.with_name("edited.session.json")
    edited.write_text(json.dumps(data), encoding="utf-8")
    return edited


def _one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()  # only what this command prints
    assert cli(list(argv)) == 2
    captured = capsys.readouterr()
    printed = captured.out + captured.err  # `open` prints its errors on stdout
    lines = printed.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in printed, printed
    return lines[0]


def test_a_session_of_three_steps_is_refused(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It raised ``zip() argument 2 is longer than argument 1`` in replay."""
    edited = _edit(recorded, lambda d: d["run"].update(steps=d["run"]["steps"][:3]))
    for command in ("replay", "report", "open"):
        message = _one_line_error(capsys, command, str(edited))
        assert "at /run/steps: expected the 11 steps of the procedure, found 3" in message


def test_a_rule_that_is_not_a_rules_id_is_refused(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tampered ``rule`` reached the Markdown report as raw HTML."""
    html = "<img src=x onerror=alert(1)>"

    def tamper(data: dict[str, Any]) -> None:
        data["run"]["steps"][0]["rule"] = html

    message = _one_line_error(capsys, "report", str(_edit(recorded, tamper)))
    assert message.endswith(
        "at /run/steps/0/rule: expected 'CP1', found '<img src=x onerror=alert(1)>'"
    )

    def tamper_finding(data: dict[str, Any]) -> None:
        data["run"]["steps"][9]["findings"] = [{"message": "m", "rule": html}]

    message = _one_line_error(capsys, "report", str(_edit(recorded, tamper_finding)))
    assert "at /run/steps/9/findings/0/rule: not a RULES id" in message


def test_a_card_file_named_dot_dot_replays_from_the_recorded_bytes(
    from_card_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file-card URL ending in ``..`` made replay write into a directory
    (IsADirectoryError)."""

    def tamper(data: dict[str, Any]) -> None:
        data["exchanges"][0]["url"] = "/tmp/cards/.."
        data["run"]["target"]["location"] = "/tmp/cards/.."

    assert cli(["replay", str(_edit(from_card_file, tamper))]) == 0
    out = capsys.readouterr().out
    assert "same: today's code reaches the recorded diagnosis at every step" in out


def test_replay_never_opens_a_path_the_session_names(from_card_file: Path, tmp_path: Path) -> None:
    """With the FILE exchange gone, replay opened the card path the session names: a FIFO
    there hung it. It reads only the session: the card is missing, and step 1 says so."""
    fifo = tmp_path / "card.fifo"
    os.mkfifo(fifo)

    def tamper(data: dict[str, Any]) -> None:
        data["exchanges"] = [ex for ex in data["exchanges"] if ex["method"] != "FILE"]
        data["run"]["target"]["location"] = str(fifo)

    edited = _edit(from_card_file, tamper)
    measured = run_measured(["replay", str(edited), "--json"])
    assert measured.exit == 1  # it ended: a child that hangs is killed and fails
    assert any(
        "the session holds no bytes of" in note
        for note in measured.report["invocations"][0]["notes"]
    )
    assert measured.report["invocations"][0]["steps"][0]["status"] == "failed"


def test_history_delete_touches_nothing_outside_the_history(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An index entry naming ``../../x`` made ``history delete`` remove that file."""
    autosave(load_session(recorded).run, ClientOptions())
    folder = history.history_dir()
    victim = folder.parent.parent / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    index = folder / history.INDEX_NAME
    data = json.loads(index.read_text(encoding="utf-8"))
    entry = data["entries"][0]
    forged = {**entry, "id": "forged", "file": "../../victim.txt"}
    wrong_type = {**entry, "id": "typed", "created": "yesterday"}
    data["entries"] += [forged, wrong_type]
    index.write_text(json.dumps(data), encoding="utf-8")
    message = _one_line_error(capsys, "history", "delete", "forged")
    assert "no history entry 'forged'" in message
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert cli(["history"]) == 0  # the well-formed entry is still listed
    assert entry["id"] in capsys.readouterr().out
    assert cli(["history", "clear"]) == 0
    assert victim.exists()


def test_a_session_of_millions_of_small_values_is_refused_in_bounded_memory(
    recorded: Path, tmp_path: Path
) -> None:
    """250 MB of small values cost 1.6 GB and 34 s: the file's values are counted before
    they are decoded. 20 million values here (40 MB) would take ~350 MB decoded."""
    text = recorded.read_text(encoding="utf-8")
    padded = tmp_path / "huge.session.json"
    with padded.open("w", encoding="utf-8") as handle:
        handle.write(text[: text.rindex("}")] + ', "padding": [0')
        handle.write(",0" * 20_000_000)
        handle.write("]}")
    measured = run_measured(["replay", str(padded)])
    assert measured.exit == 2
    assert "more than 1000000 JSON values" in measured.stderr
    assert measured.peak_rss_mb < 200, measured.peak_rss_mb


@pytest.mark.parametrize(
    ("where", "change", "expected"),
    [
        ("grade", lambda p: p["results"][0].update(grade="bogus"), "/probe/results/0/grade"),
        ("results", lambda p: p.update(results="x"), "at /probe/results: expected an array"),
        ("mode", lambda p: p.update(mode=7), "at /probe/mode: expected str, found int"),
    ],
)
async def test_a_tampered_probe_member_is_refused_by_every_command(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: str,
    change: Any,
    expected: str,
) -> None:
    """`report` (Markdown and HTML) and `open`'s Probe screen crashed with a traceback;
    `replay` refused it. All read it through the one checked loader now."""
    report = await probe(reference_agent().url)
    recorded = tmp_path / "probe.session.json"
    save_probe_session(report, ClientOptions(), recorded)
    edited = _edit(recorded, lambda d: change(d["probe"]))
    for command in (["replay"], ["report"], ["report", "--format", "html"], ["open"]):
        message = _one_line_error(capsys, *command, str(edited))
        assert str(edited) in message and expected in message, (command, message)
