"""Typed reads from a parsed TOML table that collect located problems instead of raising.

A plugfest file is checked whole: every problem is reported at once, each with the key
(``[[agent]] #2, bearer_env``) and the line where it is written, and nothing raises half-way.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sia_tui.core.matrix.toml_lines import KeyPath, line_of
from sia_tui.core.output.policy import printable


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the file: what, under which key, on which line."""

    message: str
    key: str = ""
    line: int | None = None

    def render(self, source: str) -> str:
        """``PLUGFEST.toml:12: [[agent]] #2, bearer_env: ...``."""
        where = f"{source}:{self.line}" if self.line else source
        key = f" {self.key}:" if self.key else ""
        return f"{where}:{key} {self.message}"


def key_label(path: KeyPath) -> str:
    """``("agent", 1, "card")`` -> ``[[agent]] #2, card`` (people count from 1)."""
    out: list[str] = []
    for index, part in enumerate(path):
        if isinstance(part, int):
            out[-1] = f"[[{out[-1]}]] #{part + 1}"
        elif index and not isinstance(path[index - 1], int):
            out[-1] = f"{out[-1]}.{printable(part)}"
        else:
            out.append(printable(part))
    return ", ".join(out)


class TableReader:
    """Reads members of one table; wrong or missing values become :class:`Problem` s."""

    def __init__(self, lines: dict[KeyPath, int], problems: list[Problem]) -> None:
        self.lines = lines
        self.problems = problems

    def problem(self, path: KeyPath, message: str) -> None:
        """Record ``message`` about the key at ``path``."""
        self.problems.append(Problem(message, key_label(path), line_of(self.lines, path)))

    def known_keys(self, table: dict[str, Any], path: KeyPath, allowed: Collection[str]) -> None:
        """Every key of ``table`` is one of ``allowed`` (a typo is named, with a guess)."""
        for key in table:
            if key not in allowed:
                guess = difflib.get_close_matches(key, list(allowed), n=1)
                hint = f"; did you mean {guess[0]!r}?" if guess else ""
                known = ", ".join(sorted(allowed))
                self.problem((*path, key), f"unknown key{hint} (known: {known})")

    def string(
        self, table: dict[str, Any], path: KeyPath, key: str, *, required: bool = False
    ) -> str | None:
        """A non-empty string, or None (missing, or wrong: then a problem is recorded)."""
        if key not in table:
            if required:
                self.problem(path, f"{key!r} is required")
            return None
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            self.problem((*path, key), f"must be a non-empty string, not {_shown(value)}")
            return None
        return value

    def boolean(self, table: dict[str, Any], path: KeyPath, key: str, default: bool) -> bool:
        """``true``/``false``, else the default (and a problem)."""
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.problem((*path, key), f"must be true or false, not {_shown(value)}")
            return default
        return value

    def number(
        self,
        table: dict[str, Any],
        path: KeyPath,
        key: str,
        default: float,
        *,
        low: float,
        high: float,
        integer: bool = False,
    ) -> float:
        """A number in [low, high] (an integer when asked), else the default and a problem."""
        value = table.get(key, default)
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if ok and integer and not isinstance(value, int):
            ok = False
        if not ok or not math.isfinite(value) or not low <= value <= high:
            kind = "an integer" if integer else "a number"
            self.problem((*path, key), f"must be {kind} from {low:g} to {high:g}, not {value!r}")
            return default
        return float(value)

    def strings(self, table: dict[str, Any], path: KeyPath, key: str) -> list[str] | None:
        """A list of distinct non-empty strings, or None when absent (or wrong)."""
        if key not in table:
            return None
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.problem((*path, key), f"must be a list of non-empty strings, not {_shown(value)}")
            return None
        repeated = sorted({v for v in value if value.count(v) > 1})
        if repeated:
            self.problem((*path, key), f"lists {', '.join(map(repr, repeated))} twice")
        return list(dict.fromkeys(value))

    def table(self, table: dict[str, Any], path: KeyPath, key: str) -> dict[str, Any]:
        """A sub-table (``{}`` when absent or wrong)."""
        value = table.get(key, {})
        if not isinstance(value, dict):
            self.problem((*path, key), f"must be a table, not {_shown(value)}")
            return {}
        return value

    def tables(self, table: dict[str, Any], key: str) -> list[dict[str, Any]]:
        """An array of tables (``[[key]]``); anything else is a problem."""
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem((key,), f"must be written as [[{key}]] tables, not {_shown(value)}")
            return []
        return value


def _shown(value: Any) -> str:
    """A short, printable rendering of a wrong value for a message."""
    text = printable(repr(value))
    return text if len(text) <= 60 else text[:57] + "..."
