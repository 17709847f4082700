"""Serving a recorded run as a mock agent in tests (``sia-tui mock``'s engine)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.agent.mock import MockConfig, RunningMock, recording, start_mock
from sia_tui.agent.mock import app as mock_app
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import Run
from sia_tui.core.session import load_session, save_session


def saved(run: Run, options: ClientOptions, folder: Path) -> Path:
    """``run`` saved as a session file in ``folder``."""
    path = folder / "recorded.session.json"
    save_session(run, options, path)
    return path


def mock_config(path: Path, *, loose: bool = False, **changes: Any) -> MockConfig:
    """The mock of the session at ``path``, read as ``sia-tui mock`` reads it."""
    return MockConfig(recording(load_session(path), loose=loose), **changes)


def serve(config: MockConfig, started: list[RunningMock]) -> RunningMock:
    """Start ``config``'s mock on 127.0.0.1 (a free port); ``started`` stops it later."""
    mock = start_mock(config)
    started.append(mock)
    return mock


def verdict(report: dict[str, Any]) -> tuple[Any, ...]:
    """What `check --json` and each invocation of `replay --json` agree on: outcome, the
    failed step, its code and origin, and the party at fault."""
    error, blame = report["error"] or {}, report["at_fault"] or {}
    code = error.get("code")
    return (
        report["outcome"],
        error.get("step"),
        code,
        error.get("origin") if code else None,
        blame.get("party"),
    )


async def cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``sia-tui ARGV`` in a thread (the mock serves in this process), its JSON report."""
    from sia_tui.cli.parser import run as run_cli

    capsys.readouterr()
    code = await asyncio.to_thread(run_cli, argv)
    out = capsys.readouterr().out
    assert code in (0, 1, 3), (argv, code, out)
    report: dict[str, Any] = json.loads(out)
    return report


def counted_pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The mock's recorded waits (``--timing recorded``), counted instead of waited."""
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(mock_app, "pause", no_wait)
    return waits


async def check_agrees_with_replay(
    session: Path,
    started: list[RunningMock],
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    arguments: Any,
) -> tuple[dict[str, Any], RunningMock]:
    """`replay --json` of ``session``, then `check --json` with ``arguments`` and
    ``flags`` against its mock: the two verdicts are equal and every request the check
    sent was a recorded one. Returns check's report and the mock."""
    replayed = await cli_json(["replay", str(session), "--json"], capsys)
    assert replayed["same"], replayed
    [expected] = [verdict(each) for each in replayed["invocations"]]
    unmatched: list[str] = []
    mock = serve(mock_config(session, on_unmatched=unmatched.append), started)
    written = session.parent / "arguments.json"
    written.write_text(json.dumps(arguments), encoding="utf-8")
    argv = ["check", mock.url, "--skill", "evaluate_resource_condition", "--json"]
    checked = await cli_json([*argv, "--args", str(written), *flags], capsys)
    assert verdict(checked) == expected, (checked["headline"], replayed)
    assert unmatched == []  # every request the check sent was a recorded one
    return checked, mock
