"""Strict JSON loader for untrusted text: duplicates, NaN, lone surrogates, depth, size.

The standard library's C decoder does the scanning; hooks catch duplicate member names
and NaN/Infinity as they are built; one walk of the result (``jsonshape``) checks depth
and overflowing numbers, and its findings are reused by the JCS fast path. Anything
rejected is then located in the text by ``json_locate``: line, column and the pointer of
the enclosing container.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from sia_tui.core import limits
from sia_tui.core.errors import FileInputError, JsonInputError
from sia_tui.core.jsonkit.jsonshape import Shape, measure
from sia_tui.core.local_file import read_regular_file

# Locating a problem (json_locate, pointer) loads only when there is one: valid input, as
# `digest` and `canon` read it, never pays for their imports (start-up).

if TYPE_CHECKING:
    from pathlib import Path

# A \uD800-\uDFFF escape somewhere (possibly a valid pair; checked after parsing).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# Number literals are measured in C: bytes that may belong to one become "0", all others
# "x", and a run of MAX_NUMBER_CHARS + 1 zeros is looked for (strings give false alarms,
# which the tokenizer then dismisses).
_AS_NUMBER_RUNS = bytes(0x30 if byte in b"-+.0123456789eE" else 0x78 for byte in range(256))
_LONG_NUMBER_RUN = b"0" * (limits.MAX_NUMBER_CHARS + 1)
# A JSON string, escapes included (for counting what lies outside strings).
#: A string, or one left open to the end of the text (else each quote inside it would
#: start a scan to the end again: quadratic on ``"\"\"\"...``).
_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.DOTALL)


class Parsed(NamedTuple):
    """A strictly parsed value and the walk that checked it (JCS reuses the walk)."""

    value: Any
    shape: Shape


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
                raise _Problem(f"duplicate member name {key!r}")
            seen.add(key)
    return result


def _reject_constant(word: str) -> Any:
    raise _Problem(f"{word} is not valid JSON (RFC 8259 has no NaN or Infinity)", word)


# Numbers are left to the C decoder (a Python hook per number was most of the cost):
# their length was measured before, their range is checked by the walk after.
_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs_hook, parse_constant=_reject_constant, strict=True
)


def _error(text: str, offset: int, message: str, source: str | None) -> JsonInputError:
    from sia_tui.core.jsonkit.pointer import container_pointer_at, line_column

    line, column = line_column(text, offset)
    return JsonInputError(
        message,
        line=line,
        column=column,
        offset=offset,
        pointer=container_pointer_at(text, offset),
        source=source,
    )


def _rejected(
    text: str, offset: int, message: str, source: str | None, max_depth: int
) -> JsonInputError:
    """The error at ``offset``, unless the text nests too deep somewhere: that comes first."""
    from sia_tui.core.jsonkit.json_locate import too_deep_at

    deep = too_deep_at(text, max_depth)
    if deep is not None:
        offset, message = deep, f"nesting deeper than {max_depth} levels"
    return _error(text, offset, message, source)


def _decode(data: bytes | str, max_bytes: int, source: str | None) -> tuple[str, bytes, bool]:
    """The text, its UTF-8 bytes, and whether the text holds literal lone surrogates."""
    if isinstance(data, str):
        try:
            raw = data.encode("utf-8")
            literal_surrogates = False
        except UnicodeEncodeError:  # only a str can: checked after parsing, with a location
            raw = data.encode("utf-8", "surrogatepass")
            literal_surrogates = True
        if len(raw) > max_bytes:
            raise JsonInputError(
                f"input is {len(raw)} bytes, over the {max_bytes}-byte limit",
                offset=max_bytes,
                source=source,
            )
        return data, raw, literal_surrogates
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
        return data.decode("utf-8"), data, False
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8")
        from sia_tui.core.jsonkit.pointer import container_pointer_at, line_column

        line, column = line_column(prefix, len(prefix))
        raise JsonInputError(
            f"invalid UTF-8: byte 0x{data[exc.start]:02x} ({exc.reason})",
            line=line,
            column=column,
            offset=len(prefix),
            pointer=container_pointer_at(prefix, len(prefix)),
            source=source,
        ) from None


def count_values(raw: bytes, at_most: int) -> int:
    """How many values ``raw`` decodes to, at most, counted before decoding: commas and
    brackets (in C), and once that quick count passes ``at_most``, the same outside
    strings (the regex engine removes the strings: a copy smaller than ``raw``; a loop
    over a million strings in Python took four times as long)."""
    quick = structural_count(raw)
    if quick <= at_most:
        return quick
    return structural_count(_STRING.sub(b"", raw))


def structural_count(raw: bytes | str) -> int:
    """Commas and opening brackets, plus one: the values of ``raw`` if no string holds one."""
    if isinstance(raw, str):
        return raw.count(",") + raw.count("[") + raw.count("{") + 1
    return raw.count(b",") + raw.count(b"[") + raw.count(b"{") + 1


def parse(
    data: bytes | str,
    *,
    source: str | None = None,
    max_bytes: int = limits.MAX_JSON_BYTES,
    max_depth: int = limits.MAX_JSON_DEPTH,
    max_values: int | None = None,
) -> Parsed:
    """Parse untrusted JSON strictly; every rejection is a located ``JsonInputError``.

    ``max_values`` bounds memory, not only size: 250 MB of ``0,`` decode to 125 million
    values (1.6 GB); past the budget the text is refused before it is decoded.
    """
    text, raw, literal_surrogates = _decode(data, max_bytes, source)
    if max_values is not None and count_values(raw, max_values) > max_values:
        raise JsonInputError(
            f"more than {max_values} JSON values (a bound on the memory reading takes)",
            source=source,
        )
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is tolerated (RFC 8259 section 8.1)
    if not text.strip(" \t\r\n"):
        raise JsonInputError(
            "empty input: expected a JSON value", line=1, column=1, offset=0, source=source
        )
    if len(raw) > limits.MAX_NUMBER_CHARS and _LONG_NUMBER_RUN in raw.translate(_AS_NUMBER_RUNS):
        from sia_tui.core.jsonkit.json_locate import first_long_number

        offset = first_long_number(text)
        if offset is not None:
            message = f"number literal longer than {limits.MAX_NUMBER_CHARS} characters"
            raise _rejected(text, offset, message, source, max_depth)
    try:
        value = _DECODER.decode(text)
    except _Problem as problem:
        from sia_tui.core.jsonkit.json_locate import first_duplicate, first_word

        if problem.word is None:  # a duplicate: report the first one in text order
            offset, name = first_duplicate(text)
            message = problem.message if name is None else f"duplicate member name {name!r}"
        else:
            offset, message = first_word(text, problem.word), problem.message
        raise _rejected(text, offset, message, source, max_depth) from None
    except json.JSONDecodeError as exc:
        message = "unexpected data after the JSON value" if exc.msg == "Extra data" else exc.msg
        if message == "Invalid control character at" and exc.pos < len(text):
            # json's message ends where its position would follow: name the character.
            code = ord(text[exc.pos])
            message = f"raw control character U+{code:04X} in a string (write it as an escape)"
        message = message[:1].lower() + message[1:]
        raise _rejected(text, exc.pos, message, source, max_depth) from None
    except RecursionError:  # the C decoder recurses; it gives up near 1000 levels
        from sia_tui.core.jsonkit.json_locate import too_deep_at

        deep = too_deep_at(text, max_depth)
        if deep is None:  # the caller's own stack was already deep
            raise JsonInputError("nesting too deep", source=source) from None
        raise _error(text, deep, f"nesting deeper than {max_depth} levels", source) from None
    except ValueError as exc:  # pragma: no cover - long literals were refused above
        raise JsonInputError(f"unreadable number: {exc}", source=source) from None
    shape = measure(value, max_depth)
    if shape.depth > max_depth:
        raise _rejected(text, 0, f"nesting deeper than {max_depth} levels", source, max_depth)
    if shape.non_finite:
        from sia_tui.core.jsonkit.json_locate import first_overflow

        offset, word = first_overflow(text) or (0, "")
        message = f"number {word[:40]} overflows an IEEE-754 double"
        raise _rejected(text, offset, message, source, max_depth)
    if literal_surrogates or _SURROGATE_ESCAPE.search(text):
        _reject_lone_surrogates(text, value, source)
    return Parsed(value, shape)


def _reject_lone_surrogates(text: str, value: Any, source: str | None) -> None:
    from sia_tui.core.jsonkit.json_locate import lone_surrogate, token_at
    from sia_tui.core.jsonkit.pointer import join

    found = lone_surrogate(value)
    if found is None:
        return
    path, is_key = found
    what = "member name" if is_key else "string"
    offset = token_at(text, path, is_key)
    if offset is None:
        raise JsonInputError(
            "a string contains a lone UTF-16 surrogate", pointer=join(path), source=source
        )
    raise _error(text, offset, f"{what} contains a lone UTF-16 surrogate", source)


def loads(
    data: bytes | str,
    *,
    source: str | None = None,
    max_bytes: int = limits.MAX_JSON_BYTES,
    max_depth: int = limits.MAX_JSON_DEPTH,
    max_values: int | None = None,
) -> Any:
    """Parse untrusted JSON strictly; every rejection is a located ``JsonInputError``."""
    return parse(
        data, source=source, max_bytes=max_bytes, max_depth=max_depth, max_values=max_values
    ).value


def load_path(path: str | Path, *, max_bytes: int = limits.MAX_JSON_BYTES) -> Any:
    """Read and strictly parse a file; the error names the file. Reads at most the limit."""
    return parse_path(path, max_bytes=max_bytes).value


def parse_path(path: str | Path, *, max_bytes: int = limits.MAX_JSON_BYTES) -> Parsed:
    """:func:`load_path`, keeping the walk for JCS (see :func:`parse`)."""
    name = os.fspath(path)  # os, not pathlib: `sia-tui digest` starts faster without it
    return parse(read_json_file(name, max_bytes=max_bytes), source=name, max_bytes=max_bytes)


def read_json_text(path: str | Path, *, max_bytes: int = limits.MAX_JSON_BYTES) -> tuple[Any, str]:
    """A JSON file the user named (arguments: ``check --args``, ``open --args``, the TUI's
    load), read once: its value, strictly parsed, and its text, so that the text shown or
    edited is the text parsed and findings name a line and column in it."""
    data = read_json_file(path, max_bytes=max_bytes)
    value = loads(data, source=os.fspath(path), max_bytes=max_bytes)
    return value, data.decode("utf-8", errors="replace")


def read_json_file(path: str | Path, *, max_bytes: int = limits.MAX_JSON_BYTES) -> bytes:
    """The bytes of a JSON file the user named: a regular file of at most ``max_bytes``
    (a FIFO or a device is refused, never waited on); errors name the file."""
    name = os.fspath(path)
    try:
        read = read_regular_file(name, max_bytes)
    except FileInputError as exc:
        raise JsonInputError(f"cannot read file: {exc.reason}", source=name) from None
    if len(read.data) > max_bytes:
        raise JsonInputError(
            f"file is {read.size} bytes, over the {max_bytes}-byte limit",
            offset=max_bytes,
            source=name,
        )
    return read.data
