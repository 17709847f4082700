"""The core speaks no command-line flags: it names what the user can give as a ``Need``, and
each surface words it (the CLI as its flag, the TUI as its key or field)."""

from __future__ import annotations

import ast
import asyncio
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

import sia_tui.core
from sia_tui.cli.needs import FLAGS
from sia_tui.core.needs import PLAIN, Need, use_wording, word
from sia_tui.tui.needs import TUI_WORDS

CORE = Path(sia_tui.core.__file__).parent
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
#: (file, flag) pairs that are not the core speaking a flag to its user, and why.
ALLOWED = {
    # A curl command line for the reader's shell: curl's own flag.
    ("bugreport/exchanges.py", "--data-raw"),
    # The bug report's `sia-tui rerun` command line, for the reader's shell, whichever
    # surface wrote the report.
    ("bugreport/build.py", "--allow-execute"),
    ("bugreport/build.py", "--invocation"),
    ("bugreport/build.py", "--bearer"),
    ("bugreport/build.py", "--header"),
    ("bugreport/build.py", "--trusted-keys"),
    ("bugreport/build.py", "--require-signature"),
    ("bugreport/build.py", "--lock"),
    # What to run in a shell on a file of this kind, or which report a file is.
    ("input_kind.py", "--skill"),
    ("input_kind.py", "--lock"),
    ("input_kind.py", "--trusted-keys"),
    ("input_kind.py", "--json"),
    ("input_kind.py", "--save"),
    # The shell command that lets a plugfest file read an environment variable.
    ("matrix/plugfest_agents.py", "--env"),
    ("matrix/plugfest_agents.py", "--trust-file-anchors"),
    # Parts of session file names (`alice--card.json`), not flags.
    ("matrix/matrix_runner.py", "--card"),
    ("matrix/matrix_runner.py", "--first"),
    ("matrix/matrix_runner.py", "--probe"),
}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of docstring nodes: they document, they are never shown to a user."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    found.add(id(statement.value))
    return found


def flags_spoken(source: str) -> list[tuple[int, str]]:
    """(line, flag) for every flag spelt in a string literal of ``source`` (not a docstring)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return [
        (node.lineno, flag)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        for flag in FLAG.findall(node.value)
    ]


def test_the_scan_finds_a_flag_in_a_message_and_skips_docstrings() -> None:
    source = (
        '"""Read with ``--timeout``."""\n'
        'def f(s):\n    """The ``--lock`` file."""\n'
        '    return f"timed out after {s} s (--timeout); see e-mail --- and x--y"\n'
    )
    assert flags_spoken(source) == [(4, "--timeout")]


def test_the_core_spells_no_command_line_flag() -> None:
    """A flag in a core message reaches TUI users, who have none: say it as a Need."""
    spoken = [
        f"{path.relative_to(CORE)}:{line}: {flag}"
        for path in sorted(CORE.rglob("*.py"))
        for line, flag in flags_spoken(path.read_text(encoding="utf-8"))
        if (path.relative_to(CORE).as_posix(), flag) not in ALLOWED
    ]
    assert spoken == []


@pytest.mark.parametrize("wording", [PLAIN, FLAGS], ids=["plain", "cli"])
def test_every_need_is_worded(wording: Mapping[Need, str]) -> None:
    assert set(wording) == set(Need)


def test_the_tui_words_no_need_as_a_bare_flag() -> None:
    """A TUI word names a key, a field, or the whole command that starts the TUI."""
    assert [w for w in TUI_WORDS.values() if re.fullmatch(r"--[a-z-]+( [A-Z]+)?", w)] == []


def _timeout_hint() -> str:
    from sia_tui.core.engine.outcome import transport_failure
    from sia_tui.core.errors import RequestTimeout

    return transport_failure("step 2", RequestTimeout("response timed out")).hint or ""


def test_the_cli_and_the_tui_word_the_same_need_their_way() -> None:
    """One hint of the core, worded by whichever surface runs."""
    with use_wording(FLAGS):
        cli = _timeout_hint()
    with use_wording(TUI_WORDS):
        tui = _timeout_hint()
    assert "raise --timeout for a slow agent" in cli
    assert "raise `sia-tui open --timeout` for a slow agent" in tui
    assert "--timeout for" not in tui.replace("open --timeout", "")
    assert word(Need.TIMEOUT) == PLAIN[Need.TIMEOUT]  # each block left the words it found


def test_a_task_started_under_a_wording_keeps_it() -> None:
    """The TUI installs its words in the app's task; the engine's workers are tasks it starts."""

    async def main() -> str:
        with use_wording(TUI_WORDS):
            return await asyncio.create_task(asyncio.sleep(0, word(Need.SAVE)))

    assert asyncio.run(main()) == "ctrl+s"
