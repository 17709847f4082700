"""`sia-tui probe`: deliberately wrong requests, each graded against the draft's rules."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import (
    UsageError,
    add_connection_flags,
    add_consent_flag,
    client_options,
    command_redactor,
    read_json_input,
    write_saved_files,
)

# The engine and httpx are imported by the functions that run them, so that building the
# parser (`--help`, other commands) stays light: every start pays for it.
if TYPE_CHECKING:
    from sia_tui.core.a2a import ClientOptions
    from sia_tui.core.probe import ProbeReport
    from sia_tui.core.redaction import Redactor
    from sia_tui.core.run import Target

#: Exit statuses (docs/PROBE.md).
EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_NOT_LEARNED = 0, 1, 2, 3

DESCRIPTION = """\
Test the agent's side of draft-huang-ainetops-agent-schema-interfaces-00: run the
eleven steps once to learn the interface, then send deliberately wrong requests (a stale
interface_digest, an unknown skill_version, invalid arguments of each kind the input
schema allows, oversized input, missing envelope members, an unadvertised skill, missing
credentials) and grade each answer pass / fail / warn / skip, naming the RULES id and
the draft revision it was judged against.

Safety: every wrong request carries arguments that break the input schema, so an agent
that fails to validate still has nothing to act on. A few probes need valid arguments
(the valid baseline invocation, oversized input, missing credentials); when the skill's
document declares execute authority (authority.default_mode "execute") or
approval_may_be_required, they run only with --allow-execute (the same flag as check and
matrix; --allow-valid-invocations is its old name), and are skipped otherwise.

Exit status: 0 every probe passed, warned or was skipped; 1 a probe failed; 2 usage or
unreadable input; 3 a step of the learning run failed (steps 1-6, or the valid baseline
7-11): nothing was probed.
"""


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `probe`."""
    parser = sub.add_parser(
        "probe",
        help="send deliberately wrong requests and grade the agent's answers",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("card", help="base URL, Agent Card URL (.json) or local card file")
    parser.add_argument("--skill", required=True, metavar="ID", help="the skill to probe")
    parser.add_argument(
        "--args",
        metavar="FILE|-|example",
        default="example",
        help="valid arguments the invalid ones are made from (default: example, the input "
        "schema's first valid example, else its skeleton)",
    )
    add_consent_flag(parser)
    parser.add_argument("--json", action="store_true", help="print the JSON report")
    parser.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument("--save", metavar="FILE", help="save the session (sia-session/6)")
    add_connection_flags(parser)
    parser.set_defaults(func=main)


async def run_probe(
    target: Target, options: ClientOptions, arguments: Any, allow_valid: bool
) -> tuple[ProbeReport, str]:
    """Learn, then probe; returns the report and a problem with the given arguments."""
    from sia_tui.cli.needs import CONSENT_FLAG
    from sia_tui.core.probe import Prober

    prober = Prober(target, options, arguments=arguments)
    try:
        await prober.learn()
        if arguments is not None and prober.arguments_problem:
            return prober.report, prober.arguments_problem
        report = await prober.run(allow_valid_invocations=allow_valid)
        need = report.learning.answers.consent_need
        if prober.needs_confirmation and not allow_valid and need is not None:
            print(
                f"sia-tui probe: {need.reason}; probes that need valid arguments were "
                f"skipped ({CONSENT_FLAG} runs them)",
                file=sys.stderr,
            )
        return report, ""
    finally:
        await prober.aclose()


def _write_outputs(
    args: argparse.Namespace, report: ProbeReport, options: ClientOptions, redactor: Redactor
) -> int:
    """--save and --junit; 0, or 2 when a file cannot be written."""
    from sia_tui.core.probe import save_probe_session, write_probe_junit

    return write_saved_files(
        "probe",
        args,
        lambda path: save_probe_session(
            report,
            options,
            path,
            secret_values=args.secret,
            secret_headers=args.secret_header,
        ),
        lambda path: write_probe_junit(path, report, lambda text: redactor.text(text, "junit")),
    )


def main(args: argparse.Namespace) -> int:
    """Run `probe`; never a traceback for bad input."""
    import asyncio

    from sia_tui.core.errors import JsonInputError
    from sia_tui.core.output import printable, terminal_json
    from sia_tui.core.probe import probe_to_json, render_probe_text
    from sia_tui.core.run import Target

    try:
        options = client_options(args)
        redactor = command_redactor(args, options, [args.card])
        arguments = None if args.args == "example" else read_json_input(args.args)[0]
    except (UsageError, JsonInputError) as exc:
        print(f"sia-tui probe: {exc}", file=sys.stderr)
        return EXIT_USAGE
    target = Target(args.card, skill_id=args.skill, binding=args.binding)
    report, problem = asyncio.run(run_probe(target, options, arguments, args.allow_execute))
    if problem:
        print(f"sia-tui probe: {printable(redactor.text(problem, 'error'))}", file=sys.stderr)
        return EXIT_USAGE
    for exchange in report.all_exchanges():
        redactor.learn_headers(exchange.request_headers)
    status = _write_outputs(args, report, options, redactor)
    if status:
        return status
    if args.json:
        print(terminal_json(redactor.value(probe_to_json(report), "report")))
    else:
        text = render_probe_text(report, colour=sys.stdout.isatty())
        sys.stdout.write(redactor.text(text, "report"))
    if not report.learned:
        return EXIT_NOT_LEARNED
    from sia_tui.core.probe import ProbeOutcome

    return EXIT_FAILED if report.outcome is ProbeOutcome.FAILED else EXIT_PASSED
