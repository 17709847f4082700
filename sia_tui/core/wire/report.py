"""The wire verdicts of a run's exchanges, summed: the one place every surface reads
(``check`` text and ``--json``, the bug report, the matrix's ``wire`` column, the TUI's
exchange view) and the one ``--strict-wire`` fails a step from."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.wire.check import check_exchange
from sia_tui.core.wire.verdict import WireSeverity, WireVerdict

#: Verdicts kept for exchanges already checked (a redraw or a report asks again); an
#: exchange is immutable, so its verdict never changes.
_CACHE_SIZE = 512
_cache: OrderedDict[int, tuple[Exchange, WireVerdict | None]] = OrderedDict()
_lock = threading.Lock()


def verdict_of(exchange: Exchange) -> WireVerdict | None:
    """The wire verdict of ``exchange``, checked once (None: it carries no A2A message)."""
    key = id(exchange)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] is exchange:
            _cache.move_to_end(key)
            return hit[1]
    verdict = check_exchange(exchange)
    with _lock:
        _cache[key] = (exchange, verdict)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return verdict


@dataclass(frozen=True)
class WireReport:
    """Every checked exchange of a run (by its ``seq``) and what the run saw in total."""

    verdicts: tuple[tuple[int, WireVerdict], ...] = ()

    @property
    def errors(self) -> int:
        """Wire errors the run saw."""
        return sum(v.errors for _, v in self.verdicts)

    @property
    def warnings(self) -> int:
        """Wire warnings (unknown members) the run saw."""
        return sum(v.warnings for _, v in self.verdicts)

    @property
    def revisions(self) -> tuple[str, ...]:
        """The A2A revisions the exchanges were checked against, in order of first use."""
        return tuple(dict.fromkeys(v.revision for _, v in self.verdicts))

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
        return (
            f"wire ({self.revision_text}): {checked} {noun} checked, "
            f"{_count(self.errors, 'error')}, {_count(self.warnings, 'warning')}"
        )

    def lines(self) -> list[str]:
        """The summary, then each exchange's issues (``#3 error response /x Task: ...``)."""
        out = [self.summary]
        for seq, verdict in self.verdicts:
            out.extend(f"  #{seq} {issue.line()}" for issue in verdict.issues)
            if verdict.more:
                out.append(f"  #{seq} ... {verdict.more} more")
        return out

    def to_json(self) -> dict[str, Any]:
        """The ``wire`` member of ``--json`` reports and of the bug report's data."""
        return {
            "revisions": list(self.revisions),
            "errors": self.errors,
            "warnings": self.warnings,
            "exchanges": [
                {
                    "seq": seq,
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
                for seq, verdict in self.verdicts
            ],
        }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def wire_report(exchanges: Iterable[Exchange]) -> WireReport:
    """The wire report of ``exchanges`` (a run's, an invocation's, a session's)."""
    checked = []
    for exchange in exchanges:
        verdict = verdict_of(exchange)
        if verdict is not None:
            checked.append((exchange.seq, verdict))
    return WireReport(tuple(checked))


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
