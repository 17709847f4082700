"""`sia-tui send`: one plain A2A message to any agent, and what it answered."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import (
    UsageError,
    add_capabilities_flag,
    add_connection_flags,
    add_consent_flag,
    client_options,
    command_redactor,
    read_json_input,
    save_run,
)
from sia_tui.core.invocation_mode import InvocationMode

if TYPE_CHECKING:
    from sia_tui.core.a2a import ClientOptions
    from sia_tui.core.redaction import Redactor
    from sia_tui.core.run import Run


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `send`."""
    parser = sub.add_parser(
        "send",
        help="send one plain A2A message and show what the agent answered",
        description="Send one message (one text or data part) to any A2A agent, with or "
        "without the schema-interface extension, and print what it answered: a Task with "
        "its state, artifacts and history, or a bare Message with its id, role and parts. "
        "Nothing is graded. Exit 0: the agent answered; 1: no usable answer (the card "
        "unreadable, a transport or A2A error, a task failed or rejected); 2: usage or "
        "unreadable input; 3: not sent (a skill that may act without --allow-execute, a "
        "mode the card does not declare without --ignore-capabilities).",
    )
    parser.add_argument("card", help="base URL, Agent Card URL (.json) or local card file")
    part = parser.add_mutually_exclusive_group(required=True)
    part.add_argument("--text", metavar="TEXT", help="send one text part")
    part.add_argument(
        "--data", metavar="FILE|-", help="send one data part: the JSON value of FILE (- stdin)"
    )
    parser.add_argument(
        "--skill",
        help="the skill you mean (an A2A message names none); when the card's "
        "schema-interface extension binds it, its document decides whether --allow-execute "
        "is needed",
    )
    parser.add_argument("--task", metavar="ID", help="continue this task (same taskId)")
    parser.add_argument(
        "--mode",
        choices=[m.value for m in InvocationMode],
        default=InvocationMode.SYNC.value,
        help="sync (SendMessage, the default), stream (SendStreamingMessage) or poll "
        "(SendMessage returning at once, then GetTask)",
    )
    add_capabilities_flag(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--save", metavar="FILE", help="save the session (sia-session/6)")
    add_consent_flag(parser)
    add_connection_flags(parser)
    parser.set_defaults(func=main)


class _Exit(Exception):
    """The command ends here with exit 2 after printing the message on stderr."""


def main(args: argparse.Namespace) -> int:
    """Run `send`; never a traceback for bad input."""
    try:
        try:
            options = client_options(args)
        except UsageError as exc:
            raise _Exit(str(exc)) from None
        redactor = command_redactor(args, options, [args.card])
        run = _send(args, options, redactor)
        for exchange in run.exchanges:
            redactor.learn_headers(exchange.request_headers)
        save_run(args, run, options)
    except (_Exit, UsageError) as exc:
        print(f"sia-tui send: {exc}", file=sys.stderr)
        return 2
    from sia_tui.core.engine import plain_exit_code, plain_to_json, render_plain

    if args.json:
        from sia_tui.core.output import terminal_json

        print(terminal_json(redactor.value(plain_to_json(run), "report")))
    else:
        sys.stdout.write(redactor.text(render_plain(run), "report"))
    return plain_exit_code(run)


def _send(args: argparse.Namespace, options: ClientOptions, redactor: Redactor) -> Run:
    """Read the part the flags name, then fetch the card and send the message."""
    import asyncio

    from sia_tui.core.engine import ConsoleRequest, PartKind, Procedure, send_plain
    from sia_tui.core.errors import JsonInputError
    from sia_tui.core.run import Target

    try:
        if args.data is not None:
            kind, text = PartKind.DATA, read_json_input(args.data)[1]
        else:
            kind, text = PartKind.TEXT, args.text
    except JsonInputError as exc:
        raise _Exit(redactor.text(str(exc), "error")) from None
    request = ConsoleRequest(
        kind,
        text,
        args.mode,
        args.skill,
        task_id=args.task,
        ignore_capabilities=args.ignore_capabilities,
    )
    target = Target(args.card, skill_id=args.skill, binding=args.binding, mode=args.mode)

    async def send() -> Run:
        procedure = Procedure(target, options)
        try:
            return await send_plain(procedure, request, consent=args.allow_execute)
        finally:
            await procedure.aclose()

    return asyncio.run(send())
