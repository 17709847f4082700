"""Strict JSON loader for untrusted text: duplicates, NaN, lone surrogates, depth, size."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sia_tui.core import limits
from sia_tui.core.errors import JsonInputError
from sia_tui.core.pointer import Segment, container_pointer_at, join, line_column, walk

_SURROGATE = re.compile("[\ud800-\udfff]")
# A \uD800-\uDFFF escape somewhere (possibly a valid pair; checked after parsing).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# A string token is matched possessively and may run to the end of the text when it is
# unterminated: otherwise every later quote restarts a failing scan (quadratic time on
# hostile input such as an endless run of \").
_BRACKETS = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\Z)|[\[{]|[\]}]', re.DOTALL)
_NON_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})


class _Problem(Exception):
    """Raised inside the decoder hooks; located afterwards with the tokenizer."""

    def __init__(self, message: str, word: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.word = word


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Problem(f"duplicate member name {key!r}", key)
            seen.add(key)
    return result


def _reject_constant(word: str) -> Any:
    raise _Problem(f"{word} is not valid JSON (RFC 8259 has no NaN or Infinity)", word)


def _parse_int(word: str) -> int:
    if len(word) > limits.MAX_NUMBER_CHARS:
        raise _Problem(f"number literal longer than {limits.MAX_NUMBER_CHARS} characters", word)
    return int(word)


def _parse_float(word: str) -> float:
    if len(word) > limits.MAX_NUMBER_CHARS:
        raise _Problem(f"number literal longer than {limits.MAX_NUMBER_CHARS} characters", word)
    value = float(word)
    if value in (float("inf"), float("-inf")):
        raise _Problem(f"number {word[:40]} overflows an IEEE-754 double", word)
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs_hook,
    parse_constant=_reject_constant,
    parse_int=_parse_int,
    parse_float=_parse_float,
    strict=True,
)


def _error(text: str, offset: int, message: str, source: str | None) -> JsonInputError:
    line, column = line_column(text, offset)
    return JsonInputError(
        message,
        line=line,
        column=column,
        offset=offset,
        pointer=container_pointer_at(text, offset),
        source=source,
    )


def _decode(data: bytes | str, max_bytes: int, source: str | None) -> str:
    if isinstance(data, str):
        # A str of n code points is at most 4n UTF-8 bytes: only encode when it matters.
        size = (
            len(data) if len(data) * 4 <= max_bytes else len(data.encode("utf-8", "surrogatepass"))
        )
        if size > max_bytes:
            raise JsonInputError(
                f"input is {size} bytes, over the {max_bytes}-byte limit",
                offset=max_bytes,
                source=source,
            )
        return data
    if len(data) > max_bytes:
        line = data.count(b"\n", 0, max_bytes) + 1
        column = max_bytes - (data.rfind(b"\n", 0, max_bytes) + 1) + 1
        raise JsonInputError(
            f"input is {len(data)} bytes, over the {max_bytes}-byte limit",
            line=line,
            column=column,
            offset=max_bytes,
            source=source,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8")
        line, column = line_column(prefix, len(prefix))
        raise JsonInputError(
            f"invalid UTF-8: byte 0x{data[exc.start]:02x} ({exc.reason})",
            line=line,
            column=column,
            offset=len(prefix),
            pointer=container_pointer_at(prefix, len(prefix)),
            source=source,
        ) from None


def _check_depth(text: str, max_depth: int, source: str | None) -> None:
    """Count bracket nesting without recursion; strings are skipped as whole tokens."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for match in _BRACKETS.finditer(text):
        char = text[match.start()]
        if char in "[{":
            depth += 1
            if depth > max_depth:
                raise _error(text, match.start(), f"nesting deeper than {max_depth} levels", source)
        elif char in "]}":
            depth -= 1


def _find_lone_surrogate(value: Any) -> tuple[tuple[Segment, ...], bool] | None:
    """Path of the first string (or key, flagged True) holding a lone surrogate."""
    stack: list[tuple[tuple[Segment, ...], Any]] = [((), value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                return path, False
        elif isinstance(node, dict):
            for key, child in reversed(node.items()):
                if _SURROGATE.search(key):
                    return (*path, key), True
                stack.append(((*path, key), child))
        elif isinstance(node, list):
            stack.extend(((*path, i), child) for i, child in reversed(list(enumerate(node))))
    return None


def _locate_word(text: str, word: str | None) -> int:
    for token in walk(text):
        if token.kind == "value" and token.word and token.word == word:
            return token.offset
    return 0


def _locate_duplicate(text: str) -> tuple[int, Any]:
    """Offset and name of the first repeated member name, in text order."""
    seen: dict[tuple[Segment, ...], set[Any]] = {}
    for token in walk(text):
        if token.kind == "key":
            names = seen.setdefault(token.path[:-1], set())
            if token.path[-1] in names:
                return token.offset, token.path[-1]
            names.add(token.path[-1])
        elif token.kind == "value" and text[token.offset] == "{":
            seen[token.path] = set()  # a new object at a reused path (array slot)
    return 0, None


def loads(
    data: bytes | str,
    *,
    source: str | None = None,
    max_bytes: int = limits.MAX_JSON_BYTES,
    max_depth: int = limits.MAX_JSON_DEPTH,
) -> Any:
    """Parse untrusted JSON strictly; every rejection is a located ``JsonInputError``."""
    text = _decode(data, max_bytes, source)
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is tolerated (RFC 8259 section 8.1)
    if not text.strip(" \t\r\n"):
        raise JsonInputError(
            "empty input: expected a JSON value", line=1, column=1, offset=0, source=source
        )
    _check_depth(text, max_depth, source)
    try:
        value = _DECODER.decode(text)
    except _Problem as problem:
        if problem.message.startswith("duplicate"):
            offset, name = _locate_duplicate(text)
            message = problem.message if name is None else f"duplicate member name {name!r}"
            raise _error(text, offset, message, source) from None
        else:
            offset = _locate_word(text, problem.word)
        raise _error(text, offset, problem.message, source) from None
    except json.JSONDecodeError as exc:
        message = "unexpected data after the JSON value" if exc.msg == "Extra data" else exc.msg
        raise _error(text, exc.pos, message[:1].lower() + message[1:], source) from None
    except RecursionError:  # pragma: no cover - the depth pre-scan prevents it
        raise JsonInputError("nesting too deep", source=source) from None
    if _SURROGATE_ESCAPE.search(text) or _SURROGATE.search(text):
        found = _find_lone_surrogate(value)
        if found is not None:
            path, is_key = found
            for token in walk(text):
                if token.path == path and token.kind == ("key" if is_key else "value"):
                    what = "member name" if is_key else "string"
                    raise _error(
                        text, token.offset, f"{what} contains a lone UTF-16 surrogate", source
                    )
            raise JsonInputError(
                "a string contains a lone UTF-16 surrogate", pointer=join(path), source=source
            )
    return value


def load_path(path: str | Path, *, max_bytes: int = limits.MAX_JSON_BYTES) -> Any:
    """Read and strictly parse a file; the error names the file. Reads at most the limit."""
    file = Path(path)
    try:
        with file.open("rb") as handle:
            data = handle.read(max_bytes + 1)
            size = file.stat().st_size
    except OSError as exc:
        raise JsonInputError(f"cannot read file: {exc.strerror or exc}", source=str(file)) from None
    if len(data) > max_bytes:
        raise JsonInputError(
            f"file is {size} bytes, over the {max_bytes}-byte limit",
            offset=max_bytes,
            source=str(file),
        )
    return loads(data, source=str(file), max_bytes=max_bytes)
