"""The probe report's ``--json`` contract (docs/PROBE.md), read from the typed
:class:`ProbeReport`; it decides no grade."""

from __future__ import annotations

from typing import Any

from sia_tui import __version__
from sia_tui.core.exchange import Exchange
from sia_tui.core.probe.grading import EXPECTATIONS
from sia_tui.core.probe.results import Grade, Observation, ProbeReport, ProbeResult

#: The ``format`` member of the JSON report; a breaking change gets a new number.
REPORT_FORMAT = "sia-probe-report/1"


def _observed(observed: Observation | None) -> dict[str, Any] | None:
    if observed is None:
        return None
    return {
        "answer": observed.answer.value,
        "state": observed.state,
        "code": observed.code.value if observed.code else None,
        "message": observed.message,
        "details": observed.details,
        "error": observed.error or None,
        "http_status": observed.http_status,
        "notes": observed.notes,
        "cancel": observed.cancel or None,
    }


def _expected(result: ProbeResult) -> dict[str, Any]:
    expectation = EXPECTATIONS[result.kind]
    return {
        "states": list(expectation.states),
        "code": expectation.code.value,
        "details_pointers": list(result.pointers) if expectation.locate else None,
        "text": result.expected or expectation.describe(),
    }


def result_to_json(result: ProbeResult) -> dict[str, Any]:
    """One probe entry: ``{id, rule, draft, sent, expected, observed, grade, exchanges, ...}``."""
    sent = result.sent
    return {
        "id": result.id,
        "title": result.title,
        "rule": result.rule,
        "draft": result.draft,
        "sent": None
        if sent is None
        else {"data": sent.data, "credentials": sent.credentials, "note": sent.note},
        "expected": _expected(result),
        "observed": _observed(result.observed),
        "grade": result.grade.value,
        "reason": result.reason,
        "should_have": result.should_have or None,
        "exchanges": list(result.exchanges),
    }


def _exchange_summary(exchange: Exchange) -> dict[str, Any]:
    return {
        "seq": exchange.seq,
        "purpose": exchange.purpose,
        "method": exchange.method,
        "url": exchange.url,
        "status": exchange.status,
        "elapsed_ms": round(exchange.elapsed_ms, 1),
        "error": exchange.error,
    }


def probe_to_json(report: ProbeReport) -> dict[str, Any]:
    """The whole ``sia-tui probe --json`` report (a stable contract, docs/PROBE.md)."""
    run = report.learning
    failed = run.failed_step
    return {
        "format": REPORT_FORMAT,
        "tool": f"sia-tui {__version__}",
        "draft": report.draft,
        "outcome": report.outcome,
        "target": run.target.location,
        "agent": run.card.name if run.card else None,
        "skill": {
            "id": run.skill_id,
            "version": run.skill_version,
            "interface_digest": run.digests.advertised,
        },
        "binding": run.interface.binding if run.interface else None,
        "mode": report.mode,
        "learning": {
            "outcome": "passed" if report.learned else "failed",
            "failed_step": None
            if failed is None
            else {
                "step": failed.step,
                "title": failed.title,
                "code": failed.code,
                "origin": failed.origin.value if failed.origin else None,
                "message": failed.message,
                "hint": failed.hint or None,
            },
            "baseline": "ran" if not report.baseline_skipped else "not_run",
            "baseline_skipped": report.baseline_skipped or None,
        },
        "arguments_source": report.arguments_source,
        "allow_valid_invocations": report.allow_valid_invocations,
        "summary": {grade.value: report.count(grade) for grade in Grade},
        "probes": [result_to_json(result) for result in report.results],
        "warnings": list(run.warnings),
        "exchanges": [_exchange_summary(e) for e in report.all_exchanges()],
    }
