"""The composition table: for every pair of skills across vendors, may one feed the other?

Each pair is judged by ``compose.check_composition`` (RULES CMP1-CMP3) on the documents the
rows' first runs validated (RULES CP0: nothing unvalidated is compared); a row without a
validated document makes its pairs ``unavailable``, with the reason.
"""

from __future__ import annotations

from sia_tui.core.interface.composition import check_composition
from sia_tui.core.matrix.model import CompositionCell, Row

ALLOWED = "allowed"
NOT_ALLOWED = "not_allowed"
UNAVAILABLE = "unavailable"


def composition_table(rows: list[Row]) -> list[CompositionCell]:
    """Every ordered pair (upstream, downstream) of rows of two different agents."""
    skilled = [row for row in rows if row.skill is not None]
    return [_pair(up, down) for up in skilled for down in skilled if up.agent != down.agent]


def _pair(up: Row, down: Row) -> CompositionCell:
    missing = [
        (side, row) for side, row in (("upstream", up), ("downstream", down)) if not row.document
    ]
    if missing:
        reason = "; ".join(
            f"{side}: no validated document ({row.no_document})" for side, row in missing
        )
        return CompositionCell(up, down, UNAVAILABLE, reason)
    verdict = check_composition(
        up.document,
        down.document,
        upstream_task_id=up.describe_task_id,
        downstream_task_id=down.describe_task_id,
    )
    return CompositionCell(
        up,
        down,
        ALLOWED if verdict.allowed else NOT_ALLOWED,
        verdict.summary(),
        differing=tuple(verdict.differing),
        look_alike=tuple(verdict.look_alike),
    )
