"""The argparse dispatcher: each ``cmd_*`` module contributes its subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import cast

from sia_tui import __version__
from sia_tui.cli import command_of, json_errors

#: Modules that contribute subcommands, in help order. Each has ``register(subparsers)``
#: and sets ``func`` (``Callable[[argparse.Namespace], int]``) on its parsers.
COMMAND_MODULES = (
    "cmd_tui",
    "cmd_web",
    "cmd_check",
    "cmd_send",
    "cmd_probe",
    "cmd_fuzz",
    "cmd_matrix",
    "cmd_serve",
    "cmd_mock",
    "cmd_canon",
    "cmd_session",
    "cmd_compose",
    "cmd_trust",
)

#: Which module registers each command, so that running one imports only its module
#: (start-up time). A test checks it against what the modules register.
COMMAND_OWNERS = {
    "open": "cmd_tui",
    "demo": "cmd_tui",
    "web": "cmd_web",
    "check": "cmd_check",
    "send": "cmd_send",
    "probe": "cmd_probe",
    "fuzz": "cmd_fuzz",
    "matrix": "cmd_matrix",
    "serve-demo": "cmd_serve",
    "mock": "cmd_mock",
    "canon": "cmd_canon",
    "digest": "cmd_canon",
    "lint": "cmd_canon",
    "replay": "cmd_session",
    "rerun": "cmd_session",
    "report": "cmd_session",
    "history": "cmd_session",
    "compose": "cmd_compose",
    "diff": "cmd_compose",
    "sign-card": "cmd_trust",
    "pin": "cmd_trust",
}

#: The top level's own flags: alone, they send nothing and run no command.
TOP_LEVEL_FLAGS = frozenset({"-h", "--help", "--version"})

#: Commands that read local files only: they send nothing, so no request can log a secret
#: and they skip the log filter (logging and the secret patterns stay unloaded: start-up).
LOCAL_COMMANDS = frozenset({"canon", "digest", "lint"})


class _CommandListingOnly:
    """Stands in for a command's parser when only the top-level help is wanted: it takes
    every argument and default a command module adds, and builds nothing (start-up: the
    commands' hundreds of arguments would be built only to list their names)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __getattr__(self, name: str) -> Callable[..., _CommandListingOnly]:
        return lambda *args, **kwargs: _CommandListingOnly()


def build_parser(
    modules: tuple[str, ...] = COMMAND_MODULES, *, listing_only: bool = False
) -> argparse.ArgumentParser:
    """The ``sia-tui`` parser with the subcommands of ``modules`` (all by default); with
    ``listing_only``, the commands are names and one-line helps only (the top-level help)."""
    parser = argparse.ArgumentParser(
        prog="sia-tui",
        description="Terminal debugger for schema-governed A2A skills "
        "(draft-huang-ainetops-agent-schema-interfaces-00).",
    )
    parser.add_argument("--version", action="version", version=f"sia-tui {__version__}")
    # The stand-in is duck-typed: it answers every method a register() calls.
    command_parser = cast(
        "type[argparse.ArgumentParser]",
        _CommandListingOnly if listing_only else argparse.ArgumentParser,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=command_parser)
    for name in modules:
        module = importlib.import_module(f"sia_tui.cli.{name}")
        module.register(sub)
    return parser


def run(argv: list[str]) -> int:
    """Parse ``argv`` and run the chosen command; with no command, open the TUI."""
    from sia_tui.core.output import printable_output

    # httpx logs every request URL, httpcore the response headers: no secret reaches a
    # log record, whichever command sends (each client adds its credentials to the filter).
    # `--help`, `--version` and the local commands send nothing: they skip loading logging.
    sends = not argv or not set(argv) <= TOP_LEVEL_FLAGS
    if sends and command_of(argv) not in LOCAL_COMMANDS:
        from sia_tui.core.redaction import install_log_redaction

        install_log_redaction()
    # Whatever a command prints (agent text, a session's contents, an error quoting either,
    # argparse echoing argv) may carry terminal escapes: it passes the output policy on its
    # way out.
    with printable_output():
        if not json_errors.wants_json(argv):
            return _dispatch(argv or ["open"])
        with json_errors.watched_output() as watch:
            try:
                code = _dispatch(argv)
            except SystemExit as exit:  # argparse refused a flag (2), or --help (0)
                code = exit.code if isinstance(exit.code, int) else 2
                watch.report(code)
                raise
            watch.report(code)
            return code


def _dispatch(argv: list[str]) -> int:
    # Help, errors and unknown words get every command.
    command = command_of(argv)
    owner = COMMAND_OWNERS.get(command or "")
    # `--help` or `--version` alone: the top-level help lists the commands, nothing more.
    listing = command is None and set(argv) <= TOP_LEVEL_FLAGS
    parser = build_parser((owner,) if owner else COMMAND_MODULES, listing_only=listing)
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        from sia_tui.cli.needs import FLAGS
        from sia_tui.core.needs import use_wording

        with use_wording(FLAGS):  # the core words what the user can give as our flags
            return func(args)
    except Exception as error:  # noqa: BLE001 - a bug in sia-tui: reported, without a secret
        from sia_tui.cli.flags import crash_redactor
        from sia_tui.core.redaction import crash_report

        print(crash_report(error, crash_redactor(args)), end="", file=sys.stderr)
        return 1
