"""Regenerate the fault tables in README.md and docs/REFERENCE-AGENT.md from FAULT_SPECS.

Run ``uv run python scripts/fault_tables.py`` after adding or changing a fault;
tests/agent/test_fault_tables.py fails until the documents are up to date.
"""

from __future__ import annotations

from pathlib import Path

from sia_tui.agent.fault_tables import TABLES, regenerate

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    for relative in TABLES:
        path = ROOT / relative
        text = path.read_text(encoding="utf-8")
        updated = regenerate(text, relative)
        if updated != text:
            path.write_text(updated, encoding="utf-8")
            print(f"updated {relative}")


if __name__ == "__main__":
    main()
