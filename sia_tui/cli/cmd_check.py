"""`sia-tui check`: the eleven-step procedure, headless, as a text or JSON report."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import (
    UsageError,
    add_connection_flags,
    client_options,
    read_json_input,
)

# The engine and httpx are imported by the functions that run them, so that building the
# parser (`--help`, other commands) stays light (issue 12).
if TYPE_CHECKING:
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.engine.cache import DocumentCache
    from sia_tui.core.engine.model import Run, Target


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `check`."""
    parser = sub.add_parser(
        "check",
        help="run the eleven-step client procedure headless",
        description="Run the draft's client procedure against an Agent Card "
        "and report every step. Exit 0: every step that ran passed; 1: the "
        "procedure failed; 2: usage or unreadable input.",
    )
    parser.add_argument("card", help="base URL, Agent Card URL (.json) or local card file")
    parser.add_argument("--skill", help="skill id (default: the one advertised domain skill)")
    parser.add_argument(
        "--args",
        metavar="FILE|-",
        help="skill arguments as JSON; without it steps 7-11 are not run",
    )
    parser.add_argument(
        "--mode",
        choices=("sync", "stream", "poll"),
        help="response mode (default: sync if declared, else stream, else poll)",
    )
    parser.add_argument(
        "--stream", action="store_const", const="stream", dest="mode", help="same as --mode stream"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="always call describe_skill (no document cache, RULES CP12)",
    )
    parser.add_argument("--save", metavar="FILE", help="save the session (sia-session/1)")
    add_connection_flags(parser)
    parser.set_defaults(func=main)


async def run_check(
    target: Target, options: ClientOptions, arguments: Any, cache: DocumentCache | None
) -> Run:
    """Run the procedure to the end and return the run."""
    from sia_tui.core.engine.discovery import advertised_domain_skills
    from sia_tui.core.engine.model import StepStatus
    from sia_tui.core.engine.procedure import Procedure

    procedure = Procedure(target, options, cache=cache)
    try:
        await procedure.run_until(1)
        run = procedure.run
        if (
            target.skill_id is None
            and run.card is not None
            and run.steps[0].status is StepStatus.PASSED
        ):
            skills = advertised_domain_skills(run.card)
            if len(skills) > 1:
                raise UsageError(
                    "the card advertises several skills; choose one with --skill:\n  "
                    + "\n  ".join(skills)
                )
        if arguments is not None:
            procedure.set_arguments(arguments)
        await procedure.run_all()
        return procedure.run
    finally:
        await procedure.aclose()


def main(args: argparse.Namespace) -> int:
    """Run `check`; never a traceback for bad input."""
    import asyncio
    from pathlib import Path

    from sia_tui.core.engine.cache import DocumentCache
    from sia_tui.core.engine.model import Target
    from sia_tui.core.engine.report import run_to_json
    from sia_tui.core.engine.text_report import render_text
    from sia_tui.core.errors import JsonInputError
    from sia_tui.core.printable import terminal_json
    from sia_tui.core.redact import Redactor
    from sia_tui.core.session.dataclass_json import SessionError
    from sia_tui.core.session.store import save_session

    try:
        options = client_options(args)
        arguments = read_json_input(args.args)[0] if args.args else None
        target = Target(args.card, skill_id=args.skill, binding=args.binding, mode=args.mode)
        cache = None if args.no_cache else DocumentCache()
        run = asyncio.run(run_check(target, options, arguments, cache))
    except (UsageError, JsonInputError) as exc:
        print(f"sia-tui check: {exc}", file=sys.stderr)
        return 2
    redactor = Redactor.from_options(
        options, location=args.card, secret_values=args.secret, secret_headers=args.secret_header
    )
    for exchange in run.exchanges:
        redactor.learn_headers(exchange.request_headers)
    if args.save:
        try:
            save_session(
                run,
                options,
                Path(args.save),
                secret_values=args.secret,
                secret_headers=args.secret_header,
            )
        except SessionError as exc:
            print(f"sia-tui check: {exc}", file=sys.stderr)
            return 2
    if args.json:
        report = redactor.value(run_to_json(run), "report")
        print(terminal_json(report))
    else:
        text = render_text(run, colour=sys.stdout.isatty())
        sys.stdout.write(redactor.text(text, "report"))
    return 0 if run.outcome == "passed" else 1
