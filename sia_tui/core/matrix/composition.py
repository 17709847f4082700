"""The composition table: for every pair of skills across vendors, may one feed the other?

Each pair is judged by ``compose.check_composition`` (RULES CMP1-CMP3) on the documents the
rows' first runs validated (RULES CP0: nothing unvalidated is compared); a row without a
validated document makes its pairs ``unavailable``, with the reason.

Pairs grow with the square of the rows (1,000 rows are a million pairs), so the table is
bounded: a verdict depends only on the upstream output and downstream input Schema
References, so it is judged once per distinct pair of them, and at most
``limits.MAX_COMPOSITION_PAIRS`` row pairs are kept, the rest counted.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sia_tui.core import limits
from sia_tui.core.interface.composition import check_composition
from sia_tui.core.matrix.grid import CompositionCell, Row

ALLOWED = "allowed"
NOT_ALLOWED = "not_allowed"
UNAVAILABLE = "unavailable"
#: Most rows a composition grid (HTML, Markdown) draws; past it the pairs are listed.
MAX_GRID_ROWS = 40


@dataclass(frozen=True)
class CompositionTable:
    """The pairs kept, and how many more pairs of rows across vendors there are."""

    pairs: list[CompositionCell]
    not_listed: int = 0


#: (status, summary, differing, look_alike): a verdict as the table keeps it.
_Verdict = tuple[str, str, tuple[str, ...], tuple[str, ...]]


def composition_table(
    rows: list[Row], limit: int = limits.MAX_COMPOSITION_PAIRS
) -> CompositionTable:
    """Ordered pairs (upstream, downstream) of rows of two different agents, in row order,
    the first ``limit`` of them judged and kept."""
    skilled = [row for row in rows if row.skill is not None]
    per_agent = Counter(row.agent for row in skilled)
    total = len(skilled) ** 2 - sum(n * n for n in per_agent.values())
    keys = {id(row): (_key(row, "output_schema"), _key(row, "input_schema")) for row in skilled}
    judged: dict[tuple[str, str], _Verdict] = {}
    pairs: list[CompositionCell] = []
    for up in skilled:
        for down in skilled:
            if len(pairs) == limit:
                return CompositionTable(pairs, total - limit)
            if up.agent != down.agent:
                pairs.append(_pair(up, down, keys, judged))
    return CompositionTable(pairs)


def _key(row: Row, member: str) -> str:
    """The Schema Reference a verdict reads, as canonical-enough text (sorted members)."""
    reference = row.document.get(member) if row.document else None
    return json.dumps(reference, sort_keys=True, ensure_ascii=False, default=str)


def _pair(
    up: Row,
    down: Row,
    keys: dict[int, tuple[str, str]],
    judged: dict[tuple[str, str], _Verdict],
) -> CompositionCell:
    missing = [
        (side, row) for side, row in (("upstream", up), ("downstream", down)) if not row.document
    ]
    if missing:
        reason = "; ".join(
            f"{side}: no validated document ({row.no_document})" for side, row in missing
        )
        return CompositionCell(up, down, UNAVAILABLE, reason)
    key = (keys[id(up)][0], keys[id(down)][1])
    if key not in judged:
        verdict = check_composition(
            up.document,
            down.document,
            upstream_task_id=up.describe_task_id,
            downstream_task_id=down.describe_task_id,
        )
        judged[key] = (
            ALLOWED if verdict.allowed else NOT_ALLOWED,
            verdict.summary(),
            tuple(verdict.differing),
            tuple(verdict.look_alike),
        )
    status, summary, differing, look_alike = judged[key]
    return CompositionCell(up, down, status, summary, differing, look_alike)
