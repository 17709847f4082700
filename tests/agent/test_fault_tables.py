"""The README and docs/REFERENCE-AGENT.md fault tables are generated from FAULT_SPECS."""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.agent.fault_tables import TABLES, readme_table, reference_table, regenerate, with_table
from sia_tui.agent.faults import FAULT_SPECS, Expected, Fault, FaultSpec, Stop
from sia_tui.core.codes import DetectedBy, ErrorCode

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("relative", list(TABLES))
def test_the_documents_fault_table_is_up_to_date(relative: str) -> None:
    text = (ROOT / relative).read_text(encoding="utf-8")
    assert regenerate(text, relative) == text, (
        f"{relative} is out of date: run `uv run python scripts/fault_tables.py`"
    )


def test_every_fault_appears_with_its_outcome() -> None:
    table = reference_table()
    for spec in FAULT_SPECS.values():
        (row,) = [line for line in table.splitlines() if line.startswith(f"| `{spec.fault}` |")]
        if spec.expected.check is None:
            assert "passes all eleven steps" in row
        else:
            assert f"step {spec.expected.check.step}," in row
    assert all(f"`{fault}`" in readme_table() for fault in Fault)


def test_a_fault_only_probe_exposes_gets_a_probe_column() -> None:
    """Later faults pass check and fail a probe: the tables say so without a new structure."""
    stale = FaultSpec(
        Fault.MISMATCH,
        "accepts a stale digest",
        "a wrong `interface_digest` is COMPLETED",
        Expected(check=None, probe_fails=("stale-digest",)),
    )
    plain = FaultSpec(
        Fault.UNAVAILABLE,
        "d",
        "s",
        Expected(Stop(3, ErrorCode.INTERFACE_UNAVAILABLE, DetectedBy.REMOTE)),
    )
    readme = readme_table([stale, plain]).splitlines()
    assert readme[0].endswith("| `sia-tui probe` |")
    assert readme[2] == "| `mismatch` | passes all eleven steps |  | 0 | fails `stale-digest` |"
    assert readme[3].endswith("| as `check` |")
    reference = reference_table([stale, plain]).splitlines()
    assert reference[2].endswith("| passes all eleven steps | fails `stale-digest` |")
    # The real table: some faults only `sia-tui probe` exposes, so it has a probe column.
    assert readme_table().splitlines()[0].endswith("| `sia-tui probe` |")
    assert "| `accepts-stale` | passes all eleven steps |  | 0 | fails `stale-digest` |" in (
        readme_table()
    )


def test_a_moved_table_is_noticed() -> None:
    with pytest.raises(ValueError, match="markers are missing"):
        with_table("# no markers here\n", "faults", "| x |")
