"""Command-line entry point (headless; the TUI is imported lazily)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the sia-tui command line."""
    from sia_tui.cli.commands import run

    return run(sys.argv[1:] if argv is None else argv)
