"""``sia-tui serve-demo`` as a user runs it: URL on the first line, clean stop on SIGTERM."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from sia_tui.agent.faults import Fault
from tests.support.agents import StartAgent


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


def test_second_response_on_a_keep_alive_connection_is_not_delayed(
    reference_agent: StartAgent,
) -> None:
    """Without TCP_NODELAY every reused-connection response waited ~40 ms.

    The bound socket must be a TCP-protocol socket (asyncio enables TCP_NODELAY only then),
    and reused-connection requests must answer well inside the 40 ms Nagle/delayed-ACK stall.
    """
    agent = reference_agent()
    host, port = agent.url.removeprefix("http://").rsplit(":", 1)
    request = (f"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n").encode()
    timings = []
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        reader = conn.makefile("rb")
        for _ in range(10):
            began = time.perf_counter()
            conn.sendall(request)
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            reader.read(length)
            timings.append(time.perf_counter() - began)
    reused = sorted(timings[1:])
    assert reused[len(reused) // 2] < 0.025, f"reused-connection responses took {reused}"


def test_not_jcs_description_uses_the_words_of_its_forensics() -> None:
    """`--fault list` names the mistake as digest forensics does once it has reproduced a
    not-jcs digest, so a vendor matches the two at a glance."""
    from sia_tui.agent.documents import not_jcs_digest
    from sia_tui.core.interface.forensics import diagnose_digest
    from tests.support.documents import make_document

    result = subprocess.run(
        [sys.executable, "-m", "sia_tui", "serve-demo", "--fault", "list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    line = next(x for x in result.stdout.splitlines() if x.split()[0] == "not-jcs")
    document = make_document()
    verdict = diagnose_digest(not_jcs_digest(document), document)
    assert verdict.matched == "json_dumps_unsorted"
    words = verdict.explanation.removeprefix("your digest matches ")
    assert words.startswith("SHA-256 over json.dumps without sort_keys, with default separators")
    assert words in " ".join(line.split())
