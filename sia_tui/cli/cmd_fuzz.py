"""`sia-tui fuzz`: arguments generated from the skill's input schema, each graded."""

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
    write_saved_files,
)

# The engine, hypothesis and httpx are imported by the functions that run them, so that
# building the parser (`--help`, other commands) stays light.
if TYPE_CHECKING:
    from sia_tui.core.a2a import ClientOptions
    from sia_tui.core.fuzz import FuzzCase, FuzzReport, FuzzSettings
    from sia_tui.core.redaction import Redactor
    from sia_tui.core.run import Target

#: Exit statuses, as probe's (docs/FUZZ.md).
EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_NOT_FUZZED = 0, 1, 2, 3
#: The bounds a user may give: a fuzz run stays a test, never a flood.
MAX_EXAMPLES, MAX_RATE = 10_000, 1000.0

DESCRIPTION = """\
Generate arguments from the skill's input schema (hypothesis and hypothesis-jsonschema,
each value confirmed by the 2020-12 validator) and send them through the eleven steps:
valid arguments must not be refused with input_invalid, and every result and record must
validate against its schema (step 10); invalid ones (exactly one mutation of a valid
value: a required member removed, a wrong type, a value outside an enum or a bound, a
pattern or format broken, an extra member where none is allowed) must be refused with
input_invalid in TASK_STATE_REJECTED, details at the bad member (RULES INV3, ERR3, ERR5),
graded as `sia-tui probe` grades its invalid-argument probes. A failure is shrunk to the
smallest arguments that still fail and printed with a command that reproduces it.

Safety: at most --rate invocations a second, --examples cases, --max-time seconds, and
arguments of at most 4 KB. A skill whose document declares execute authority or
approval_may_be_required is fuzzed only with --allow-execute.

Exit status: 0 no case failed; 1 a case failed; 2 usage or unwritable output; 3 nothing
was fuzzed (steps 1-6 failed, --allow-execute missing, no arguments generated).
"""


def _positive(kind: type[int] | type[float], most: float) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(f"must be above 0 and at most {most:g}")
        return value

    return parse


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `fuzz`."""
    parser = sub.add_parser(
        "fuzz",
        help="send arguments generated from the input schema and grade each answer",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("card", help="base URL, Agent Card URL (.json) or local card file")
    parser.add_argument("--skill", required=True, metavar="ID", help="the skill to fuzz")
    parser.add_argument(
        "--examples",
        type=_positive(int, MAX_EXAMPLES),
        default=50,
        metavar="N",
        help="examples to generate, half valid, half invalid (default 50); one equal to an "
        "example already sent is graded again from its answer, not sent twice",
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="hypothesis seed (default: a random one, printed)"
    )
    parser.add_argument(
        "--max-time",
        type=_positive(float, 86400),
        default=120.0,
        metavar="T",
        help="seconds after which no new case is sent (default 120)",
    )
    parser.add_argument(
        "--rate",
        type=_positive(float, MAX_RATE),
        default=4.0,
        metavar="R",
        help="most invocations a second (default 4)",
    )
    add_consent_flag(parser)
    parser.add_argument("--json", action="store_true", help="print the JSON report")
    parser.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="save the session (sia-session/6) with every invocation, the seed and corpus",
    )
    add_connection_flags(parser)
    parser.set_defaults(func=main)


def reproduce_command(report: FuzzReport, case: FuzzCase) -> str:
    """The `check` command that sends exactly ``case``'s arguments again."""
    import shlex

    from sia_tui.core.fuzz import CaseKind, arguments_text

    target = report.learning.target
    words = ["sia-tui", "check", target.location, "--skill", report.skill, "--args", "-"]
    if target.binding:
        words += ["--binding", str(target.binding)]
    if case.kind is CaseKind.INVALID:
        words.append("--send-anyway")
    if report.settings.allow_execute:
        words.append("--allow-execute")
    return f"printf '%s' {shlex.quote(arguments_text(case))} | {shlex.join(words)}"


def rerun_command(report: FuzzReport) -> str:
    """The `fuzz` command that repeats the run (same seed and bounds)."""
    import shlex

    settings = report.settings
    target = report.learning.target
    words = ["sia-tui", "fuzz", target.location, "--skill", report.skill]
    words += ["--seed", str(settings.seed), "--examples", str(settings.examples)]
    words += ["--max-time", f"{settings.max_time:g}", "--rate", f"{settings.rate:g}"]
    if target.binding:
        words += ["--binding", str(target.binding)]
    if settings.allow_execute:
        words.append("--allow-execute")
    return shlex.join(words)


def render_text(report: FuzzReport, colour: bool) -> str:
    """The core's text report with the commands that reproduce each failure."""
    from sia_tui.core.fuzz import render_fuzz_text

    text = render_fuzz_text(report, colour=colour)
    lines = [f"reproduce: {reproduce_command(report, c)}" for c in report.failures]
    if report.cases:
        lines.append(f"repeat the run: {rerun_command(report)}")
    return text + "".join(f"{line}\n" for line in lines)


async def run_fuzz(target: Target, options: ClientOptions, settings: FuzzSettings) -> FuzzReport:
    """Learn, then fuzz."""
    from sia_tui.core.fuzz import Fuzzer

    fuzzer = Fuzzer(target, options, settings)
    try:
        await fuzzer.learn()
        return await fuzzer.run()
    finally:
        await fuzzer.aclose()


def _write_outputs(
    args: argparse.Namespace, report: FuzzReport, options: ClientOptions, redactor: Redactor
) -> int:
    """--save and --junit; 0, or 2 when a file cannot be written."""
    from sia_tui.core.fuzz import save_fuzz_sessions, write_fuzz_junit

    return write_saved_files(
        "fuzz",
        args,
        lambda path: save_fuzz_sessions(
            report,
            options,
            path,
            secret_values=args.secret,
            secret_headers=args.secret_header,
        ),
        lambda path: write_fuzz_junit(path, report, lambda text: redactor.text(text, "junit")),
    )


def main(args: argparse.Namespace) -> int:
    """Run `fuzz`; never a traceback for bad input."""
    import asyncio
    import random

    from sia_tui.core.fuzz import FuzzOutcome, FuzzSettings, fuzz_to_json
    from sia_tui.core.output import terminal_json
    from sia_tui.core.run import Target

    try:
        options = client_options(args)
        redactor = command_redactor(args, options, [args.card])
    except UsageError as exc:
        print(f"sia-tui fuzz: {exc}", file=sys.stderr)
        return EXIT_USAGE
    settings = FuzzSettings(
        examples=args.examples,
        seed=args.seed if args.seed is not None else random.randrange(2**32),
        max_time=args.max_time,
        rate=args.rate,
        allow_execute=args.allow_execute,
    )
    target = Target(args.card, skill_id=args.skill, binding=args.binding)
    report = asyncio.run(run_fuzz(target, options, settings))
    for run in report.runs or [report.learning]:
        for exchange in run.exchanges:
            redactor.learn_headers(exchange.request_headers)
    status = _write_outputs(args, report, options, redactor)
    if status:
        return status
    if args.json:
        print(terminal_json(redactor.value(fuzz_to_json(report), "report")))
    else:
        sys.stdout.write(redactor.text(render_text(report, sys.stdout.isatty()), "report"))
    if report.outcome is FuzzOutcome.FAILED:
        return EXIT_FAILED
    return EXIT_NOT_FUZZED if report.outcome is FuzzOutcome.INCOMPLETE else EXIT_PASSED
