"""Command-line entry point (headless; the TUI is imported lazily)."""

from __future__ import annotations

import contextlib
import gc
import os
import sys


def _skip_httpx_command_line() -> None:
    """Let ``import httpx`` skip httpx's own command line (click, rich, pygments).

    httpx imports its CLI module eagerly (about 50 ms, three times that without cached
    bytecode; encode/httpx#3547), and falls back to a stand-in ``httpx.main`` when that
    import fails, as when installed without its ``cli`` extra. A None entry in
    ``sys.modules`` is Python's documented way to make one import fail (the language
    reference, "The module cache"), so httpx takes its own fallback; the rest of httpx
    is untouched. sia-tui never runs httpx's CLI. Only this process's entry point does
    it, before httpx is first imported; when httpx is already loaded, nothing changes.
    """
    if "httpx" not in sys.modules:
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


def _leave_the_heap_to_the_exit() -> None:
    """Keep what is alive now out of the collections the interpreter runs as it exits.

    The process ends when the command returns, and the operating system frees its memory
    at once; walking every module, class and parsed reply again first cost about a tenth
    of `sia-tui check`'s CPU time. Objects in a cycle are then not finalized at exit,
    which Python never promised anyway; the standard streams are still flushed and
    ``atexit`` handlers (logging's) still run.
    """
    gc.freeze()


#: True while the console script runs its command: the process ends when it returns.
_process_ends_with_command = False


class FewerCollections:
    """While a short command runs, collect young garbage every ``threshold`` allocations
    rather than every 700 (Python's default); the previous thresholds come back after.

    Loading the modules and reading the replies of a run allocates objects that live
    until it ends: at the default, the collector walked them again some 80 times during a
    `sia-tui check` (about 5-8% of its CPU time). Cyclic garbage is still collected, in
    fewer passes. When the process ends with the command (the console script), what is
    alive as it is entered (the modules loaded so far) is frozen, so a collection walks
    only what was allocated since, and what lived through it is frozen before the
    thresholds come back; else the next allocation walked all of it at once (some 44,000
    young objects after a `check`, 15-35 ms) just before the process exits. The command
    line enters it as the process starts (``SHORT_COMMANDS``: its start-up, 25 collections
    at the default) and `check` again as it runs.
    """

    def __init__(self, threshold: int = 50_000) -> None:
        self._threshold = threshold
        self._previous = gc.get_threshold()

    def __enter__(self) -> None:
        if _process_ends_with_command:
            _leave_the_heap_to_the_exit()
        self._previous = gc.get_threshold()
        gc.set_threshold(self._threshold, *self._previous[1:])

    def __exit__(self, *exc_info: object) -> None:
        if _process_ends_with_command:
            _leave_the_heap_to_the_exit()
        gc.set_threshold(*self._previous)


#: Commands that load, run once and end (`check`): from the start they collect young
#: garbage less often (``FewerCollections``), their start-up included.
SHORT_COMMANDS = frozenset({"check"})


def command_of(argv: list[str]) -> str | None:
    """The command: the first word that is not an option (the top level has only --help
    and --version)."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    """Run the sia-tui command line (``argv`` None: this process's own arguments, as the
    console script runs it, and the process ends when it returns)."""
    global _process_ends_with_command
    words = sys.argv[1:] if argv is None else argv
    _process_ends_with_command = argv is None
    short = command_of(words) in SHORT_COMMANDS
    try:
        with FewerCollections() if short else contextlib.nullcontext():
            return _run(words)
    finally:
        if argv is None:  # a caller that goes on (a test, a benchmark) keeps its collector
            _leave_the_heap_to_the_exit()
        _process_ends_with_command = False


def _run(argv: list[str]) -> int:
    from sia_tui.cli.parser import run

    _skip_httpx_command_line()
    try:
        return run(argv)
    except BrokenPipeError:
        # `sia-tui ... | head`: the reader left; exit quietly as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
