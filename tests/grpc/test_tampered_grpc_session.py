"""A hand-edited gRPC session (a recorded status that is not JSON, nested too deep, or a
status number gRPC does not have) is a one-line located error, as a tampered JSON-RPC
session is, never "a sia-tui bug"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli.parser import run as cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import save_session
from tests.grpc.test_sessions import record
from tests.support.agents import StartAgent


@pytest.fixture
async def recorded(reference_agent: StartAgent, tmp_path: Path) -> Path:
    agent = reference_agent(grpc_port=0)
    run = await record(agent.url, ClientOptions())
    path = tmp_path / "grpc.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    return path


def _tampered(path: Path, status: Any, body: Any) -> tuple[Path, int]:
    data = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, ex in enumerate(data["exchanges"]) if ex["url"].startswith("grpc"))
    response = data["exchanges"][index]["response"]
    response["status"] = status
    response["body"] = body
    edited = path.with_name("edited.session.json")
    edited.write_text(json.dumps(data), encoding="utf-8")
    return edited, index


def _one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert cli(list(argv)) == 2
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    lines = printed.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in printed and "bug" not in printed, printed
    return lines[0]


def _text(body: str) -> dict[str, str]:
    return {"encoding": "utf-8", "text": body}


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (13, _text("{not json"), "/response/body: not a recorded gRPC status: "),
        (13, _text("[" * 5000 + "]" * 5000), "/response/body: not a recorded gRPC status: "),
        (
            13,
            _text('{"code":13,"details":[{"@type":"x/google.rpc.ErrorInfo","reason":7,"z":1}]}'),
            "/response/body: its details cannot be encoded again: ",
        ),
        (99, None, "/response/status: 99 is not a gRPC status code (0 to 16)"),
        (2**40, None, f"/response/status: {2**40} is not a gRPC status code (0 to 16)"),
        (-1, None, "/response/status: -1 is not a gRPC status code (0 to 16)"),
    ],
)
def test_a_tampered_grpc_status_is_a_located_error(
    recorded: Path, capsys: pytest.CaptureFixture[str], status: int, body: Any, expected: str
) -> None:
    """Replay said "sia-tui could not finish this step (JSONDecodeError...); this is a
    sia-tui bug" for a status body that is not JSON (RecursionError when too deep), and
    blamed the agent ("gRPC error CODE_99") for a status number gRPC does not have."""
    data = json.loads(recorded.read_text(encoding="utf-8"))
    body = (
        body
        or next(ex for ex in data["exchanges"] if ex["url"].startswith("grpc"))["response"]["body"]
    )
    edited, index = _tampered(recorded, status, body)
    for command in ("replay", "report"):
        message = _one_line_error(capsys, command, str(edited))
        assert f"at /exchanges/{index}{expected}" in message, message
