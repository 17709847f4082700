"""The output policy: text that did not come from sia-tui's own strings is made printable.

One policy for every text stream. An agent, a session file or a
document can carry terminal escapes (``ESC ] 52`` writes the clipboard, ``ESC ] 0`` the
window title), bells, C1 controls (U+009B is a one-character CSI), bidi overrides and other
format characters. None of them may reach a terminal, a clipboard or a report as itself:

- :func:`printable` is for one value inside sia-tui's own text (a field of a line): every
  control, format, line-separator, surrogate and private-use character becomes a visible
  stand-in (``␛`` for ESC, ``\\u009b`` for CSI), newlines too unless ``keep_newlines``;
- :func:`printable_in_place` is the same for text whose offsets must not move (a styled
  span, an editor's column): one visible character for each unsafe one;
- :func:`terminal_text` is the last gate before stdout and stderr: the same, keeping
  newlines, tabs and sia-tui's own colour codes (:func:`paint`). The CLI installs it on
  both streams for every command (:func:`printable_output`), so a value that skipped
  :func:`printable` still cannot reach the terminal raw;
- :func:`clipboard_text` is what the TUI may copy (OSC 52);
- :func:`terminal_json` is JSON output that stays valid JSON with the same values.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TextIO

#: Control (Cc), format (Cf), line/paragraph separator (Zl, Zp), surrogate (Cs) and
#: private-use (Co) characters of Unicode 14, with room for later format characters in the
#: same blocks. ``tests/core/test_printable.py`` checks it against ``unicodedata``.
_UNSAFE_RANGES = (
    "\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\ud800-\uf8ff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000f0000-\U0010ffff"
)
#: The class for ASCII text, the common case (with and without tab and newline): C0 and
#: DEL only, scanned some 13x faster than with the whole class (benchmarks/literal_gate.py).
_ASCII_UNSAFE = re.compile("[\x00-\x1f\x7f]")
_ASCII_UNSAFE_IN_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f]")

#: SGR colour codes sia-tui writes itself (:func:`paint`): reset, bold, dim, red, green,
#: yellow, cyan. Nothing else that starts with ESC passes :func:`terminal_text`.
COLOURS = frozenset({"0", "1", "2", "31", "32", "33", "36"})
_OWN_COLOUR = "|".join(sorted(COLOURS, key=len, reverse=True))
_ASCII_STREAM = re.compile(f"(\x1b\\[(?:{_OWN_COLOUR})m)|[\x00-\x08\x0b-\x1f\x7f]")


# The whole-class patterns compile on first use: each takes some 10 ms, which a command
# whose output is ASCII (`--help`, `digest`) would pay at start-up for nothing.
@cache
def _whole_class(keep_newlines: bool) -> re.Pattern[str]:
    """Every unsafe character (without tab and newline when ``keep_newlines``)."""
    return re.compile(f"(?![\t\n])[{_UNSAFE_RANGES}]" if keep_newlines else f"[{_UNSAFE_RANGES}]")


@cache
def _whole_stream() -> re.Pattern[str]:
    """:func:`terminal_text`'s pattern: sia-tui's own colour codes, else an unsafe one."""
    return re.compile(f"(\x1b\\[(?:{_OWN_COLOUR})m)|(?![\t\n])[{_UNSAFE_RANGES}]")


#: Control pictures for C0 controls (U+2400 block); ESC shows as ␛, DEL as ␡.
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_PICTURES[0x7F] = "\u2421"


def _stand_in(char: str) -> str:
    """The visible form of one unsafe character."""
    code = ord(char)
    if code in _PICTURES:
        return _PICTURES[code]
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _printable_as_is(text: str, keep_newlines: bool) -> bool:
    """True when ``text`` holds no unsafe character, by ``str.isprintable`` (which refuses
    every character of the whole class, tests/core/test_printable.py checks it): most
    non-ASCII text (an accent, a bullet, an ellipsis) needs no whole-class scan, nor its
    compile at start-up."""
    if keep_newlines:
        text = text.replace("\t", " ").replace("\n", " ")
    return text.isprintable()


def _unsafe(text: str, keep_newlines: bool) -> re.Pattern[str]:
    """The pattern of the unsafe characters ``text`` may hold."""
    if text.isascii() or _printable_as_is(text, keep_newlines):
        return _ASCII_UNSAFE_IN_LINES if keep_newlines else _ASCII_UNSAFE
    return _whole_class(keep_newlines)


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control or format character replaced by a visible stand-in
    (newlines and tabs kept when ``keep_newlines``)."""
    return _unsafe(text, keep_newlines).sub(lambda m: _stand_in(m.group()), text)


#: The one-character stand-in of an unsafe character without a control picture.
REPLACEMENT = "\ufffd"


def printable_in_place(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with each unsafe character replaced by one visible character (a control
    picture, else U+FFFD), so every offset into it stays valid."""
    replace = _unsafe(text, keep_newlines).sub
    return replace(lambda m: _PICTURES.get(ord(m.group()), REPLACEMENT), text)


def terminal_text(text: str) -> str:
    """The last gate before a terminal: :func:`printable` keeping newlines, tabs and the
    colour codes :func:`paint` writes."""
    pattern = _ASCII_STREAM if text.isascii() else _whole_stream()
    return pattern.sub(lambda m: m.group(1) or _stand_in(m.group()), text)


def paint(text: str, colour: str, enabled: bool = True) -> str:
    """``text`` in one of sia-tui's :data:`COLOURS` (an SGR code such as ``"31"``)."""
    if colour not in COLOURS:
        raise ValueError(f"not one of sia-tui's colours: {colour!r}")
    return f"\x1b[{colour}m{text}\x1b[0m" if enabled else text


def clipboard_text(text: str) -> str:
    """What may be written to the clipboard (OSC 52): printable text, lines kept. A pasted
    ESC or bidi override would act in whatever the user pastes into."""
    return printable(text, keep_newlines=True)


def terminal_json(value: object, *, indent: int | None = 2) -> str:
    """JSON text that is safe to print: every unsafe character inside strings becomes a
    ``\\uXXXX`` escape (JSON already escapes C0), which JSON readers decode unchanged."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    # Raw newlines and tabs can only be the layout of ``indent``: strings hold them escaped.
    escape = _unsafe(text, keep_newlines=True).sub
    return escape(lambda m: "".join(f"\\u{u:04x}" for u in _utf16(m.group())), text)


def _utf16(char: str) -> list[int]:
    data = char.encode("utf-16-be", errors="surrogatepass")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


class PassThroughStream(io.TextIOBase):
    """A text stream that hands every write on to ``stream``, through ``through`` if given
    (the CLI's ``--json`` watch notes what passes; :class:`PrintableStream` cleans it)."""

    def __init__(self, stream: TextIO, through: Callable[[str], str] | None = None) -> None:
        super().__init__()
        self.stream = stream
        self._through = through

    def write(self, text: str) -> int:
        self.stream.write(self._through(text) if self._through else text)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.stream, "encoding", "utf-8"))


class PrintableStream(PassThroughStream):
    """A text stream that passes everything written through :func:`terminal_text`."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream, terminal_text)


def write_data(data: bytes) -> None:
    """Bytes that are data rather than text for people (``sia-tui canon``): exact when
    stdout is redirected, through :func:`terminal_text` when it is a terminal."""
    stream = sys.stdout
    raw = stream.stream if isinstance(stream, PrintableStream) else stream
    if raw.isatty():
        stream.write(terminal_text(data.decode("utf-8", errors="replace")))
        stream.flush()
        return
    raw.flush()
    raw.buffer.write(data)
    raw.buffer.flush()


@contextmanager
def printable_output() -> Iterator[None]:
    """Route ``sys.stdout`` and ``sys.stderr`` through :func:`terminal_text` meanwhile."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(saved[0]), PrintableStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
