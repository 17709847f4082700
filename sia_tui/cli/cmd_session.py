"""Session commands: ``replay``, ``rerun``, ``report`` and ``history``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sia_tui.cli.argument_types import from_one
from sia_tui.cli.flags import (
    UsageError,
    add_capabilities_flag,
    add_consent_flag,
    add_cross_origin_flag,
    add_grpc_security_flags,
    add_limit_flags,
    add_trace_flags,
    limit_options,
    parse_header,
    trace_options,
)
from sia_tui.cli.trust_flags import add_trust_flags, anchors_from
from sia_tui.core.errors import SiaError
from sia_tui.core.output import printable
from sia_tui.core.session import readable_range

# Each handler imports what it runs (asyncio, sessions, the engine), so that building the
# parser (`--help`, other commands) stays light: every start pays for it.


#: What a session file argument accepts.
SESSION_FILE = f"a session file ({readable_range()})"
#: The exit statuses replay, rerun and report share (README: "exit status the worst").
WORST = (
    "With several invocations the exit status is the worst: a failure outweighs an incomplete run."
)


def _invocation_flag(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--invocation",
        type=from_one,
        metavar="N",
        help=f"{what} only the session's Nth invocation (1 is the first sent); "
        "default: every invocation, each with its own verdict",
    )


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the session subcommands."""
    replay = sub.add_parser(
        "replay",
        help="re-validate a saved session offline with today's code",
        description="Run today's procedure on a session's recorded exchanges, offline, and "
        "compare each invocation's diagnosis with the recorded one. Exit 0: every invocation "
        "passes today, as recorded; 1: one fails (as recorded or not), or today's diagnosis "
        "of a step (or a probe's grade) differs from the recording; 2: usage or an unreadable "
        "session; 3: one is incomplete (it sent nothing, or its task waits for a reply). " + WORST,
    )
    replay.add_argument("file", help=SESSION_FILE)
    replay.add_argument("--json", action="store_true", help="machine-readable output")
    _invocation_flag(replay, "replay")
    replay.set_defaults(func=cmd_replay)

    rerun = sub.add_parser(
        "rerun",
        help="send a saved session's requests to the live target",
        description="Send each invocation of a session again to the live agent, in its "
        "recorded mode, with the credentials given now, and compare it with the recording. "
        "Exit 0: every invocation passes, as recorded (steps, digests and mode); 1: one "
        'fails ("still reproduces") or differs from the recording; 2: usage or an '
        "unreadable session; 3: one was not re-sent (a skill that may act, without "
        "--allow-execute). " + WORST,
    )
    rerun.add_argument("file", help=SESSION_FILE)
    rerun.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="a request header (secrets were not saved; give them again)",
    )
    rerun.add_argument("--bearer", help="bearer token for Authorization")
    rerun.add_argument("--target", help="the agent URL, when the recorded one was redacted")
    rerun.add_argument("--json", action="store_true", help="machine-readable output")
    add_consent_flag(rerun)
    # Every limit and consent comes from these flags (or their defaults), never from the
    # session file: it is someone else's input (docs/SECURITY.md).
    limits = rerun.add_argument_group("limits and consent (never taken from the session file)")
    add_limit_flags(limits)
    add_cross_origin_flag(limits)
    add_grpc_security_flags(limits)
    add_trace_flags(limits)
    add_capabilities_flag(limits)
    limits.add_argument(
        "--push-url",
        metavar="URL",
        help="register this webhook when an invocation recorded push to a receiver of its "
        "own (the session's URL is never registered)",
    )
    # The trust anchors too: the session's stored keys, required signature and lock are
    # used offline by `replay` only (docs/SECURITY.md).
    add_trust_flags(rerun)
    _invocation_flag(rerun, "re-send")
    rerun.set_defaults(func=cmd_rerun)

    report = sub.add_parser(
        "report",
        help="write a Markdown or HTML bug report of a session, or its exchanges as HAR 1.2 "
        "or OTLP/JSON spans",
        description="Write a bug report of a session (Markdown or HTML), its exchanges as "
        "HAR 1.2, or the run as OTLP/JSON spans (one per step and per exchange), redacted; "
        "the exit status is the recorded verdict. Exit 0: every "
        "invocation passed; 1: one failed; 2: usage, an unreadable session or an output "
        "that cannot be written (nothing is written); 3: one is incomplete. " + WORST,
    )
    report.add_argument("file", help=SESSION_FILE)
    report.add_argument(
        "--format",
        choices=("markdown", "html", "har", "otlp"),
        default="markdown",
        help="har: every exchange as HAR 1.2 (browser devtools, Charles, Insomnia); otlp: the "
        "run as OTLP/JSON traces (Jaeger, Tempo, the OpenTelemetry collector)",
    )
    report.add_argument("-o", "--output", help="write here instead of standard output")
    _invocation_flag(report, "report on")
    report.set_defaults(func=cmd_report)

    history = sub.add_parser("history", help="list or delete autosaved runs")
    history.add_argument("action", nargs="?", choices=("list", "delete", "clear"), default="list")
    history.add_argument("id", nargs="?", help="the entry to delete")
    history.add_argument("--json", action="store_true", help="machine-readable output")
    history.set_defaults(func=cmd_history)


def _error(message: str) -> int:
    print(f"sia-tui: error: {printable(message)}", file=sys.stderr)
    return 2


def cmd_replay(args: argparse.Namespace) -> int:
    """Exit 0 when today's diagnoses (of every invocation's steps, and of the probes) match
    the recording, 1 when one differs, 2 unreadable."""
    import asyncio

    from sia_tui.core.probe import load_checked_session, replay_probes
    from sia_tui.core.redaction import install_log_redaction
    from sia_tui.core.session import replay_session

    install_log_redaction()
    try:
        session = load_checked_session(args.file)
        result = asyncio.run(replay_session(session, args.invocation))
        probes = asyncio.run(replay_probes(session))  # None unless `sia-tui probe --save`
    except SiaError as exc:
        return _error(str(exc))
    same = result.same and (probes is None or probes.same)
    if args.json:
        report = {**result.to_json(), "file": args.file, "warnings": session.warnings}
        if probes is not None:
            report["probes"] = probes.to_json()
        print(json.dumps(report, indent=2))
        return _replay_exit(result, same)
    # One field, one line: a session's text may hold newlines that would forge lines.
    for warning in session.warnings:
        print(f"warning: {printable(warning)}")
    several = len(session.run.invocations) > 1
    for each in result.results:
        if several:
            print(f"{each.recorded.label}:")
        for note in each.notes:
            print(f"note: {printable(note)}")
        if each.same:
            print("same: today's code reaches the recorded diagnosis at every step")
        print(f"today: {printable(each.run.verdict.headline)}")
        for change in each.changes:
            print(
                f"step {change.step} {printable(change.title)}: recorded "
                f"{printable(change.recorded)}, today {printable(change.today)}"
            )
        for url in each.unmatched:
            print(f"not recorded: {printable(url)}")
    if probes is not None:
        _print_probe_replay(probes)
    return _replay_exit(result, same)


def _replay_exit(result: Any, same: bool) -> int:
    """The worst of today's outcomes, and 1 when a diagnosis or a probe's grade changed."""
    from sia_tui.core.run import worst_exit_code

    return worst_exit_code((result.exit_code, 0 if same else 1))


def _print_probe_replay(probes: Any) -> None:
    """Today's grades of the recorded probe answers, and what changed."""
    if probes.same:
        print(f"same: today's rules give every one of {len(probes.results)} probes its grade")
    for change in probes.changes:
        print(
            f"probe {printable(change.id)}: recorded {printable(change.recorded)}, "
            f"today {printable(change.today)}"
        )
    for url in probes.unmatched:
        print(f"not recorded: {printable(url)}")


def parse_headers(values: list[str]) -> tuple[tuple[str, str], ...]:
    """``'Name: value'`` strings as header pairs."""
    from sia_tui.core.session import SessionError

    try:
        return tuple(parse_header(value) for value in values)
    except UsageError as exc:
        raise SessionError(str(exc)) from None


def cmd_rerun(args: argparse.Namespace) -> int:
    """Exit 0 when the live run matches the recording ("still reproduces"), 1 when changed,
    3 when the invocation was not re-sent (a skill that may act, without --allow-execute)."""
    import asyncio

    from sia_tui.cli.push_flags import push_from
    from sia_tui.core.a2a import ClientOptions
    from sia_tui.core.redaction import Redactor, install_log_redaction
    from sia_tui.core.session import LiveChoices, load_session, rerun_session

    try:
        headers = parse_headers(args.header)
        given = ClientOptions(**limit_options(args), **trace_options(args))
        anchors = anchors_from(args)
    except SiaError as exc:
        return _error(str(exc))
    # The live agent may echo the credentials given now: scrub everything printed or logged.
    redactor = Redactor()
    redactor.learn_headers(headers)
    if args.bearer:
        redactor.add_secret(args.bearer, "authorization", force=True)
    install_log_redaction(redactor)
    try:
        session = load_session(args.file)
        result = asyncio.run(
            rerun_session(
                session,
                args.invocation,
                location=args.target,
                headers=headers,
                bearer=args.bearer,
                consent=args.allow_execute,
                given=given,
                anchors=anchors,
                live=LiveChoices(push_from(args), args.ignore_capabilities),
            )
        )
    except SiaError as exc:
        return _error(redactor.text(str(exc), "error"))
    if args.json:
        print(json.dumps(redactor.value(result.to_json(), "output"), indent=2))
        return result.exit_code
    for note in result.notes:  # what the file recorded that this run does not use
        print(f"note: {printable(note)}")
    several = len(session.run.invocations) > 1
    for each in result.results:
        label = f"{each.recorded.label}: " if several else ""
        print(printable(redactor.text(label + each.headline(), "output")))
        for body in [] if each.unreachable else each.body_changes:
            purpose = printable(redactor.text(body.purpose, "output"))
            print(f"response of {purpose} (recorded #{body.recorded_seq}):")
            for change in body.changes[:20]:
                print("  " + printable(redactor.text(change.describe(), "output")))
    return result.exit_code


def cmd_report(args: argparse.Namespace) -> int:
    """Write the report; 2 when the session cannot be read or the output cannot be written."""
    from pathlib import Path

    from sia_tui.core.atomic_file import atomic_write
    from sia_tui.core.bugreport import render_html, render_markdown
    from sia_tui.core.probe import load_checked_session
    from sia_tui.core.run import worst_exit_code
    from sia_tui.core.session import pick_invocations, render_har, render_otlp

    renderers = {
        "html": render_html,
        "markdown": render_markdown,
        "har": render_har,
        "otlp": render_otlp,
    }
    try:
        session = load_checked_session(args.file)
        render = renderers[args.format]
        text = render(session, Path(args.file).name, args.invocation)
        reported = pick_invocations(session.run, args.invocation)
    except SiaError as exc:
        return _error(str(exc))
    # The report is written whatever the verdict; the status says the verdict it reports.
    verdict = worst_exit_code(each.run.verdict.outcome.exit_code for each in reported)
    if not args.output:
        sys.stdout.write(text)
        return verdict
    try:
        atomic_write(Path(args.output), text)
    except OSError as exc:
        return _error(f"cannot write {args.output}: {exc.strerror or exc}")
    print(f"wrote {args.output}", file=sys.stderr)
    return verdict


def cmd_history(args: argparse.Namespace) -> int:
    """List, delete one, or clear the autosaved runs."""
    from sia_tui.core.session import history

    try:
        if args.action == "delete":
            if not args.id:
                return _error("history delete needs an entry id (see 'sia-tui history')")
            if not history.delete_entry(args.id):
                return _error(f"no history entry {args.id!r}")
            print(f"deleted {args.id}")
            return 0
        if args.action == "clear":
            print(f"deleted {history.clear_history()} entries")
            return 0
        entries = history.list_history()
    except (SiaError, OSError) as exc:
        return _error(str(exc))
    if args.json:
        print(
            json.dumps(
                [{**e.__dict__, "path": str(history.entry_path(e))} for e in entries], indent=2
            )
        )
        return 0
    if not entries:
        print(f"no saved runs in {history.history_dir()}")
    for e in entries:
        failing = f"failed at step {e.failed_step}" if e.failed_step else e.outcome
        if e.kind == "probe":  # a probe run: the probes' outcome, not its learning run's
            failing = f"probes {e.outcome}"
        fields = (e.id, e.when, e.skill or "-", failing, e.target)
        print("  ".join(printable(field) for field in fields))
    return 0
