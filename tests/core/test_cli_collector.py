"""How the command line treats the garbage collector: the console script leaves its heap to
the process's exit, `check` collects young garbage less often from the process's start
(and, as the console script, never walks what its start-up loaded nor, on the way out,
what its run allocated), and an in-process caller (a test, a benchmark) keeps its
collector as it was."""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
from pathlib import Path

import pytest

from sia_tui.cli import cmd_check, main
from tests.support.agents import StartAgent


def _small_document(tmp_path: Path) -> Path:
    path = tmp_path / "small.json"
    path.write_text('{"type": "object"}', encoding="utf-8")
    return path


def test_the_console_script_keeps_what_is_alive_out_of_the_exit_collections(
    tmp_path: Path,
) -> None:
    """`sia-tui digest FILE` as the console script runs it (``main()``, no arguments):
    everything alive when the command returns is frozen, so the collections the
    interpreter runs as it exits do not walk it again."""
    script = (
        "import gc, sys\n"
        "from sia_tui.cli import main\n"
        "code = main()\n"
        "print(gc.get_freeze_count(), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "digest", str(_small_document(tmp_path))],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip()  # the digest was printed as before
    assert int(done.stderr.split()[-1]) > 0


def test_a_caller_that_goes_on_keeps_its_collector(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``main(argv)`` in a process that goes on freezes nothing: a test suite's garbage
    must still be collected."""
    frozen = gc.get_freeze_count()
    assert main(["digest", str(_small_document(tmp_path))]) == 0
    assert capsys.readouterr().out.strip()
    # Nothing more is frozen (the suite's frozen objects may be freed meanwhile: fewer).
    assert gc.get_freeze_count() <= frozen


def test_check_collects_young_garbage_less_often_while_it_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While `check` runs, a young collection waits for 50,000 allocations (its modules and
    replies live until it ends); afterwards the caller's thresholds are back."""
    seen: list[tuple[int, int, int]] = []

    def command(args: argparse.Namespace) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(cmd_check, "_check", command)
    before = gc.get_threshold()
    assert cmd_check.main(argparse.Namespace()) == 0
    assert seen == [(50_000, *before[1:])]
    assert gc.get_threshold() == before


def test_the_console_script_check_does_not_walk_its_run_once_more_on_the_way_out(
    reference_agent: StartAgent,
) -> None:
    """`sia-tui check` as the console script runs it: no collection walks far more young
    objects than its threshold allows. When `check` put Python's default threshold back,
    the next allocation walked everything the run had allocated (some 44,000 objects,
    15-35 ms of a 300 ms command) just before the process exited."""
    agent = reference_agent()
    script = (
        "import gc, sys\n"
        "overdue = []\n"
        "def watch(phase, info):\n"
        "    young, threshold = gc.get_count()[0], gc.get_threshold()[0]\n"
        "    if phase == 'start' and young > 2 * threshold:\n"
        "        overdue.append(young)\n"
        "gc.callbacks.append(watch)\n"
        "from sia_tui.cli import main\n"
        "code = main()\n"
        "print(overdue, file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    argv = ["check", agent.url, "--skill", "evaluate_resource_condition", "--args", "example"]
    done = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "all eleven steps passed" in done.stdout
    assert done.stderr.splitlines()[-1] == "[]"


def test_the_console_script_check_walks_nothing_its_start_up_loaded() -> None:
    """`sia-tui check` from the console script: building the parser and loading the
    command run under `check`'s threshold, and what they loaded is frozen before the
    command runs, so no collection happens before it (about 25 at the default)."""
    script = (
        "import gc, sys\n"
        "from sia_tui.cli import cmd_check, main\n"
        "before = sum(generation['collections'] for generation in gc.get_stats())\n"
        "seen = []\n"
        "def command(args):\n"
        "    done = sum(generation['collections'] for generation in gc.get_stats()) - before\n"
        "    seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0, done))\n"
        "    return 0\n"
        "cmd_check._check = command\n"
        "main()\n"
        "print(seen)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "check", "http://127.0.0.1:9/"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[(50000, True, 0)]"
