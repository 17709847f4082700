"""Rerun: the recorded requests against the live target, and what changed since.

Each invocation of a session is re-sent on its own (steps 1-6, then its arguments) and
compared with the recorded one: its diagnosis step by step, its digests, its bodies.
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.report_json import blame_to_json, error_to_json
from sia_tui.core.exchange import Exchange
from sia_tui.core.needs import Need, word
from sia_tui.core.run.evidence import FailureCategory
from sia_tui.core.run.read_model import Invocation, Run
from sia_tui.core.run.verdicts import worst_exit_code
from sia_tui.core.session.dataclass_json import SessionError
from sia_tui.core.session.diagnosis import StepChange, compare_steps, same_failure
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import pick_invocations
from sia_tui.core.session.json_changes import JsonChange, json_diff
from sia_tui.core.session.live_anchors import anchor_notes
from sia_tui.core.session.replay import own_exchanges, run_recorded, session_options, target_for
from sia_tui.core.session.rerun_target import NO_CHOICES, LiveChoices, live_target
from sia_tui.core.trust.records import TrustAnchors

#: Bodies larger than this are compared by equality only.
MAX_DIFFED_BODY = 4 * 1024 * 1024


@dataclass
class BodyChange:
    """The structural differences of one response body (matched by purpose and order)."""

    purpose: str
    recorded_seq: int
    today_seq: int | None
    changes: list[JsonChange]


@dataclass
class RerunResult:
    """Today's live run of one invocation compared with the recorded one."""

    run: Run
    #: The recorded invocation this re-sends (its number, and the run as it ended).
    recorded: Invocation
    still_reproduces: bool
    step_changes: list[StepChange]
    digest_changes: dict[str, tuple[str | None, str | None]]
    body_changes: list[BodyChange] = field(default_factory=list)
    #: The response mode recorded and today's, when they differ (both sent).
    mode_change: tuple[str, str] | None = None

    @property
    def same(self) -> bool:
        """True when steps, digests and the response mode are as recorded. Bodies may
        differ in detail (they are listed, and the headline never says "as recorded")."""
        return not self.step_changes and not self.digest_changes and self.mode_change is None

    @property
    def unreachable(self) -> bool:
        """True when today's run got no answer where the recording had one: nothing that
        came after can be compared (a digest not obtained is not a digest that changed)."""
        failed = self.run.failed_step
        return (
            failed is not None
            and failed.category is FailureCategory.TRANSPORT
            and any(c.step == failed.step and c.recorded != c.today for c in self.step_changes)
        )

    @property
    def exit_code(self) -> int:
        """3 not re-sent (no consent), else the worst of today's outcome and 1 if changed."""
        if self.run.verdict.waiting_for_consent:
            return 3
        return worst_exit_code((self.run.verdict.outcome.exit_code, 0 if self.same else 1))

    def headline(self) -> str:
        """ "still reproduces", why nothing could be compared, or what changed."""
        if self.run.verdict.waiting_for_consent:
            return f"not re-sent: {self.run.verdict.summary}"
        if self.same:
            verdict = "still reproduces" if self.run.failed_step else "still passes"
            if self.body_changes:  # the same diagnosis, but not the recorded answers
                many = len(self.body_changes)
                bodies = "body differs" if many == 1 else "bodies differ"
                return f"{verdict}; {many} response {bodies} from the recording"
            return verdict if self.run.failed_step else f"{verdict}, as recorded"
        failed = self.run.failed_step
        if self.unreachable and failed is not None:
            blame = self.run.verdict.at_fault
            why = blame.statement if blame else failed.message
            return f"not re-run: {why} (step {failed.step}); nothing was compared"
        parts = []
        if self.mode_change is not None:
            parts.append("mode: {} recorded, {} today".format(*self.mode_change))
        parts += [f"step {c.step}: {c.recorded} -> {c.today}" for c in self.step_changes]
        parts += [f"{k} digest changed" for k in self.digest_changes]
        return "changed: " + "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """One invocation of the ``rerun --json`` report."""
        return {
            "invocation": self.recorded.number,
            "of": self.recorded.total,
            "same": self.same,
            "recorded_outcome": self.recorded.run.verdict.outcome.value,
            "outcome": self.run.verdict.outcome.value,
            "at_fault": blame_to_json(self.run.verdict.at_fault),
            "error": error_to_json(self.run),
            "still_reproduces": self.still_reproduces,
            "headline": self.headline(),
            "unreachable": self.unreachable,
            "recorded_mode": self.recorded.run.mode,
            "mode": self.run.mode,
            "step_changes": [dataclasses.asdict(c) for c in self.step_changes],
            "digest_changes": {
                k: {"recorded": a, "today": b} for k, (a, b) in self.digest_changes.items()
            },
            "body_changes": [
                {
                    "purpose": b.purpose,
                    "recorded_seq": b.recorded_seq,
                    "today_seq": b.today_seq,
                    "changes": [dataclasses.asdict(c) for c in b.changes],
                }
                for b in self.body_changes
            ],
        }


@dataclass
class SessionRerun:
    """Every invocation asked for, re-sent in order."""

    results: list[RerunResult]
    #: What the session recorded that this rerun does not use (a raised limit, a consent,
    #: a trust anchor).
    notes: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        """True when every invocation is as recorded."""
        return all(r.same for r in self.results)

    @property
    def exit_code(self) -> int:
        """The worst over the invocations: each one's outcome today (0 passed, 1 failed), 1
        when it is not as recorded, 3 when it was not re-sent (no ``--allow-execute``:
        nothing was compared)."""
        return worst_exit_code(r.exit_code for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """The ``rerun --json`` report: one entry per invocation."""
        return {
            "same": self.same,
            "notes": list(self.notes),
            "exit_code": self.exit_code,
            "invocations": [r.to_json() for r in self.results],
        }


def _json_or_text(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return data.decode("utf-8", errors="replace")


def body_changes(recorded: list[Exchange], today: list[Exchange]) -> list[BodyChange]:
    """Pair exchanges by purpose and order; diff the response bodies structurally."""
    by_purpose: dict[str, list[Exchange]] = defaultdict(list)
    for ex in today:
        by_purpose[ex.purpose].append(ex)
    out: list[BodyChange] = []
    for ex in recorded:
        peers = by_purpose.get(ex.purpose, [])
        now = peers.pop(0) if peers else None
        if now is None:
            out.append(
                BodyChange(
                    ex.purpose,
                    ex.seq,
                    None,
                    [JsonChange("removed", "", before="(no such request today)")],
                )
            )
            continue
        if max(len(ex.response_body), len(now.response_body)) > MAX_DIFFED_BODY:
            same = ex.response_body == now.response_body
            changes = [] if same else [JsonChange("changed", "", "(large body)", "(large body)")]
        else:
            before, after = ex.response_body, now.response_body
            if ex.events or now.events:  # a stream: its events, not the SSE framing text
                before, after = (
                    b"[" + b",".join(ex.events) + b"]",
                    b"[" + b",".join(now.events) + b"]",
                )
            changes = json_diff(_json_or_text(before), _json_or_text(after))
        if ex.status != now.status:
            what = "(gRPC status)" if ex.grpc else "(HTTP status)"
            changes.insert(0, JsonChange("changed", what, ex.status, now.status))
        if changes:
            out.append(BodyChange(ex.purpose, ex.seq, now.seq, changes))
    return out


async def rerun_session(
    session: LoadedSession,
    number: int | None = None,
    *,
    location: str | None = None,
    headers: tuple[tuple[str, str], ...] = (),
    bearer: str | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    consent: bool = False,
    given: ClientOptions | None = None,
    anchors: TrustAnchors | None = None,
    live: LiveChoices = NO_CHOICES,
) -> SessionRerun:
    """Re-send every invocation of ``session`` (or the one numbered ``number``) live, with
    the credentials given now; ``consent`` (``--allow-execute``) lets the invocation of a
    skill that may act be sent. ``given``: the limits and consents of the command's flags
    (default: the defaults); the session's recorded ones are never used, only noted.
    ``anchors``: the trusted keys, required signature and lock of the command's flags; the
    session's recorded anchors are never used live (a key edited into the file would make a
    forged card verified), only noted. ``live``: the push webhook and the capabilities
    override of the command's flags; the session's are never used, only noted."""
    invocations = pick_invocations(session.run, number)
    if not location and "«redacted:" in session.run.target.location:
        raise SessionError(
            "the recorded target URL had credentials that were redacted; "
            f"give the URL again with {word(Need.TARGET)}"
        )
    kept = tuple((k, v) for k, v in _recorded_headers(session) if "«redacted:" not in v)
    flags = dataclasses.replace(given or ClientOptions(), headers=kept + headers, bearer=bearer)
    chosen = session_options(session.options, flags, offline=False)
    options = chosen.options
    results = []
    target_notes: list[str] = []
    for invocation in invocations:
        target = live_target(target_for(invocation.run), live, target_notes)
        target = dataclasses.replace(target, anchors=anchors)
        if location:
            target = dataclasses.replace(target, location=location)
        today = await run_recorded(target, options, invocation.run, transport, consent=consent)
        results.append(compare_rerun(invocation, today))
    recorded_anchors = (invocation.run.target.anchors for invocation in invocations)
    notes = (*chosen.notes, *anchor_notes(recorded_anchors, anchors), *dict.fromkeys(target_notes))
    return SessionRerun(results, notes)


def compare_rerun(invocation: Invocation, today: Run) -> RerunResult:
    """Today's run of ``invocation`` against the recorded one."""
    recorded = invocation.run
    old, new = recorded.digests, today.digests
    # A digest today's run did not obtain (the agent is gone) did not change.
    digest_changes = {
        name: (getattr(old, name), getattr(new, name))
        for name in ("advertised", "returned", "computed")
        if getattr(new, name) is not None and getattr(old, name) != getattr(new, name)
    }
    # Each invocation is re-sent in its own recorded mode: another mode is another test.
    mode_change = None
    if recorded.mode and today.mode and recorded.mode != today.mode:
        mode_change = (recorded.mode, today.mode)
    return RerunResult(
        today,
        invocation,
        same_failure(recorded, today),
        compare_steps(recorded, today),
        digest_changes,
        body_changes(own_exchanges(recorded), today.exchanges),
        mode_change,
    )


def _recorded_headers(session: LoadedSession) -> list[tuple[str, str]]:
    pairs = session.options.get("headers") or []
    return [(str(p[0]), str(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2]
