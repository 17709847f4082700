"""Where each key of a TOML file is written, so a problem can name its line.

``tomllib`` gives values without positions. This scanner reads the same text line by line
and records the line of every table header and every ``key =`` it sees, under the path
``tomllib`` gives the value (arrays of tables are indexed: ``("agent", 1, "card")``).
It is a locator, not a parser: it runs only on text ``tomllib`` accepted, and an unusual
layout it does not follow only loses a line number, never a problem.
"""

from __future__ import annotations

import re

#: A path into the parsed document: table names, member names and array-of-table indexes.
KeyPath = tuple[str | int, ...]

# Possessive throughout (``*+``, ``++``): a line of the file is read once, never again from
# each of its characters (``[[a`` and a megabyte of spaces took quadratic time). A header's
# name keeps its spaces; ``_parts`` reads only its keys.
_ARRAY_HEADER = re.compile(r"\s*+\[\[(?P<name>[^\]]++)\]\]")
_TABLE_HEADER = re.compile(r"\s*+\[(?P<name>[^\[\]]++)\]")
#: One key: bare, "basic" or 'literal'.
_KEY = r"""(?:[A-Za-z0-9_-]++|"[^"]*+"|'[^']*+')"""
_ASSIGNMENT = re.compile(rf"\s*+(?P<key>{_KEY}(?:\s*+\.\s*+{_KEY})*+)\s*+=")
_KEY_PART = re.compile(r"""[A-Za-z0-9_-]+|"(?P<basic>[^"]*)"|'(?P<literal>[^']*)'""")
_INLINE_MEMBER = re.compile(rf"[{{,]\s*+(?P<key>{_KEY})\s*+=")


def _parts(dotted: str) -> list[str]:
    parts = []
    for match in _KEY_PART.finditer(dotted):
        if match.group("basic") is not None:
            parts.append(match.group("basic"))
        elif match.group("literal") is not None:
            parts.append(match.group("literal"))
        else:
            parts.append(match.group(0))
    return parts


def key_lines(text: str) -> dict[KeyPath, int]:
    """Path -> 1-based line of the header or assignment that defines it."""
    lines: dict[KeyPath, int] = {}
    counts: dict[tuple[str, ...], int] = {}
    table: KeyPath = ()
    in_multiline: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_multiline is not None:
            if line.count(in_multiline) % 2 == 1:
                in_multiline = None
            continue
        if match := _ARRAY_HEADER.match(line):
            name = tuple(_parts(match.group("name")))
            index = counts.get(name, 0)
            counts[name] = index + 1
            table = (*name, index)
            lines.setdefault(table, number)
            lines.setdefault(tuple(name), number)
        elif match := _TABLE_HEADER.match(line):
            table = tuple(_parts(match.group("name")))
            lines.setdefault(table, number)
        elif match := _ASSIGNMENT.match(line):
            path = (*table, *_parts(match.group("key")))
            lines.setdefault(path, number)
            rest = line[match.end() :]
            for member in _INLINE_MEMBER.finditer(rest):
                lines.setdefault((*path, *_parts(member.group("key"))), number)
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_multiline = quote
    return lines


def line_of(lines: dict[KeyPath, int], path: KeyPath) -> int | None:
    """The line of ``path``, else of its nearest enclosing key that was found."""
    for end in range(len(path), 0, -1):
        found = lines.get(path[:end])
        if found is not None:
            return found
    return None
