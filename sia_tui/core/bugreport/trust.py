"""The bug report's trust section: each card signature's verdict and the contract lock."""

from __future__ import annotations

from sia_tui.core.bugreport.blocks import Block, Cell, Facts, Section, Table, clean
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.run.read_model import Run

_TONES = {"verified": "match", "invalid": "differs", "unverifiable": None}


def trust_section(run: Run) -> Section | None:
    """Card signatures (A2A 1.0 section 8.4) and the lock, when the run has either."""
    signatures, lock = run.answers.card_signatures, run.answers.lock
    if not signatures and lock is None:
        return None
    blocks: list[Block] = []
    if signatures:
        rows = [
            [
                Cell(str(check.index)),
                Cell(clean(check.kid or "—"), code=True),
                Cell(clean(check.alg or "—")),
                Cell(check.verdict.value, tone=_TONES[check.verdict.value]),
                Cell(check.canonicalization.value if check.canonicalization else "—"),
                Cell(clean("; ".join(t for t in (check.reason, check.keys_not_tried) if t))),
            ]
            for check in signatures
        ]
        header = ["#", "kid", "alg", "verdict", "canonicalization", "why"]
        blocks.append(Table(header, rows))
    if lock is not None:
        blocks.append(
            Facts(
                [
                    ("contract lock", f"{lock.status}: {clean(lock.reason)}"),
                    ("pinned", f"{lock.pinned_version} {lock.pinned_digest}"),
                    ("now", f"{clean(lock.current_version or '—')} {lock.current_digest}"),
                ]
            )
        )
        if lock.changes:
            rows = [
                [Cell(c.impact), Cell(display(c.pointer), code=True), Cell(clean(c.reason))]
                for c in lock.changes
            ]
            blocks.append(Table(["impact", "where", "why"], rows))
    return Section("Trust anchors: card signatures and contract lock", blocks)
