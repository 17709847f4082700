"""The shape of a TOML text, checked before ``tomllib`` reads it: nesting and key length.

``tomllib`` is pure Python. It recurses once per nested array or inline table, so a few
thousand levels raise RecursionError, and a dotted key or table header costs time
quadratic in its parts (a 200 KB header took 36 s). A plugfest file nests two or three
levels, so anything past ``limits.MAX_TOML_DEPTH`` is refused here, located, in one pass
over the text that skips strings and comments.
"""

from __future__ import annotations

import re

from sia_tui.core.limits import MAX_TOML_DEPTH, MAX_TOML_KEY_PARTS

#: What the scan looks at: strings and comments (skipped whole, so a bracket or a dot in
#: them counts for nothing), brackets, braces and the characters that end a key. A string
#: left open runs to the end of its line (or of the text): each is scanned once, never
#: again from every quote inside it (``"\\"\\"\\"...`` would cost quadratic time).
_TOKEN = re.compile(
    r'"""(?:[^\\]|\\.)*?(?:"{3,5}|\Z)'  # multi-line basic string (two quotes may end it)
    r"|'''.*?(?:'{3,5}|\Z)"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*(?:"|(?=\n)|\Z)'  # basic string
    r"|'[^'\n]*(?:'|(?=\n)|\Z)"  # literal string
    r"|#[^\n]*"  # comment
    r"|[\[\]{}.=,\n]",
    re.DOTALL,
)


def shape_problem(text: str) -> tuple[str, int] | None:
    """Why ``text`` nests too deep or has too long a key, and on which line; None if not.

    A dot outside strings belongs to a key (``a.b.c =``, ``[a.b.c]``) or to a number
    (``1.5``, one dot at most), so counting dots since the last ``=``, ``,``, bracket or
    line end bounds every key path without parsing. Text ``tomllib`` would refuse anyway
    may be refused here first, with this reason instead of its own.
    """
    depth = dots = 0
    for match in _TOKEN.finditer(text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            dots = 0
            if depth > MAX_TOML_DEPTH:
                return (
                    f"nested deeper than {MAX_TOML_DEPTH} arrays or tables",
                    _line(text, match.start()),
                )
        elif char in "]}=,\n":
            depth -= char in "]}" and depth > 0
            dots = 0
        elif char == ".":
            dots += 1
            if dots >= MAX_TOML_KEY_PARTS:
                return (
                    f"a key or table name of more than {MAX_TOML_KEY_PARTS} dotted parts",
                    _line(text, match.start()),
                )
    return None


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
