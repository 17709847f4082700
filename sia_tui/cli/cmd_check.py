"""`sia-tui check`: the eleven-step procedure, headless, as a text or JSON report."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import (
    UsageError,
    add_capabilities_flag,
    add_connection_flags,
    add_consent_flag,
    add_otlp_flag,
    client_options,
    command_redactor,
    otlp_endpoint_from,
    read_json_input,
    save_run,
)
from sia_tui.cli.push_flags import add_push_flags, push_from
from sia_tui.cli.trust_flags import add_trust_flags, anchors_from
from sia_tui.core.invocation_mode import InvocationMode

# The engine and httpx are imported by the functions that run them, so that building the
# parser (`--help`, other commands) stays light: every start pays for it.
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from sia_tui.core.a2a import ClientOptions
    from sia_tui.core.engine import DocumentCache, Procedure
    from sia_tui.core.redaction import Redactor
    from sia_tui.core.run import Reply, Run, Target
    from sia_tui.core.trust import TrustAnchors

#: ``--args example``: take the arguments from the document's examples.
EXAMPLE = "example"
#: How a question the task asks is answered on the command line (the text report says it).
HOW_TO_REPLY = "answer it with --reply"


def unused_replies(given: int, run: Run) -> str | None:
    """What became of ``--reply`` values the task asked no question for; None if none."""
    sent = sum(1 for turn in run.turns if turn.sent_at)
    unused = given - sent
    if unused <= 0:
        return None
    values = "value was" if unused == 1 else "values were"
    asked = len(run.turns)
    questions = "question" if asked == 1 else "questions"
    return f"{unused} --reply {values} not sent: the task asked {asked} {questions}"


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `check`."""
    parser = sub.add_parser(
        "check",
        help="run the eleven-step client procedure headless",
        description="Run the draft's client procedure against an Agent Card "
        "and report every step. Exit 0: all eleven steps passed (or, with --send-anyway, the "
        "agent refused the invalid arguments as the draft requires); 1: the procedure failed "
        "(or the agent did not refuse them correctly; a required card signature or a "
        "contract lock included); 2: usage or unreadable input (a lock that pins nothing here "
        "too); 3: incomplete (steps that should run did not, e.g. no --args, a skill that "
        "may act invoked without --allow-execute, or a task that asks a question no --reply "
        "answers).",
    )
    parser.add_argument("card", help="base URL, Agent Card URL (.json) or local card file")
    parser.add_argument("--skill", help="skill id (default: the one advertised domain skill)")
    parser.add_argument(
        "--args",
        metavar="FILE|-|example",
        help="skill arguments as JSON; 'example' takes the first example of the document's "
        "input schema (else of the card's skill entry); without --args steps 7-11 do not "
        "run and the outcome is incomplete (exit 3)",
    )
    parser.add_argument(
        "--send-anyway",
        action="store_true",
        help="a deliberate negative test: send the arguments of --args FILE (or -) although "
        "they fail step 7 (not with --args example: it names no invalid arguments); the "
        "agent must reject them with input_invalid and details at the bad member before any "
        "domain logic (RULES INV3, ERR1, ERR5), graded pass, warn or fail as `sia-tui probe` "
        "grades its invalid-argument probes (exit 0 pass or warn, 1 fail). A skill that may "
        "act still needs --allow-execute. Arguments that validate are sent as an ordinary "
        "invocation",
    )
    parser.add_argument(
        "--mode",
        choices=[m.value for m in InvocationMode],
        help="response mode (default: sync if declared, else stream, else poll)",
    )
    parser.add_argument(
        "--stream",
        action="store_const",
        const=InvocationMode.STREAM.value,
        dest="mode",
        help="same as --mode stream",
    )
    add_capabilities_flag(parser)
    parser.add_argument(
        "--reply",
        action="append",
        default=[],
        metavar="TEXT|@FILE",
        help="the reply to the task's next question (INPUT_REQUIRED or AUTH_REQUIRED), sent "
        "on the same task; repeat once per question, in order. TEXT is one text part; @FILE "
        "a .json file's value as one data part, any other file's UTF-8 text as a text part "
        "(@@TEXT: a text that starts with @). Replies are not validated (RULES INV11); a task "
        "that asks with no reply left ends incomplete (exit 3) with its question",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--strict-wire",
        action="store_true",
        help="a message from the agent that breaks the A2A wire schema of its revision (a "
        "required member missing, a wrong type, an unknown enum value) fails the step that "
        "received it, at its JSON pointer; without it wire errors are only counted",
    )
    parser.add_argument(
        "--cache",
        action="store_true",
        help="reuse a cached document bound to this target, skill, version and digest "
        "(RULES CP12) instead of calling describe_skill; the outcome then says so",
    )
    parser.add_argument(
        "--no-cache",
        action="store_false",
        dest="cache",
        help="call describe_skill every time (the default)",
    )
    parser.add_argument("--save", metavar="FILE", help="save the session (sia-session/6)")
    add_otlp_flag(parser)
    parser.add_argument(
        "--junit",
        metavar="FILE",
        help="write JUnit XML for CI: one testcase per step (a step that did not run is "
        "skipped with the reason, never passed)",
    )
    add_consent_flag(parser)
    add_push_flags(parser)
    add_connection_flags(parser)
    add_trust_flags(parser)
    parser.set_defaults(func=main)


async def run_check(
    target: Target,
    options: ClientOptions,
    arguments: Any,
    cache: DocumentCache | None,
    *,
    send_anyway: bool = False,
    consent: bool = False,
    replies: Sequence[Reply] = (),
    started: Callable[[Procedure], object] = lambda _: None,
) -> Run:
    """Run the procedure to the end and return the run (``arguments`` may be EXAMPLE;
    ``send_anyway``: a deliberate negative test of arguments that do not validate;
    ``consent``: the user's yes to invoking a skill that asks for it, ``--allow-execute``;
    ``replies``: one answer per question the task asks, in order, ``--reply``;
    ``started`` is given the procedure, whose run holds what was done if Ctrl-C stops it)."""
    from sia_tui.core.engine import Procedure
    from sia_tui.core.run import Step, StepStatus

    procedure = Procedure(target, options, cache=cache)
    started(procedure)
    try:
        await procedure.run_until(Step.CARD)
        run = procedure.run
        if target.skill_id is None and run.step(Step.CARD).status is StepStatus.PASSED:
            skills = run.answers.advertised_skills
            if len(skills) > 1 and run.answers.default_skill is None:  # a lock may pin one
                raise UsageError(
                    "the card advertises several skills; choose one with --skill:\n  "
                    + "\n  ".join(skills)
                )
        if arguments is EXAMPLE:
            procedure.use_example()
        elif arguments is not None:
            procedure.set_arguments(arguments, send_anyway=send_anyway)
        if consent:
            procedure.consent_to_send()
        return await procedure.run_replying(replies)
    finally:
        await procedure.aclose()


class _Interrupted(Exception):
    """Ctrl-C stopped the run: ``run`` holds what it did (the step it stopped resets to not
    run, so the verdict is incomplete, never passed)."""

    def __init__(self, run: Run) -> None:
        super().__init__("interrupted")
        self.run = run


class _Exit(Exception):
    """The command ends here with ``code`` after printing ``message`` on stderr."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def main(args: argparse.Namespace) -> int:
    """Run `check`; never a traceback for bad input."""
    from sia_tui.cli import FewerCollections

    with FewerCollections():
        return _check(args)


def _check(args: argparse.Namespace) -> int:
    """The command: run, write the files asked for, print the report, say the exit code."""
    try:
        options, anchors, push = _connection(args)
        redactor = command_redactor(args, options, [args.card, *([push] if push else [])])
        try:
            run, replies = _run(args, options, anchors, push, redactor)
        except _Interrupted as stop:
            return _keep_interrupted(args, stop.run, options, redactor)
        for exchange in run.exchanges:
            redactor.learn_headers(exchange.request_headers)
        # A script that expected more questions hears that it got fewer: in the report
        # itself (text and --json), as well as on stderr.
        unused = unused_replies(len(replies), run)
        if unused is not None:
            print(f"sia-tui check: {unused}", file=sys.stderr)
        _write_files(args, run, options, redactor)
        _export_otlp(args, run, options, redactor)
    except _Exit as exc:
        print(f"sia-tui check: {exc}", file=sys.stderr)
        return exc.code
    _print_report(args, run, redactor, unused)
    return run.verdict.exit_code


def _connection(args: argparse.Namespace) -> tuple[ClientOptions, TrustAnchors | None, str | None]:
    """The client options, trust anchors and push URL the flags give (usage errors: exit 2)."""
    try:
        options = client_options(args)
        anchors = anchors_from(args)
        push = push_from(args)
        otlp_endpoint_from(args)
    except UsageError as exc:
        raise _Exit(str(exc)) from None
    if args.send_anyway and (not args.args or args.args == EXAMPLE):
        raise _Exit("--send-anyway needs --args FILE or - (the invalid arguments to send)")
    return options, anchors, push


def _run(
    args: argparse.Namespace,
    options: ClientOptions,
    anchors: TrustAnchors | None,
    push: str | None,
    redactor: Redactor,
) -> tuple[Run, list[Reply]]:
    """Read the arguments and replies the flags name, then run the procedure to its end."""
    import asyncio

    from sia_tui.core.errors import JsonInputError
    from sia_tui.core.run import Target

    try:
        arguments: Any = None
        if args.args == EXAMPLE:
            arguments = EXAMPLE
        elif args.args:
            arguments = read_json_input(args.args)[0]
        replies = []
        if args.reply:  # the turns load with the first reply given
            from sia_tui.core.run import reply_argument

            replies = [reply_argument(spec) for spec in args.reply]
        target = Target(
            args.card,
            skill_id=args.skill,
            binding=args.binding,
            mode=args.mode,
            ignore_capabilities=args.ignore_capabilities,
            anchors=anchors,
            push=push,
            strict_wire=args.strict_wire,
        )
        cache = None
        if args.cache:
            from sia_tui.core.engine import DocumentCache

            cache = DocumentCache()
        procedures: list[Procedure] = []
        run = asyncio.run(
            run_check(
                target,
                options,
                arguments,
                cache,
                send_anyway=args.send_anyway,
                consent=args.allow_execute,
                replies=replies,
                started=procedures.append,
            )
        )
    except (UsageError, JsonInputError) as exc:  # may quote the agent (its skill ids)
        raise _Exit(redactor.text(str(exc), "error")) from None
    except KeyboardInterrupt:
        if not procedures:
            raise
        raise _Interrupted(procedures[0].run) from None
    return run, replies


def _keep_interrupted(
    args: argparse.Namespace, run: Run, options: ClientOptions, redactor: Redactor
) -> int:
    """Ctrl-C: the files asked for keep what the run did up to then (an agent that hangs is
    the bug report most worth saving), the report is not printed (the run has no verdict
    beyond incomplete), and the status is 130 as for any command stopped by Ctrl-C."""
    for exchange in run.exchanges:
        redactor.learn_headers(exchange.request_headers)
    try:
        _write_files(args, run, options, redactor)
    except _Exit as exc:
        print(f"sia-tui check: {exc}", file=sys.stderr)
    kept = [name for name in (args.save, args.junit) if name]
    said = f"; {' and '.join(kept)} keep what it did ({run.verdict.headline})" if kept else ""
    print(f"sia-tui check: interrupted{said}", file=sys.stderr)
    return 130


def _write_files(
    args: argparse.Namespace, run: Run, options: ClientOptions, redactor: Redactor
) -> None:
    """Write the session (``--save``) and the JUnit report (``--junit``) the flags ask for."""
    from pathlib import Path

    try:
        save_run(args, run, options)
    except UsageError as exc:
        raise _Exit(str(exc)) from None
    if args.junit:
        from sia_tui.core.engine import run_junit_suite
        from sia_tui.core.output import write_junit

        try:
            clean = lambda text: redactor.text(text, "junit")  # noqa: E731
            write_junit(Path(args.junit), [run_junit_suite(run, clean)], redact=clean)
        except OSError as exc:
            raise _Exit(f"cannot write {args.junit}: {exc.strerror or exc}") from None


def _export_otlp(
    args: argparse.Namespace, run: Run, options: ClientOptions, redactor: Redactor
) -> None:
    """``--otlp-endpoint``: the run's spans exported to the user's collector (redacted as a
    session is); a collector that fails is a warning, never the run's verdict."""
    if not args.otlp_endpoint:
        return
    from sia_tui.core.session import export_run  # the OpenTelemetry SDK: only with the flag

    problem = export_run(args.otlp_endpoint, run, options, args.secret, args.secret_header)
    if problem is not None:
        print(f"sia-tui check: warning: {redactor.text(problem, 'otlp')}", file=sys.stderr)


def _print_report(
    args: argparse.Namespace, run: Run, redactor: Redactor, unused: str | None
) -> None:
    """The report on stdout: JSON with ``--json``, else text."""
    from sia_tui.core.engine import render_text

    if args.json:
        from sia_tui.core.engine import run_to_json
        from sia_tui.core.output import terminal_json

        report = redactor.value({**run_to_json(run), "unused_replies": unused}, "report")
        print(terminal_json(report))
    else:
        text = render_text(run, colour=sys.stdout.isatty(), how_to_reply=HOW_TO_REPLY)
        sys.stdout.write(redactor.text(text, "report"))
        if unused is not None:
            print(unused)
