"""Command-line entry point (headless; the TUI is imported lazily)."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the sia-tui command line."""
    from sia_tui.cli.parser import run

    try:
        return run(sys.argv[1:] if argv is None else argv)
    except BrokenPipeError:
        # `sia-tui ... | head`: the reader left; exit quietly as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
