"""`sia-tui web` as a user runs it: URL first, refusals on stderr, Ctrl+C ends every session."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import httpx
import pytest

from sia_tui.cli.cmd_web import tui_argv
from sia_tui.web.server import accepted_hosts, app_command, exposure_warning
from tests.support.processes import live_descendants, still_running

#: Seconds for a fresh interpreter to import Textual and draw (generous: a loaded machine).
APP_START_SECONDS = 60


def _web(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sia_tui", "web", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def test_url_first_then_sessions_run_and_ctrl_c_ends_them_all() -> None:
    """The first stdout line is the tokenised loopback URL; a request without the token is
    refused and reported on stderr (not the token); a browser session runs the connect
    screen; SIGINT exits 0 and the session's app ends too."""
    with _web("--port", "0") as proc:
        try:
            assert proc.stdout is not None
            url = (await asyncio.to_thread(proc.stdout.readline)).strip()
            parts = urlsplit(url)
            assert parts.scheme == "http" and parts.hostname == "127.0.0.1"
            token = parts.path.strip("/")
            assert len(token) >= 43
            async with httpx.AsyncClient(timeout=30) as client:
                assert (await client.get(url)).status_code == 200
                assert (await client.get(f"http://{parts.netloc}/")).status_code == 403
            async with aiohttp.ClientSession() as session:
                socket_url = url.replace("http", "ws") + "ws?width=120&height=40"
                async with session.ws_connect(socket_url) as ws:
                    frames = b""
                    async with asyncio.timeout(APP_START_SECONDS):
                        while b"Agent Card" not in frames:
                            message = await ws.receive()
                            assert message.type == aiohttp.WSMsgType.BINARY, message
                            frames += message.data
                    apps = live_descendants(proc.pid)
                    assert apps != []
                    proc.send_signal(signal.SIGINT)
                    closed = await ws.receive()
                    while closed.type == aiohttp.WSMsgType.BINARY:  # frames already on their way
                        closed = await ws.receive()
                    assert closed.type == aiohttp.WSMsgType.CLOSE
            out, err = await asyncio.to_thread(proc.communicate, timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "refused GET from 127.0.0.1: missing or wrong token" in err
    assert token not in err
    assert "WARNING" not in err  # loopback: no exposure warning
    deadline = time.monotonic() + APP_START_SECONDS
    while still_running(apps) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert still_running(apps) == []


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["https://agent.example", "--nope"], "--nope"),
        (["--port", "70000"], "--port"),
        (["demo", "--fault"], "--fault"),
    ],
)
def test_bad_arguments_fail_before_serving(args: list[str], named: str) -> None:
    """A typo in the TUI arguments fails now (exit 2), not in every browser tab later."""
    with _web(*args) as proc:
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert out == ""  # no URL: nothing was served
    assert named in err


def test_tui_arguments_default_to_open() -> None:
    """What each browser session runs."""
    assert tui_argv([]) == ["open"]
    assert tui_argv(["https://a.example", "--bearer", "T"]) == [
        "open",
        "https://a.example",
        "--bearer",
        "T",
    ]
    assert tui_argv(["--", "--insecure", "URL"]) == ["open", "--insecure", "URL"]
    assert tui_argv(["demo", "--fault", "digest-card"]) == ["demo", "--fault", "digest-card"]
    assert tui_argv(["open", "demo"]) == ["open", "demo"]  # a card file named demo


def test_the_session_command_is_this_interpreter_with_argv_quoted_for_sh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """textual-serve hands the command to /bin/sh: every argument arrives whole and nothing
    in it runs. (A stand-in interpreter prints the argv it receives.)"""
    stand_in = tmp_path / "python with space"
    stand_in.write_text(f"#!{sys.executable}\nimport sys\nprint(repr(sys.argv[1:]))\n")
    stand_in.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(stand_in))
    argv = ["open", "a b", "$(touch x)", "`touch y`", "'", '"', ";|&><*?", "--bearer=x y", ""]
    result = subprocess.run(
        ["/bin/sh", "-c", app_command(argv)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.strip() == repr(["-m", "sia_tui", *argv])
    assert [p.name for p in tmp_path.iterdir()] == [stand_in.name]


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "192.168.1.20", "fe80::1"])
def test_a_non_loopback_address_is_warned_about_and_accepts_any_host(address: str) -> None:
    """Reachable from elsewhere: a warning; the Host check cannot know the names used."""
    warning = exposure_warning(address)
    assert warning is not None and address in warning and "not on loopback" in warning
    assert accepted_hosts(address, 8000) == frozenset()


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "::1"])
def test_loopback_is_quiet_and_accepts_only_loopback_names(address: str) -> None:
    """No warning; Host must name loopback with the port (DNS rebinding guard)."""
    assert exposure_warning(address) is None
    hosts = accepted_hosts(address, 8000)
    assert {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"} <= hosts
    assert "evil.example:8000" not in hosts and "localhost" not in hosts
