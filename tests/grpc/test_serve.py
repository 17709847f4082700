"""``serve-demo --grpc-port`` and ``demo``: the reference agent's gRPC binding as a user
starts it, listed last in the card."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys

import httpx

from sia_tui.cli import main


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sia_tui", "serve-demo", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_serve_demo_prints_the_grpc_address_and_lists_it_last() -> None:
    with serve("--grpc-port", "0") as proc:
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            grpc_line = proc.stdout.readline().strip()
            assert grpc_line.startswith("gRPC 127.0.0.1:")
            address = grpc_line.removeprefix("gRPC ")
            card = httpx.get(url + "/.well-known/agent-card.json", timeout=10).json()
            interfaces = [(i["protocolBinding"], i["url"]) for i in card["supportedInterfaces"]]
            assert [b for b, _ in interfaces] == ["JSONRPC", "HTTP+JSON", "GRPC"]
            assert interfaces[-1][1] == address  # host:port, as A2A 1.0 writes it
            code = main(
                ["check", url, "--skill", "evaluate_resource_condition", "--args", "example"]
                + ["--binding", "grpc"]
            )
            assert code == 0
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_a_grpc_port_in_use_is_a_usage_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "sia_tui", "serve-demo", "--grpc-port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stderr
    assert "cannot listen" in done.stderr and "Traceback" not in done.stderr
