"""Each command imports what it runs, and no more: a pinned set per command
(``command_imports.toml``), so that a feature cannot slow another command's start-up
unnoticed. A new import on a command's path fails with its name and the command; a pinned
import that is gone fails too, so the pins stay the truth (rewrite them with
``uv run python -m tests.core.command_imports``)."""

from __future__ import annotations

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

