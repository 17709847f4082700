"""Rerun: the recorded requests against the live target, and what changed since."""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx

from sia_tui.core.engine.evidence import FailureCategory
from sia_tui.core.engine.model import Run
from sia_tui.core.exchange import Exchange
from sia_tui.core.session.dataclass_json import SessionError
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.jsondiff import JsonChange, json_diff
from sia_tui.core.session.replay import (
    StepChange,
    compare_steps,
    options_from,
    run_recorded,
    target_for,
)

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
    """Today's live run compared with the recorded one."""

    run: Run
    still_reproduces: bool
    step_changes: list[StepChange]
    digest_changes: dict[str, tuple[str | None, str | None]]
    body_changes: list[BodyChange] = field(default_factory=list)

    @property
    def same(self) -> bool:
        """True when steps and digests are as recorded (bodies may differ in detail)."""
        return not self.step_changes and not self.digest_changes

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

    def headline(self) -> str:
        """ "still reproduces", why nothing could be compared, or what changed."""
        if self.same:
            return "still reproduces" if self.run.failed_step else "still passes, as recorded"
        failed = self.run.failed_step
        if self.unreachable and failed is not None:
            blame = self.run.at_fault
            why = blame.statement if blame else failed.message
            return f"not re-run: {why} (step {failed.step}); nothing was compared"
        parts = [f"step {c.step}: {c.recorded} -> {c.today}" for c in self.step_changes]
        parts += [f"{k} digest changed" for k in self.digest_changes]
        return "changed: " + "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The ``rerun --json`` report."""
        return {
            "same": self.same,
            "still_reproduces": self.still_reproduces,
            "headline": self.headline(),
            "unreachable": self.unreachable,
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
            if not before and ex.events:
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
    *,
    location: str | None = None,
    headers: tuple[tuple[str, str], ...] = (),
    bearer: str | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> RerunResult:
    """Run the recorded target and arguments live with the credentials given now."""

    recorded = session.run
    target = target_for(recorded)
    if location:
        target = dataclasses.replace(target, location=location)
    elif "«redacted:" in target.location:
        raise SessionError(
            "the recorded target URL had credentials that were redacted; "
            "give the URL again with --target"
        )
    kept = tuple((k, v) for k, v in _recorded_headers(session) if "«redacted:" not in v)
    options = options_from(session.options, headers=kept + headers, bearer=bearer)
    today = await run_recorded(target, options, recorded, transport)
    old, new = recorded.digests, today.digests
    # A digest today's run did not obtain (the agent is gone) did not change.
    digest_changes = {
        name: (getattr(old, name), getattr(new, name))
        for name in ("advertised", "returned", "computed")
        if getattr(new, name) is not None and getattr(old, name) != getattr(new, name)
    }
    steps = compare_steps(recorded, today)
    was, now = recorded.failed_step, today.failed_step
    reproduces = bool(was and now and was.step == now.step and was.code == now.code)
    return RerunResult(
        today, reproduces, steps, digest_changes, body_changes(recorded.exchanges, today.exchanges)
    )


def _recorded_headers(session: LoadedSession) -> list[tuple[str, str]]:
    pairs = session.options.get("headers") or []
    return [(str(p[0]), str(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2]
