"""What a bug report says about a session, independent of Markdown or HTML."""

from __future__ import annotations

import contextlib
import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from sia_tui.core.engine.model import StepResult
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.redact import mask_headers
from sia_tui.core.session.format import LoadedSession

#: Longest body a report quotes; the session file holds the rest.
MAX_QUOTED_BODY = 16 * 1024
#: Headers the HTTP library adds by itself: noise in a minimal reproduction.
_TRANSPORT_HEADERS = frozenset(
    {"host", "accept", "accept-encoding", "connection", "user-agent", "content-length"}
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")


def clean(text: str) -> str:
    """Agent text without terminal control characters (tabs and newlines kept)."""
    return _CONTROL.sub("\N{REPLACEMENT CHARACTER}", text)


@dataclass(frozen=True)
class DigestRow:
    """One line of the digest table."""

    source: str
    value: str | None
    matches_advertised: bool | None


@dataclass(frozen=True)
class ReproRequest:
    """The smallest recorded request that reproduces the failure."""

    method: str
    url: str
    headers: list[tuple[str, str]]
    body: str


@dataclass
class ReportFacts:
    """Everything a report shows, already redacted (the session was) and cleaned."""

    summary: str
    environment: list[tuple[str, str]]
    steps: list[StepResult]
    failed: StepResult | None
    digests: list[DigestRow]
    findings: list[tuple[int, Finding]]
    repro: ReproRequest | None
    rerun_command: str
    warnings: list[str] = field(default_factory=list)


def _body_text(data: bytes) -> str:
    text = data[:MAX_QUOTED_BODY].decode("utf-8", errors="replace")
    with contextlib.suppress(ValueError, RecursionError):  # not JSON (or cut): quote as is
        text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    suffix = "\n… (cut; the session file has the full body)" if len(data) > MAX_QUOTED_BODY else ""
    return clean(text) + suffix


def _repro(session: LoadedSession) -> ReproRequest | None:
    """The invoke request when one was sent, else the failing step's last request."""
    run = session.run
    by_seq = {ex.seq: ex for ex in run.exchanges}
    chosen: Exchange | None = next(
        (ex for ex in reversed(run.exchanges) if ex.purpose.lower().startswith("invoke")), None
    )
    failed = run.failed_step
    if chosen is None and failed is not None and failed.exchanges:
        chosen = by_seq.get(failed.exchanges[-1])
    if chosen is None and run.exchanges:
        chosen = run.exchanges[-1]
    if chosen is None:
        return None
    return ReproRequest(
        clean(chosen.method),
        clean(chosen.url),
        [
            (clean(k), clean(v))
            for k, v in mask_headers(chosen.request_headers)
            if k.lower() not in _TRANSPORT_HEADERS
        ],
        _body_text(chosen.request_body),
    )


def rerun_command(session: LoadedSession, filename: str) -> str:
    """The command that re-runs the session; redacted credentials become shell variables."""
    parts = ["sia-tui", "rerun", shlex.quote(filename)]
    names = {hit.name for hit in session.redactions}
    if "authorization" in names:
        parts += ["--bearer", '"$TOKEN"']
    headers = session.options.get("headers", []) or []
    for pair in headers:
        header = pair[0] if isinstance(pair, list) and pair else None
        if isinstance(header, str) and header.lower() in names - {"authorization"}:
            safe = re.sub(r"[^A-Za-z0-9-]", "", header)
            parts += ["--header", f'"{safe}: $SECRET_{safe.upper().replace("-", "_")}"']
    return " ".join(parts)


def gather(session: LoadedSession, filename: str) -> ReportFacts:
    """Collect the report facts of ``session`` (saved as ``filename``)."""
    run = session.run
    failed = run.failed_step
    skill = run.skill_id or run.target.skill_id or "(no skill)"
    if failed:
        code = f" ({failed.code}, {failed.origin or 'local'})" if failed.code else ""
        summary = (
            f"{skill} at {run.target.location}: FAILED at step {failed.step} "
            f"\N{EM DASH} {failed.title}{code}: {failed.message}"
        )
    else:
        ran = sum(1 for s in run.steps if s.status.value == "passed")
        summary = f"{skill} at {run.target.location}: passed ({ran} of 11 steps passed)"
    env = [("sia-tui", str(session.tool.get("version", "?"))), ("saved", session.created)]
    env += [(k, str(v)) for k, v in session.environment.items() if k != "dependencies"]
    deps: Any = session.environment.get("dependencies", {})
    if isinstance(deps, dict):
        env += [(str(k), str(v)) for k, v in deps.items()]
    d = run.digests
    digests = [
        DigestRow("advertised (Agent Card)", d.advertised, None),
        DigestRow(
            "returned (describe_skill)",
            d.returned,
            None if d.returned is None or d.advertised is None else d.returned == d.advertised,
        ),
        DigestRow(
            "computed (JCS + SHA-256)",
            d.computed,
            None if d.computed is None or d.advertised is None else d.computed == d.advertised,
        ),
    ]
    findings = [(s.step, f) for s in run.steps for f in s.findings]
    findings += [(0, f) for r in run.records for f in r.findings]
    return ReportFacts(
        summary=clean(summary),
        environment=[(clean(k), clean(v)) for k, v in env],
        steps=run.steps,
        failed=failed,
        digests=digests,
        findings=findings,
        repro=_repro(session),
        rerun_command=rerun_command(session, filename),
        warnings=[clean(w) for w in [*session.warnings, *run.warnings]],
    )


def evidence_text(step: StepResult) -> str:
    """A step's evidence as indented JSON."""
    return clean(json.dumps(step.evidence, indent=2, ensure_ascii=False, default=str))
