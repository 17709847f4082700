"""Every ``sh`` block of README.md and docs/*.md runs as written against the reference agent
(started here on 127.0.0.1, on a free port) and does what its text promises: the exit
status and the output each command's comment names (tests/support/doc_examples.py)."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support.doc_examples import (
    ROOT,
    Block,
    command_blocks,
    output_fragments,
    serve_demo_port,
    sia_tui_argv,
)

#: Each block runs its commands in children.
#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow

#: Blocks a test cannot run, by document and first line, each with the reason.
NOT_RUN = {
    ("README.md", "uv run sia-tui demo"): "interactive: the TUI (tests/tui drive it); "
    "its `uv run pytest` is this suite",
    ("README.md", "uv run sia-tui web demo"): "interactive: a web server that runs until "
    "Ctrl+C (tests/web run it)",
    ("README.md", ".ci/run"): "developer tools: CI itself, scripts that rewrite the docs and "
    "screenshots, benchmarks that take minutes",
    ("docs/TUI.md", "uv run sia-tui serve-demo --oauth2"): "interactive: `open` starts the "
    "TUI (tests/tui cover OAuth2 on the connect screen)",
    ("docs/TUI.md", "uv run sia-tui web"): "interactive: a web server; https://agent.example "
    "is not reachable offline",
}
PROGRAM = str(Path(sys.executable).with_name("sia-tui"))
#: Seconds a command or an agent's start may take on a loaded CI machine.
TIMEOUT = 180

BLOCKS = command_blocks()


def _key(block: Block) -> tuple[str, str]:
    return next(
        (key for key in NOT_RUN if key[0] == block.document and block.first.startswith(key[1])),
        (block.document, block.first),
    )


RUN = [pytest.param(b, id=b.id) for b in BLOCKS if _key(b) not in NOT_RUN]


def test_every_block_not_run_is_listed_with_a_reason() -> None:
    listed = {_key(b) for b in BLOCKS} & set(NOT_RUN)
    assert listed == set(NOT_RUN), "a NOT_RUN entry matches no block any more"
    assert len(RUN) >= 8


#: The reference agent's pause between a long task's steps, shorter than its default 1 s:
#: the pause lets a person watch progress; no block promises anything about its length,
#: and at 1 s the plugfest block waited ~15 s on it (3 pauses per run, 18 cells twice).
STEP_DELAY = "0.1"


class Agents:
    """The reference agents a block starts, each on a free port, and the port map."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.cwd, self.env = cwd, env
        self.urls: dict[str, str] = {}
        self._started: list[subprocess.Popen[str]] = []

    def start(self, argv: list[str]) -> None:
        args, port = serve_demo_port(argv)
        if args[0] == "serve-demo" and "--step-delay" not in args:
            args = [*args, "--step-delay", STEP_DELAY]
        process = subprocess.Popen(
            [PROGRAM, *args], cwd=self.cwd, env=self.env, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        self._started.append(process)
        assert process.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: lines.put(process.stdout.readline()), daemon=True).start()  # type: ignore[union-attr]
        url = lines.get(timeout=TIMEOUT).strip()
        assert url.startswith("http://127.0.0.1:"), f"serve-demo printed {url!r}"
        self.urls[f"http://127.0.0.1:{port}"] = url

    def substitute(self, text: str) -> str:
        for documented, url in self.urls.items():
            text = text.replace(documented, url)
        return text

    def stop(self) -> None:
        for process in self._started:
            process.terminate()
            process.wait(timeout=30)
            if process.stdout is not None:
                process.stdout.close()


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder with the docs' example files (a block names docs/examples/...)."""
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    return tmp_path


@pytest.mark.parametrize("block", RUN)
def test_the_block_does_what_its_text_says(block: Block, workdir: Path) -> None:
    env = {**os.environ}
    agents = Agents(workdir, env)
    try:
        for command in block.commands:
            where = f"{block.document}:{command.line}"
            if command.text.startswith("export "):
                name, _, value = command.text[len("export ") :].partition("=")
                env[name] = value
                continue
            argv = [agents.substitute(arg) for arg in sia_tui_argv(command)]
            if command.background:
                assert argv[0] in ("serve-demo", "mock"), (
                    f"{where}: only serve-demo and mock run in the background"
                )
                agents.start(argv)
                for example in (workdir / "docs" / "examples").glob("*.toml"):
                    example.write_text(agents.substitute(example.read_text()))
                continue
            done = subprocess.run(
                [PROGRAM, *argv], cwd=workdir, env=env, capture_output=True, text=True,
                timeout=TIMEOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
            said = f"{where}: {command.text}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
            assert done.returncode == command.exit, said
            for text in command.prints:
                assert text in done.stdout, f"`{text}` not printed\n{said}"
            for line in command.output_lines:
                for fragment in output_fragments(line):
                    assert fragment in done.stdout, f"{fragment!r} not printed\n{said}"
    finally:
        agents.stop()
