"""Regenerate the screen/key table in docs/TUI.md from ``sia_tui.tui.modes.MODE_SPECS``.

Run ``uv run python scripts/mode_table.py`` after adding or changing a screen;
tests/tui/test_modes.py fails until docs/TUI.md is up to date.
"""

from __future__ import annotations

from pathlib import Path

from sia_tui.tui.modes import regenerate_docs

DOC = Path(__file__).resolve().parent.parent / "docs" / "TUI.md"


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    updated = regenerate_docs(text)
    if updated != text:
        DOC.write_text(updated, encoding="utf-8")
        print("updated docs/TUI.md")


if __name__ == "__main__":
    main()
