"""The wire verdicts of a run's exchanges, summed: the one place every surface reads
(``check`` text and ``--json``, the bug report, the matrix's ``wire`` column, the TUI's
exchange view) and the one ``--strict-wire`` fails a step from."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.wire.check import check_exchange, check_push_body
from sia_tui.core.wire.revisions import A2A_0_3, A2A_1_0
from sia_tui.core.wire.verdict import WireSeverity, WireVerdict

if TYPE_CHECKING:
    from sia_tui.core.a2a.push.receiver import Delivery

#: Verdicts kept for exchanges already checked (a redraw or a report asks again); an
#: exchange is immutable, so its verdict never changes.
_CACHE_SIZE = 512
_cache: OrderedDict[tuple[int, str], tuple[object, WireVerdict | None]] = OrderedDict()
_lock = threading.Lock()


def _once(checked: object, revision: str, check: Any) -> WireVerdict | None:
    """``check()``'s verdict on ``checked`` (immutable once recorded), computed once."""
    key = (id(checked), revision)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] is checked:
            _cache.move_to_end(key)
            return hit[1]
    verdict: WireVerdict | None = check()
    with _lock:
        _cache[key] = (checked, verdict)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return verdict


def verdict_of(exchange: Exchange) -> WireVerdict | None:
    """The wire verdict of ``exchange``, checked once (None: it carries no A2A message)."""
    return _once(exchange, "", lambda: check_exchange(exchange))


def delivery_verdict(delivery: Delivery, revision: str = A2A_1_0) -> WireVerdict | None:
    """The wire verdict of one push delivery's body, checked once; None when its body was
    not kept whole (too large, or cut at ``MAX_PUSH_BODY_KEPT``): nothing to check."""
    if not delivery.body or delivery.body_cut:
        return None
    return _once(delivery, revision, lambda: check_push_body(delivery.body, revision))


@dataclass(frozen=True)
class WireReport:
    """Every checked exchange of a run (by its ``seq``) and what the run saw in total."""

    verdicts: tuple[tuple[int, WireVerdict], ...] = ()
    #: Each push delivery the run's own receiver kept whole (by its ``number``).
    pushes: tuple[tuple[int, WireVerdict], ...] = ()

    def _all(self) -> list[WireVerdict]:
        return [v for _, v in self.verdicts] + [v for _, v in self.pushes]

    @property
    def errors(self) -> int:
        """Wire errors the run saw."""
        return sum(v.errors for v in self._all())

    @property
    def warnings(self) -> int:
        """Wire warnings (unknown members) the run saw."""
        return sum(v.warnings for v in self._all())

    @property
    def revisions(self) -> tuple[str, ...]:
        """The A2A revisions the messages were checked against, in order of first use."""
        return tuple(dict.fromkeys(v.revision for v in self._all()))

    @property
    def revision_text(self) -> str:
        """``A2A 1.0``, ``A2A 1.0 and 0.3``: how every report names what it checked against."""
        return "A2A " + " and ".join(self.revisions or ("1.0",))

    def verdict(self, seq: int) -> WireVerdict | None:
        """The verdict of exchange ``seq``, or None when it was not checked."""
        return next((v for s, v in self.verdicts if s == seq), None)

    @property
    def summary(self) -> str:
        """One line: ``wire (A2A 1.0): 3 exchanges checked, 1 error, 2 warnings``."""
        checked = len(self.verdicts)
        noun = "exchange" if checked == 1 else "exchanges"
        n = len(self.pushes)
        pushed = f" and {n} push deliver{'y' if n == 1 else 'ies'}" if n else ""
        return (
            f"wire ({self.revision_text}): {checked} {noun}{pushed} checked, "
            f"{_count(self.errors, 'error')}, {_count(self.warnings, 'warning')}"
        )

    def lines(self) -> list[str]:
        """The summary, then each exchange's issues (``#3 error response /x Task: ...``)."""
        out = [self.summary]
        for label, verdicts in (("#", self.verdicts), ("push #", self.pushes)):
            for seq, verdict in verdicts:
                out.extend(f"  {label}{seq} {issue.line()}" for issue in verdict.issues)
                if verdict.more:
                    out.append(f"  {label}{seq} ... {verdict.more} more")
        return out

    def to_json(self) -> dict[str, Any]:
        """The ``wire`` member of ``--json`` reports and of the bug report's data."""
        return {
            "revisions": list(self.revisions),
            "errors": self.errors,
            "warnings": self.warnings,
            "exchanges": [_verdict_json("seq", seq, v) for seq, v in self.verdicts],
            "push_deliveries": [_verdict_json("number", n, v) for n, v in self.pushes],
        }


def _verdict_json(key: str, number: int, verdict: WireVerdict) -> dict[str, Any]:
    return {
        key: number,
        "revision": verdict.revision,
        "kinds": list(verdict.kinds),
        "errors": verdict.errors,
        "warnings": verdict.warnings,
        "more": verdict.more,
        "issues": [
            {
                "severity": i.severity.value,
                "where": i.where,
                "pointer": i.pointer,
                "kind": i.kind,
                "field": i.field,
                "problem": i.problem,
                "message": i.message,
            }
            for i in verdict.issues
        ],
    }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def wire_report(exchanges: Iterable[Exchange], deliveries: Iterable[Delivery] = ()) -> WireReport:
    """The wire report of ``exchanges`` (a run's, an invocation's, a session's) and of the
    push ``deliveries`` its own receiver accepted (each checked against the revision the
    exchanges spoke: a 0.3 agent posts the Task, a 1.0 one a StreamResponse)."""
    checked = []
    for exchange in exchanges:
        verdict = verdict_of(exchange)
        if verdict is not None:
            checked.append((exchange.seq, verdict))
    revision = A2A_0_3 if any(v.revision == A2A_0_3 for _, v in checked) else A2A_1_0
    pushed = []
    for delivery in deliveries:
        pushed_verdict = delivery_verdict(delivery, revision)
        if pushed_verdict is not None:
            pushed.append((delivery.number, pushed_verdict))
    return WireReport(tuple(checked), tuple(pushed))


def received_errors(exchanges: Iterable[Exchange]) -> list[Finding]:
    """``--strict-wire``: the wire errors of what the agent sent (not of sia-tui's own
    requests), as findings at their pointers."""
    findings = []
    for exchange in exchanges:
        verdict = verdict_of(exchange)
        if verdict is None:
            continue
        for issue in verdict.issues:
            if issue.severity is WireSeverity.ERROR and issue.where != "request":
                named = f" ({issue.field})" if issue.field else ""
                findings.append(
                    Finding(
                        f"A2A {verdict.revision} wire error in exchange #{exchange.seq} "
                        f"{issue.where}, {issue.kind}{named}: {issue.message}",
                        pointer=issue.pointer,
                        keyword=issue.problem,
                    )
                )
    return findings
