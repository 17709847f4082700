"""Each command imports what it runs, and no more: a pinned set per command
(``command_imports.toml``), so that a feature cannot slow another command's start-up
unnoticed. A new import on a command's path fails with its name and the command; a pinned
import that is gone fails too, so the pins stay the truth (rewrite them with
``uv run python -m tests.core.command_imports``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.command_imports import COMMANDS, command_lines, imports_of, read_pins
from tests.support.agents import StartAgent

PINS = read_pins()
REWRITE = "uv run python -m tests.core.command_imports"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_imports_exactly_its_pinned_modules(
    command: str, reference_agent: StartAgent, tmp_path: Path
) -> None:
    argv = command_lines(tmp_path, reference_agent().url)[command]
    measured = set(imports_of(argv))
    pinned = set(PINS.get(command, ()))
    new = sorted(measured - pinned)
    gone = sorted(pinned - measured)
    assert not new, (
        f"`sia-tui {command}` now imports {', '.join(new)}: load it where it runs, or pin it "
        f"in tests/core/command_imports.toml ({REWRITE})"
    )
    assert not gone, (
        f"`sia-tui {command}` no longer imports {', '.join(gone)}: update the pins ({REWRITE})"
    )


# Reports the compiled patterns holding the output policy's whole class (U+061C is in it).
_PATTERNS = """
import contextlib, io, json, re, sys
from sia_tui.cli import main
quiet = io.TextIOWrapper(io.BytesIO())
with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
cached = [*getattr(re, "_cache", {}), *getattr(re, "_cache2", {})]
print(json.dumps([key[1] for key in cached if "\\u061c" in str(key[1])]))
"""


@pytest.mark.parametrize("command", ["--help", "digest"])
def test_ascii_output_does_not_compile_the_whole_unicode_class(
    command: str, tmp_path: Path
) -> None:
    """The output policy's whole-Unicode class takes some 10 ms to compile: a command whose
    output is ASCII (the help, a digest) never builds it; non-ASCII text still passes it."""
    document = tmp_path / "small.json"
    document.write_text('{"a": 1}', encoding="utf-8")
    argv = ["--help"] if command == "--help" else ["digest", str(document)]
    done = subprocess.run(
        [sys.executable, "-c", _PATTERNS, *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(done.stdout) == [], f"`sia-tui {command}` compiled the whole class"
