"""`sia-tui matrix PLUGFEST.toml`: plugfest mode, headless (reports, CI) or as the Matrix screen."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import (
    UsageError,
    add_consent_flag,
    add_otlp_flag,
    add_trace_flags,
    otlp_endpoint_from,
    trace_options,
)

# The matrix engine, asyncio and Textual are imported by the functions that run them, so
# that building the parser (`--help`, other commands) stays light: every start pays for it.
if TYPE_CHECKING:
    from sia_tui.core.matrix import Matrix, Plugfest, Row

DESCRIPTION = """\
Run the eleven steps for every agent x skill x binding x mode that a plugfest file names,
in one bounded-concurrency run, and compare the failures with the file's baseline of
expected failures. With an output flag (or when stdout is not a terminal) it runs headless,
progress on stderr; without, it opens the Matrix screen. Exit 0: every failure is an
expected one (an expected failure that now passes is reported, and does not change the
exit status); 1: a new failure; 2: usage, or the plugfest file is unusable (every problem
is listed with its line); 3: no new failure, but a cell could not run (no example arguments
to take, a skill that may act without --allow-execute, a sia-tui error). A cell past its
deadline fails, as `check --deadline` does."""


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add `matrix`."""
    parser = sub.add_parser(
        "matrix",
        help="plugfest mode: agents x skills x bindings x modes in one table",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("plugfest", metavar="PLUGFEST.toml", help="the plugfest file")
    parser.add_argument("--json", action="store_true", help="print the matrix as JSON")
    parser.add_argument("--junit", metavar="FILE", help="write JUnit XML: a testcase per cell")
    parser.add_argument("--markdown", metavar="FILE", help="write the matrix as Markdown")
    parser.add_argument(
        "--html", metavar="FILE", help="write one self-contained HTML page (for a projector)"
    )
    parser.add_argument(
        "--save-dir",
        metavar="DIR",
        help="save every run as a redacted session in DIR; cells link to them "
        "(the Matrix screen saves under the data dir by default)",
    )
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="runs in flight at once (default: the file's, or 8)"
    )
    parser.add_argument(
        "--deadline",
        type=float,
        metavar="S",
        help="seconds each cell may take, the run's deadline as in check (default: the "
        "file's, or 120)",
    )
    add_consent_flag(parser)
    # A plugfest file is often someone else's: its consents need these flags (SECURITY.md).
    parser.add_argument(
        "--allow-cross-origin",
        action="store_true",
        help="let an agent's allow_cross_origin = true in the file send its credentials to "
        "interface URLs on another origin (the file alone gives no consent)",
    )
    parser.add_argument(
        "--insecure",
        action="store_true",
        help="let an agent's insecure = true in the file turn TLS verification off",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME[=ORIGIN]",
        help="let the file's bearer_env / header_env read environment variable NAME and send "
        "its value to the agent the file names (repeatable); with =ORIGIN (e.g. "
        "https://a.example) only to an agent whose card URL is on that origin; the file "
        "alone reads none",
    )
    parser.add_argument(
        "--trust-file-anchors",
        action="store_true",
        help="use the trusted_keys and lock each agent names in the file for the sig and "
        "lock columns (the file alone marks no card verified)",
    )
    add_trace_flags(parser.add_argument_group("trace"))
    add_otlp_flag(parser)
    parser.set_defaults(func=main)


def _usage(message: str) -> int:
    print(f"sia-tui matrix: {message}", file=sys.stderr)
    return 2


def _env_consents(given: list[str]) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """``--env NAME`` and ``--env NAME=ORIGIN``: the names allowed, and the origins bound.
    ORIGIN is read as the card URLs are (``scheme://host:port``, default ports explicit)."""
    from sia_tui.core.matrix import card_origin

    names, bound = set(), []
    for item in given:
        name, eq, origin = item.partition("=")
        if not name:
            raise UsageError(f"--env {item!r}: name an environment variable")
        names.add(name)
        if eq:
            read = card_origin(origin.rstrip("/"))
            if read is None or _beyond_origin(origin):
                raise UsageError(
                    f"--env {item!r}: ORIGIN must be a URL origin, like https://a.example:8443"
                )
            bound.append((name, read))
    return frozenset(names), tuple(bound)


def _beyond_origin(url: str) -> bool:
    """Whether ``url`` has more than an origin (a path other than "/", a query, a fragment)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.path not in ("", "/") or bool(parts.query or parts.fragment)


def _outputs(args: argparse.Namespace) -> list[Path]:
    return [Path(p) for p in (args.junit, args.markdown, args.html) if p]


def main(args: argparse.Namespace) -> int:
    """Load the file, then run headless or open the Matrix screen."""
    from sia_tui.core.matrix import Consents, PlugfestError, load_plugfest

    if args.jobs is not None and not 1 <= args.jobs <= 64:
        return _usage("--jobs wants a number from 1 to 64")
    if args.deadline is not None and not 0 < args.deadline <= 3600:
        return _usage("--deadline wants seconds, more than 0 and at most 3600")
    for output in _outputs(args):
        if not output.parent.is_dir():
            return _usage(f"cannot write {output}: no folder {output.parent}")
    try:
        trace = trace_options(args)
        otlp_endpoint_from(args)
    except UsageError as exc:
        return _usage(str(exc))
    try:
        env, env_origins = _env_consents(args.env)
        consents = Consents(
            allow_cross_origin=args.allow_cross_origin,
            insecure=args.insecure,
            env=env,
            env_origins=env_origins,
            file_anchors=args.trust_file_anchors,
        )
        plugfest = load_plugfest(args.plugfest, consents=consents)
    except UsageError as exc:
        return _usage(str(exc))
    except PlugfestError as exc:
        count = len(exc.problems)
        return _usage(f"{count} problem(s) in the plugfest file:\n{exc}")
    for warning in plugfest.warnings:
        print(f"\n*** {warning} ***\n", file=sys.stderr)
    save_dir = Path(args.save_dir) if args.save_dir else None
    headless = args.json or _outputs(args) or not sys.stdout.isatty()
    if not headless:
        from sia_tui.tui.matrix_app import run_matrix_app

        return run_matrix_app(
            plugfest,
            save_dir,
            jobs=args.jobs,
            deadline=args.deadline,
            allow_execute=args.allow_execute,
            otlp_endpoint=args.otlp_endpoint,
            **trace,
        )
    return _headless(args, plugfest, save_dir, trace)


def _headless(
    args: argparse.Namespace, plugfest: Plugfest, save_dir: Path | None, trace: dict[str, Any]
) -> int:
    import asyncio

    from sia_tui.core.atomic_file import atomic_write
    from sia_tui.core.matrix import (
        MatrixRunner,
        matrix_junit_suites,
        matrix_to_html,
        matrix_to_json,
        matrix_to_markdown,
        matrix_to_text,
    )
    from sia_tui.core.output import terminal_json, write_junit

    progress = _Progress()
    runner = MatrixRunner(
        plugfest,
        save_dir=save_dir,
        jobs=args.jobs,
        deadline=args.deadline,
        on_change=progress,
        allow_execute=args.allow_execute,
        otlp_endpoint=args.otlp_endpoint,
        **trace,
    )
    matrix = asyncio.run(runner.run())
    for warning in runner.warnings:
        print(f"sia-tui matrix: {warning}", file=sys.stderr)
    try:
        if args.junit:
            write_junit(Path(args.junit), matrix_junit_suites(matrix), name=plugfest.name)
        if args.markdown:
            path = Path(args.markdown)
            atomic_write(path, matrix_to_markdown(matrix, base=path.resolve().parent))
        if args.html:
            path = Path(args.html)
            atomic_write(path, matrix_to_html(matrix, base=path.resolve().parent))
    except OSError as exc:
        print(f"sia-tui matrix: cannot write a report: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(terminal_json(matrix_to_json(matrix, runner.warnings)))
    elif not _outputs(args) or not sys.stdout.isatty():
        sys.stdout.write(matrix_to_text(matrix))
    print(f"sia-tui matrix: {matrix.baseline.headline if matrix.baseline else ''}", file=sys.stderr)
    return matrix.exit_code


class _Progress:
    """Prints each verdict cell on stderr as it finishes: ``[ 3/24] vendor-a · skill · ...``."""

    def __init__(self) -> None:
        self.reported: set[tuple[int, str]] = set()

    def __call__(self, matrix: Matrix, row: Row | None) -> None:
        from sia_tui.core.matrix import cell_phrase
        from sia_tui.core.output import printable

        if row is None:
            return
        columns = matrix.verdict_columns
        total = len(matrix.rows) * len(columns)
        width = len(str(total))
        for column in columns:
            cell = row.cells[column.key]
            key = (id(row), column.key)
            if cell.done and key not in self.reported:
                self.reported.add(key)
                line = f"{row.label} · {column.label}: {cell.status.upper()} {cell_phrase(cell)}"
                print(f"[{len(self.reported):>{width}}/{total}] {printable(line)}", file=sys.stderr)
