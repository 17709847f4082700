"""The argparse dispatcher: each ``cmd_*`` module contributes its subcommands."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable

from sia_tui import __version__

#: Modules that contribute subcommands, in help order. Each has ``register(subparsers)``
#: and sets ``func`` (``Callable[[argparse.Namespace], int]``) on its parsers.
COMMAND_MODULES = (
    "cmd_tui",
    "cmd_web",
    "cmd_check",
    "cmd_serve",
    "cmd_canon",
    "cmd_session",
    "cmd_compose",
)


def build_parser() -> argparse.ArgumentParser:
    """The full ``sia-tui`` parser."""
    parser = argparse.ArgumentParser(
        prog="sia-tui",
        description="Terminal debugger for schema-governed A2A skills "
        "(draft-huang-ainetops-agent-schema-interfaces-00).",
    )
    parser.add_argument("--version", action="version", version=f"sia-tui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"sia_tui.cli.{name}")
        module.register(sub)
    return parser


def run(argv: list[str]) -> int:
    """Parse ``argv`` and run the chosen command; with no command, open the TUI."""
    parser = build_parser()
    args = parser.parse_args(argv or ["open"])
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return func(args)
