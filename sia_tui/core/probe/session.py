"""Probe runs in session files: save them, read them back, and re-grade them offline.

A probe session is an ordinary session file (``sia-session/6``): ``run`` is the learning run,
``exchanges`` holds every exchange (learning, then probes, in one numbering) and the
optional ``probe`` member holds the plan and the grades (docs/SESSION-FORMAT.md).
``replay`` answers each probe's recorded request with its recorded bytes and grades the
answer with today's rules.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.probe.prober import ProbeSender
from sia_tui.core.probe.results import PlannedProbe, ProbeRecord, ProbeReport, ProbeResult
from sia_tui.core.run.read_model import Run
from sia_tui.core.session.dataclass_json import SessionError, from_json, to_json
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.replay import ReplayTransport, replay_options
from sia_tui.core.session.store import SavedSession, load_session, save_session


def probe_member(report: ProbeReport) -> dict[str, Any]:
    """The ``probe`` member of the session file for ``report``."""
    record = ProbeRecord(**{f.name: getattr(report, f.name) for f in fields(ProbeRecord)})
    value: dict[str, Any] = to_json(record)
    return value


def session_run(report: ProbeReport) -> Run:
    """The learning run holding every exchange of the probe run (the session's ``run``)."""
    return dataclasses.replace(report.learning, exchanges=report.all_exchanges())


def save_probe_session(
    report: ProbeReport,
    options: ClientOptions,
    path: str | os.PathLike[str],
    *,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> SavedSession:
    """Redact and save a probe run as a session file (``sia-tui probe --save FILE``)."""
    return save_session(
        session_run(report),
        options,
        path,
        secret_values=secret_values,
        secret_headers=secret_headers,
        probe=probe_member(report),
    )


def recorded_probe(session: LoadedSession) -> ProbeRecord | None:
    """The typed ``probe`` member of a loaded session, or None for a plain check session.

    A session read by :func:`load_checked_session` was decoded then; any other is decoded
    now, and a tampered member is a SessionError.
    """
    if isinstance(session, CheckedSession):
        return session.record
    if session.probe is None:
        return None
    return from_json(ProbeRecord, session.probe, "/probe")


@dataclass
class CheckedSession(LoadedSession):
    """A session file whose ``probe`` member, if any, was decoded and checked on load."""

    #: The typed ``probe`` member (None: a plain check session).
    record: ProbeRecord | None = None


def load_checked_session(path: str | os.PathLike[str]) -> CheckedSession:
    """Load a session file, its ``probe`` member checked too: every surface that shows the
    member (``replay``, ``report``, ``open`` and its Probe screen) reads sessions through
    here, so a tampered one is refused on load with the file named, like any other defect
    of the file, and the member is decoded once."""
    session = load_session(path)
    try:
        record = recorded_probe(session)
    except SessionError as exc:
        raise SessionError(f"{path}: {exc}") from None
    loaded = {f.name: getattr(session, f.name) for f in fields(LoadedSession)}
    return CheckedSession(**loaded, record=record)


def report_from_session(session: LoadedSession) -> ProbeReport | None:
    """The recorded probe run, for read-only display (its exchanges are the run's)."""
    record = recorded_probe(session)
    if record is None:
        return None
    return ProbeReport(
        learning=session.run, **{f.name: getattr(record, f.name) for f in fields(ProbeRecord)}
    )


@dataclass
class GradeChange:
    """A probe whose grade today differs from the recorded one."""

    id: str
    recorded: str
    today: str


@dataclass
class ProbeReplay:
    """Today's grades of the recorded answers, and what changed."""

    results: list[ProbeResult]
    changes: list[GradeChange]
    #: Requests that found no recorded answer (the probe's answer was not in the file).
    unmatched: list[str]

    @property
    def same(self) -> bool:
        """True when every probe keeps its recorded grade."""
        return not self.changes

    def to_json(self) -> dict[str, Any]:
        """The ``probes`` part of ``replay --json``."""
        return {
            "same": self.same,
            "changes": [dataclasses.asdict(c) for c in self.changes],
            "grades": {r.id: r.grade.value for r in self.results},
            "unmatched_requests": self.unmatched,
        }


async def replay_probes(session: LoadedSession) -> ProbeReplay | None:
    """Re-grade every recorded probe from its recorded exchanges, with no network."""
    record = recorded_probe(session)
    if record is None:
        return None
    run = session.run
    if run.interface is None:
        raise SessionError("at /run/interface: a probe session needs the recorded interface")
    by_seq = {e.seq: e for e in run.exchanges}
    options = replay_options(session.options, poll_interval=0.0).options
    results, changes, unmatched = [], [], []
    for recorded in record.results:
        if recorded.sent is None:  # skipped: nothing was sent, nothing to re-grade
            results.append(recorded)
            continue
        transport = ReplayTransport([by_seq[s] for s in recorded.exchanges if s in by_seq])
        sender = ProbeSender(
            # The document says whether a task left running may be cancelled.
            ProbeReport(learning=Run(run.target, document=run.document)),
            options,
            run.interface,
            transport,
            run.target.location,
        )
        planned = PlannedProbe(recorded.kind, recorded.sent, recorded.pointers)
        try:
            today = await sender.send(planned, record.mode or InvocationMode.SYNC)
        finally:
            await sender.aclose()
        today.exchanges = list(recorded.exchanges)
        unmatched.extend(transport.unmatched)
        results.append(today)
        if today.grade is not recorded.grade:
            changes.append(GradeChange(recorded.id, recorded.grade.value, today.grade.value))
    return ProbeReplay(results, changes, unmatched)
