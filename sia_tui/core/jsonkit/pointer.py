"""RFC 6901 JSON Pointers and a pointer -> (line, column) index of a JSON text (RULES FMT2)."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from sia_tui.core.errors import ROOT_POINTER
from sia_tui.core.limits import MAX_JSON_DEPTH

Segment = str | int

_WHITESPACE = re.compile(r"[ \t\r\n]*")
#: The C decoder's value scanner: (value, end) for the value starting at an index.
_SCAN_VALUE: Any = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_SCAN_STRING: Any = json.decoder.scanstring  # type: ignore[attr-defined]

# One token of JSON text: a string, a structural character, or a bare word (number,
# literal, or garbage). Strings use the unrolled-loop form so long strings stay linear.
_TOKEN = re.compile(
    r'[ \t\r\n]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([{}\[\],:])|([^ \t\r\n{}\[\],:"]+))', re.DOTALL
)


def escape(segment: Segment) -> str:
    """Escape one reference token: ``~`` -> ``~0``, ``/`` -> ``~1`` (RFC 6901 section 3)."""
    return str(segment).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """Reverse :func:`escape` (``~1`` first would be wrong: RFC 6901 section 4)."""
    return token.replace("~1", "/").replace("~0", "~")


def join(segments: Iterable[Segment]) -> str:
    """The pointer for a path of keys and indexes; the empty path is ``""`` (the root)."""
    return "".join("/" + escape(s) for s in segments)


#: How the root pointer ``""`` is shown: ``/`` would be the member named "" (RFC 6901).
ROOT_DISPLAY = ROOT_POINTER


def display(pointer: str) -> str:
    """A pointer for people: unchanged, except the root ``""``, which must never read ``/``."""
    return pointer if pointer else ROOT_DISPLAY


#: The name the engine API exports (``display`` alone says little outside this module).
display_pointer = display


def split(pointer: str) -> list[str]:
    """The unescaped reference tokens of ``pointer``; raises ValueError when malformed."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON Pointer must be empty or start with '/': {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def resolve(document: Any, pointer: str) -> Any:
    """The value ``pointer`` designates in ``document``; raises KeyError when absent."""
    node = document
    for token in split(pointer):
        if isinstance(node, dict):
            if token not in node:
                raise KeyError(pointer)
            node = node[token]
        elif isinstance(node, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(node):
                raise KeyError(pointer)
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node


class Token(NamedTuple):
    """One event of the tokenizer: a value start, a member name, or a bare word."""

    kind: str  # "value" | "key" | "close"
    offset: int
    path: tuple[Segment, ...]
    #: The bare word for numbers and literals ("12", "true", "NaN"), else "".
    word: str = ""


def walk(text: str) -> Iterator[Token]:
    """Tokenize ``text`` without recursion, yielding where each value and key starts.

    Tolerant: it stops quietly at the first character it cannot tokenize, so it can
    locate problems in text that the real parser rejected. It stops too where a container
    opens deeper than ``limits.MAX_JSON_DEPTH``: every token carries its whole path, so an
    unbounded depth made a walk quadratic (an agent's 16,000 open brackets: 4 s), and no
    text that deep is parsed here, so it has no positions worth finding.
    """
    # Each frame is [segment, expecting_key]; the segment is the index or member name.
    stack: list[list[Any]] = []
    kinds: list[str] = []
    pos = 0
    while True:
        match = _TOKEN.match(text, pos)
        if match is None:
            return
        pos = match.end()
        string, punct, word = match.groups()
        start = match.start(match.lastindex or 0)
        path = tuple(frame[0] for frame in stack)
        if punct is not None:
            if punct in "{[":
                if len(stack) >= MAX_JSON_DEPTH:
                    return
                yield Token("value", start, path)
                stack.append([0 if punct == "[" else None, punct == "{"])
                kinds.append(punct)
            elif punct in "}]":
                if stack:
                    stack.pop()
                    kinds.pop()
                yield Token("close", start, path[:-1])
            elif punct == "," and stack:
                if kinds[-1] == "[":
                    stack[-1][0] += 1
                else:
                    stack[-1][1] = True
            continue
        if string is not None and stack and kinds[-1] == "{" and stack[-1][1]:
            try:
                key = json.loads(string)
            except ValueError:
                return
            stack[-1][0] = key
            stack[-1][1] = False
            yield Token("key", start, (*path[:-1], key))
            continue
        yield Token("value", start, path, word or "")


#: Between strings and brackets: whitespace, commas, colons and bare words, where only the
#: commas move a pointer (the next index, or a member name next).
_PLAIN = re.compile(r'[^"{}\[\]]*')
#: A whole string, as :data:`_TOKEN` reads one (its escapes unchecked).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def container_pointer_at(text: str, offset: int) -> str:
    """Pointer of the innermost container open at ``offset`` (``""`` at top level).

    What :func:`walk` would say (the last container opened and not closed before
    ``offset``, tolerant as it is), read without a token per value: the commas between two
    strings or brackets are counted in C. A cut 1 MB array of numbers once took 1.5 s here.
    """
    # Each open container: [its index or member name now, expecting a member name, array?].
    # Only the innermost container's index moves, so the open ones' indexes are the path to
    # the innermost (no path kept per container: that was quadratic in the nesting).
    frames: list[list[Any]] = []
    pos = 0
    end = min(offset, len(text))
    while True:
        plain = _PLAIN.match(text, pos).end()  # type: ignore[union-attr]  # matches ""
        if frames and (commas := text.count(",", pos, min(plain, end))):
            if frames[-1][2]:
                frames[-1][0] += commas
            else:
                frames[-1][1] = True
        pos = plain
        if pos >= end:
            break
        char = text[pos]
        if char == '"':
            string = _STRING.match(text, pos)
            if string is None:
                break  # an unterminated string: walk stops here
            top = frames[-1] if frames else None
            if top is not None and not top[2] and top[1]:
                try:
                    top[0] = json.loads(string.group())
                except ValueError:
                    break
                top[1] = False
            pos = string.end()
        elif char in "{[":
            frames.append([0 if char == "[" else None, char == "{", char == "["])
            pos += 1
        else:  # "}" or "]"
            if frames:
                frames.pop()
            pos += 1
    return join(tuple(frame[0] for frame in frames[:-1]))


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset; columns count code points."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


class PositionIndex:
    """Where each value (and member name) of a JSON text starts, by JSON Pointer.

    Built with one tokenizer pass, so the TUI can underline the value a finding
    points at. Lookups fall back to the nearest ancestor that exists in the text.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._values: dict[str, int] = {}
        self._keys: dict[str, int] = {}
        for token in walk(text):
            if token.kind == "value":
                self._values.setdefault(join(token.path), token.offset)
            elif token.kind == "key":
                self._keys.setdefault(join(token.path), token.offset)
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def offset(self, pointer: str, *, key: bool = False, fallback: bool = True) -> int | None:
        """Character offset of the value (or of its member name when ``key``)."""
        table = self._keys if key else self._values
        if pointer in table:
            return table[pointer]
        if not fallback:
            return None
        while pointer:
            pointer = pointer.rpartition("/")[0]
            if pointer in self._values:
                return self._values[pointer]
        return self._values.get("")

    def position(
        self, pointer: str, *, key: bool = False, fallback: bool = True
    ) -> tuple[int, int] | None:
        """1-based (line, column) of the value at ``pointer``, or None."""
        offset = self.offset(pointer, key=key, fallback=fallback)
        if offset is None:
            return None
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


def locate_values(text: str, pointers: Iterable[str]) -> dict[str, tuple[int, int]]:
    """1-based (line, column) where the value at each pointer starts in ``text``, or (as
    ``PositionIndex.position``) where its nearest ancestor in the text starts.

    Only the containers on the way to the pointers are walked in Python; every other value
    is skipped by the C decoder, so locating a few findings in a 100 KB document costs
    about one ``json.loads`` instead of a tokenizer pass over all of it (this sets the
    editor's keystroke-to-error time), and the walk stops once every pointer is found:
    errors before a 1 MB member cost nothing to locate. Text the C decoder rejects goes
    to ``PositionIndex``.
    """
    wanted = set(pointers)
    tree: dict[str, Any] = {}
    paths: set[tuple[str, ...]] = set()
    for pointer in wanted:
        try:
            tokens = split(pointer)
        except ValueError:
            continue
        paths.add(tuple(tokens))
        node = tree
        for token in tokens:
            node = node.setdefault(token, {})
    starts: dict[tuple[str, ...], int] = {}
    try:
        _walk_towards(text, _skip_space(text, 0), (), tree, _Starts(starts, paths))
    except _AllFound:
        pass
    except (ValueError, IndexError, StopIteration, RecursionError):
        index = PositionIndex(text)
        return {p: where for p in wanted if (where := index.position(p)) is not None}
    offsets: dict[str, int] = {}
    for pointer in wanted:
        try:
            path = tuple(split(pointer))
        except ValueError:
            path = ()
        while path not in starts and path:
            path = path[:-1]
        if path in starts:
            offsets[pointer] = starts[path]
    return _line_columns(text, offsets)


class _AllFound(Exception):
    """Every wanted value has been found: the rest of the text need not be scanned."""


class _Starts:
    """Where the values on the way start, and the wanted paths still to find."""

    def __init__(self, found: dict[tuple[str, ...], int], wanted: set[tuple[str, ...]]) -> None:
        self.found = found
        self.missing = set(wanted)

    def record(self, path: tuple[str, ...], pos: int) -> None:
        """Keep the first start of ``path``; raise ``_AllFound`` once none is missing."""
        self.found.setdefault(path, pos)
        self.missing.discard(path)
        if not self.missing:
            raise _AllFound


def _walk_towards(
    text: str,
    pos: int,
    path: tuple[str, ...],
    tree: dict[str, Any],
    starts: _Starts,
) -> int:
    """Record where the value at ``pos`` (and those under it that ``tree`` names) start;
    return where it ends. Values off the tree are skipped by the C scanner."""
    starts.record(path, pos)
    opener = text[pos]
    if not tree or opener not in "{[":
        return _SCAN_VALUE(text, pos)[1]  # type: ignore[no-any-return]
    closer = "}" if opener == "{" else "]"
    pos = _skip_space(text, pos + 1)
    index = 0
    while text[pos] != closer:
        if opener == "{":
            if text[pos] != '"':
                raise ValueError("a member name expected")
            key, pos = _SCAN_STRING(text, pos + 1)
            pos = _skip_space(text, pos)
            if text[pos] != ":":
                raise ValueError("':' expected")
            pos = _skip_space(text, pos + 1)
        else:
            key, index = str(index), index + 1
        if key in tree:
            pos = _walk_towards(text, pos, (*path, key), tree[key], starts)
        else:
            pos = _SCAN_VALUE(text, pos)[1]
        pos = _skip_space(text, pos)
        if text[pos] == ",":
            pos = _skip_space(text, pos + 1)
        elif text[pos] != closer:
            raise ValueError("',' expected")
    return pos + 1


def _skip_space(text: str, pos: int) -> int:
    """The first index at or after ``pos`` that is not JSON whitespace."""
    match = _WHITESPACE.match(text, pos)
    return pos if match is None else match.end()


def _line_columns(text: str, offsets: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Each offset as a 1-based (line, column), counting newlines once for all of them."""
    located: dict[str, tuple[int, int]] = {}
    line, counted = 1, 0
    for pointer, offset in sorted(offsets.items(), key=lambda item: item[1]):
        line += text.count("\n", counted, offset)
        counted = offset
        line_start = text.rfind("\n", 0, offset) + 1
        located[pointer] = (line, offset - line_start + 1)
    return located
