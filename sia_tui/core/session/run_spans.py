"""A run as OpenTelemetry spans: the one model of what ``report --format otlp`` writes
(``report_otlp.py``, OTLP/JSON) and what ``--otlp-endpoint`` exports (``otlp_export.py``,
through the OpenTelemetry SDK). Both encode these spans; neither builds its own.

Per invocation a root span, a span per step of the procedure under it, and a client span
per exchange under the step that made it. An exchange's span id is the one its
``traceparent`` carried, so the agent's own spans (whose parent it is) join the same trace.
Step verdicts and the draft's error codes are attributes. The spans are built from a
session as saved, so every secret is redacted exactly as in the session file; no body is
exported. A run that sent no trace headers (``--no-trace``, an older session) gets ids
derived from the session, stable from one export to the next.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from sia_tui import __version__
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.exchange import Exchange
from sia_tui.core.run.read_model import Invocation, Run, StepResult, StepStatus
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import pick_invocations
from sia_tui.core.session.store import as_saved

#: An attribute's value (OTLP's string, int and bool values).
Value = str | int | bool
Attributes = tuple[tuple[str, Value], ...]
SpanKind = Literal["internal", "client"]
SpanStatus = Literal["unset", "ok", "error"]
#: The instrumentation scope's name.
SCOPE = "sia-tui"


@dataclass(frozen=True)
class RunSpan:
    """One span: ids as lowercase hex (trace 32 digits, span 16), times in Unix nanoseconds."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    kind: SpanKind
    start_ns: int
    end_ns: int
    attributes: Attributes
    status: SpanStatus = "unset"
    #: Said only with an ``error`` status (OTLP keeps a message for errors alone).
    status_message: str | None = None


@dataclass(frozen=True)
class RunTrace:
    """What is exported: the resource (sia-tui), the scope, and every span."""

    resource: Attributes
    scope_version: str
    spans: tuple[RunSpan, ...]


def _derived(*parts: str, size: int) -> str:
    """A stable id (``size`` bytes, hex) for a span the run sent no header for."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    return digest[: size * 2] if digest[: size * 2].strip("0") else "1".rjust(size * 2, "0")


def _attributes(pairs: Iterable[tuple[str, Value | None]]) -> Attributes:
    return tuple((key, value) for key, value in pairs if value is not None)


def _nanos(seconds: float) -> int:
    return max(0, round(seconds * 1e9))


def _exchange_span(ex: Exchange, trace_id: str, parent: str) -> RunSpan:
    start = _nanos(ex.started_at)
    grpc = ex.grpc
    pairs: list[tuple[str, Value | None]] = [
        ("sia.exchange.seq", ex.seq),
        ("sia.exchange.purpose", ex.purpose),
        ("url.full", ex.url),
        ("http.request.method", None if grpc else ex.method),
        ("rpc.system", "grpc" if grpc else None),
        ("rpc.method", ex.url.rsplit("/", 1)[-1] if grpc else None),
        ("rpc.grpc.status_code", ex.status if grpc else None),
        ("http.response.status_code", None if grpc else ex.status),
        ("error.type", ex.error_kind),
        ("sia.exchange.truncated", True if ex.truncated else None),
    ]
    failed = ex.error is not None or ex.status is None or (ex.http_status or 0) >= 400
    return RunSpan(
        trace_id=trace_id,
        span_id=ex.span_id or _derived(trace_id, "exchange", str(ex.seq), size=8),
        parent_id=parent,
        name=f"{ex.method} {ex.purpose}",
        kind="client",
        start_ns=start,
        end_ns=start + max(0, round(ex.elapsed_ms * 1e6)),
        attributes=_attributes(pairs),
        status="error" if failed else "unset",
        status_message=ex.error,
    )


def _step_status(step: StepResult) -> tuple[SpanStatus, str | None]:
    if step.status is StepStatus.FAILED:
        return "error", step.message
    return ("ok" if step.status is StepStatus.PASSED else "unset"), None


def _spans(invocation: Invocation, trace_id: str) -> list[RunSpan]:
    """The invocation's root span, its steps' spans and its exchanges' spans."""
    run = invocation.run
    label = str(invocation.number)
    root = _derived(trace_id, "invocation", label, size=8)
    by_seq = {ex.seq: ex for ex in run.exchanges}
    placed: set[int] = set()
    spans: list[RunSpan] = []
    step_spans: list[RunSpan] = []
    clock = min((ex.started_at for ex in run.exchanges), default=0.0)
    for step in run.steps:
        span_id = _derived(trace_id, "invocation", label, "step", str(step.step), size=8)
        own = [by_seq[seq] for seq in step.exchanges if seq in by_seq and seq not in placed]
        placed.update(ex.seq for ex in own)
        children = [_exchange_span(ex, trace_id, span_id) for ex in own]
        start = min((c.start_ns for c in children), default=_nanos(clock))
        end = max((c.end_ns for c in children), default=start)
        pairs: list[tuple[str, Value | None]] = [
            ("sia.step.number", step.step),
            ("sia.step.rule", step.rule),
            ("sia.step.status", step.status.value),
            ("sia.error.code", str(step.code) if step.code else None),
            ("sia.error.detected_by", str(step.origin) if step.origin else None),
            ("sia.error.category", str(step.category) if step.category else None),
            ("error.type", step.error_kind),
        ]
        status, message = _step_status(step)
        step_spans.append(
            RunSpan(
                trace_id=trace_id,
                span_id=span_id,
                parent_id=root,
                name=f"step {step.step}: {step.title}",
                kind="internal",
                start_ns=start,
                end_ns=end,
                attributes=_attributes(pairs),
                status=status,
                status_message=message,
            )
        )
        spans += children
        clock = end / 1e9
    # Exchanges no step lists (a console message, a probe's) hang from the root.
    spans += [_exchange_span(ex, trace_id, root) for ex in run.exchanges if ex.seq not in placed]
    everything = [*step_spans, *spans]
    start = min((s.start_ns for s in everything), default=0)
    end = max((s.end_ns for s in everything), default=start)
    failed = run.failed_step
    blame = run.verdict.at_fault
    pairs = [
        ("sia.invocation", invocation.number),
        ("sia.outcome", run.verdict.outcome.value),
        ("sia.summary", run.verdict.summary),
        ("sia.skill.id", run.skill_id or run.target.skill_id),
        ("sia.target", run.target.location),
        ("sia.binding", run.interface.binding if run.interface else None),
        ("sia.mode", run.mode),
        ("sia.failed_step", failed.step if failed else None),
        ("sia.error.code", str(failed.code) if failed and failed.code else None),
        ("sia.at_fault", blame.party.value if blame else None),
        ("sia.task.id", run.task.id if run.task else None),
    ]
    outcome: SpanStatus = "unset" if not run.verdict.finished else "error" if failed else "ok"
    root_span = RunSpan(
        trace_id=trace_id,
        span_id=root,
        parent_id=None,
        name=f"sia-tui {run.skill_id or '(no skill)'} ({invocation.label})",
        kind="internal",
        start_ns=start,
        end_ns=end,
        attributes=_attributes(pairs),
        status=outcome,
        status_message=run.verdict.headline if outcome == "error" else None,
    )
    return [root_span, *everything]


def trace_of_session(session: LoadedSession, number: int | None = None) -> RunTrace:
    """The spans of a session as saved (redacted): every invocation, or invocation
    ``number``."""
    spans: list[RunSpan] = []
    for invocation in pick_invocations(session.run, number):
        run = invocation.run
        trace_id = run.trace_id or _derived(
            session.created, run.target.location, str(invocation.number), size=16
        )
        spans += _spans(invocation, trace_id)
    resource = _attributes(
        [
            ("service.name", "sia-tui"),
            ("service.version", str(session.tool.get("version", __version__))),
            ("sia.session.format", session.format),
        ]
    )
    return RunTrace(resource, __version__, tuple(spans))


def trace_of_run(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> RunTrace:
    """The spans of a live run, redacted by the very path that saves it as a session."""
    return trace_of_session(as_saved(run, options, secret_values, secret_headers))
