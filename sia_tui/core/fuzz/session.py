"""Fuzz runs in session files: every invocation sent, with the seed and corpus.

A fuzz session is an ordinary session file (``sia-session/6``): its run holds every case
as an invocation (``replay``, ``report`` and ``mock`` read it as any other), and the
optional ``fuzz`` member holds the seed, the bounds and every case's arguments and grade.
A run holds at most ``MAX_INVOCATIONS``; a longer fuzz run is saved as one file per run:
``FILE``, then ``FILE`` with ``-2``, ``-3``... before its suffix.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.fuzz.report_json import case_to_json, fuzz_to_json
from sia_tui.core.fuzz.results import FuzzReport
from sia_tui.core.session.store import save_session


def session_paths(path: Path, count: int) -> list[Path]:
    """``path`` for the first run, ``stem-2.suffix``... for the next ones."""
    return [path] + [path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(2, count + 1)]


def save_fuzz_sessions(
    report: FuzzReport,
    options: ClientOptions,
    path: str | os.PathLike[str],
    *,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> list[Path]:
    """Redact and save each run of ``report`` (``sia-tui fuzz --save FILE``); the paths."""
    runs = report.runs or [report.learning]
    paths = session_paths(Path(path), len(runs))
    whole = fuzz_to_json(report)
    for index, (run, target) in enumerate(zip(runs, paths, strict=True)):
        member = {
            **whole,
            "run": index,
            "files": [p.name for p in paths],
            "cases": [case_to_json(c) for c in report.cases if c.run_index == index],
        }
        save_session(
            run,
            options,
            target,
            secret_values=secret_values,
            secret_headers=secret_headers,
            fuzz=member,
        )
    return paths
