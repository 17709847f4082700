"""``sia-tui serve-demo`` as a user runs it: URL on the first line, clean stop on SIGTERM."""

from __future__ import annotations

import signal
import subprocess
import sys

import httpx
import pytest

from sia_tui.agent.faults import Fault


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sia_tui", "serve-demo", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_prints_its_url_first_serves_and_exits_zero_on_signal(stop: signal.Signals) -> None:
    with serve("--fault", "digest-card", "--binding", "jsonrpc") as proc:
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:")
            card = httpx.get(url + "/.well-known/agent-card.json", timeout=10).json()
            assert [i["protocolBinding"] for i in card["supportedInterfaces"]] == ["JSONRPC"]
            assert "digest-card" in card["description"]
        finally:
            proc.send_signal(stop)
            out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_fault_list_prints_one_line_per_fault() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sia_tui", "serve-demo", "--fault", "list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(Fault)


def test_unknown_fault_is_a_usage_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sia_tui", "serve-demo", "--fault", "nope"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--fault list" in result.stderr
