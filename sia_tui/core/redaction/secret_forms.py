"""Where a secret hides in text: its encodings, and its escaped forms found on decoded views.

A secret echoed by an agent may be literal, base64, hex, or escaped character by character
in any mix of JSON (``\\u0042`` in either case, ``\\/``), percent (``%42``, UTF-8
sequences), HTML (``&#66;``, ``&#x42;``, ``&amp;``) and C-like (``\\x42``) escapes, nested up
to three layers (a JSON string holding a percent-encoded URL). Encodings are matched as
they are (:func:`encoded_forms`); escapes are matched on *decoded views* of the text, each
char of which knows the span of raw text it came from, so a match is cut out of the raw
text exactly and nothing around it changes.
"""

from __future__ import annotations

import base64
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote, quote_plus

#: Escapes decoded to one character (or one UTF-8 / UTF-16 sequence) each. The first two
#: alternatives take whole runs of the commonest escapes, decoded in C at a fixed stride
#: (an agent can send 8 MiB of ``%41``; one piece per run, not per escape).
ESCAPE = re.compile(
    r"(?P<percent>(?:%[0-7][0-9a-fA-F])+)"  # ASCII, 3 raw chars each
    r"|(?P<utf16>(?:\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4})+)"  # BMP, 6 raw chars each
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"  # a UTF-16 pair
    r"|\\u\{[0-9a-fA-F]{1,6}\}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}"
    r"|\\[\\/\"'bfnrt]"
    r"|%u[0-9a-fA-F]{4}"
    r"|%[c-fC-F][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){1,3}"  # a UTF-8 sequence
    r"|&#[0-9]{1,7};|&#[xX][0-9a-fA-F]{1,6};|&(?:amp|lt|gt|quot|apos);"
)
#: Any escape at all (the same tokens one by one, which the regex engine scans for fast:
#: the first characters of every alternative form one set).
ANY_ESCAPE = re.compile(
    r"\\(?:u[0-9a-fA-F{]|U[0-9a-fA-F]|x[0-9a-fA-F]|[\\/\"'bfnrt])|%[0-9a-fA-FuU]|&#|&(?:amp|lt|gt|quot|apos);"
)


def has_escape(text: str) -> bool:
    """True when ``text`` may hold an escape (decoded views are built only then)."""
    return ANY_ESCAPE.search(text) is not None


#: Decoded layers looked at beyond the raw text (JSON in JSON, a URL in a JSON string).
MAX_LAYERS = 3
#: A base64 run is matched at every byte alignment only from this length (shorter runs
#: would match unrelated base64 by chance).
MIN_BASE64_CORE = 8
#: Hex forms from this many bytes.
MIN_HEX_BYTES = 6

_SHORT = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_NAMED = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'"}


def _base64_cores(raw: bytes) -> set[str]:
    """The base64 (and base64url) characters of ``raw`` that do not depend on where it
    sits inside a longer encoded text: one run per byte alignment."""
    cores = set()
    for shift in range(3):
        padded = b"\0" * shift + raw
        start, end = -(-8 * shift // 6), 8 * len(padded) // 6
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            core = encode(padded).decode("ascii")[start:end]
            if len(core) >= MIN_BASE64_CORE:
                cores.add(core)
    return cores


def encoded_forms(value: str) -> set[str]:
    """The literal plus the encodings a secret travels in: base64 and base64url (whole and
    inside a longer encoded text), hex, URL and JSON escaping of the whole value."""
    raw = value.encode("utf-8", errors="surrogateescape")
    forms = {value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1]}
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = encoded.decode("ascii")
        forms.update({text, text.rstrip("=")})
    forms |= _base64_cores(raw)
    if len(raw) >= MIN_HEX_BYTES:
        forms.update({raw.hex(), raw.hex().upper()})
    return {form for form in forms if form}


@lru_cache(maxsize=4096)
def _decode(token: str) -> str:
    """The character(s) one escape stands for; the token itself when it names none."""
    try:
        if token[0] == "\\":
            kind = token[1]
            if kind == "u" and len(token) == 12:  # a surrogate pair
                high, low = int(token[2:6], 16), int(token[8:12], 16)
                return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            if kind == "u" and token[2] == "{":
                return chr(int(token[3:-1], 16))
            if kind in "uUx":
                return chr(int(token[2:], 16))
            return _SHORT.get(kind, kind)
        if token[0] == "%":
            if token[1] in "uU":
                return chr(int(token[2:], 16))
            return bytes.fromhex(token.replace("%", "")).decode("utf-8", errors="replace")
        if token in _NAMED:
            return _NAMED[token]
        if token[2] in "xX":
            return chr(int(token[3:-1], 16))
        return chr(int(token[2:-1]))
    except (ValueError, OverflowError):  # beyond U+10FFFF: not an escape after all
        return token


@dataclass
class _View:
    """Text decoded one layer further than ``parent`` (None: the raw text itself).

    Pieces map it back: piece i starts at view offset ``starts[i]`` and came from
    ``parent`` text from ``sources[i]`` to ``source_ends[i]``. Each char of it stands for
    ``strides[i]`` raw chars (1: literal text, 3: a run of ``%41``, 6: of ``\\u0041``);
    stride 0 is one escape whose chars all map to its whole raw token.
    """

    text: str
    parent: _View | None = None
    starts: list[int] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)
    source_ends: list[int] = field(default_factory=list)
    strides: list[int] = field(default_factory=list)

    def _piece(self, start: int, source: int, end: int, stride: int) -> None:
        self.starts.append(start)
        self.sources.append(source)
        self.source_ends.append(end)
        self.strides.append(stride)

    def to_raw(self, start: int, end: int) -> tuple[int, int]:
        """The raw-text span that the view span ``[start, end)`` was decoded from."""
        view: _View = self
        while view.parent is not None:
            i = bisect_right(view.starts, start) - 1
            j = bisect_right(view.starts, end - 1) - 1
            first, last = view.strides[i], view.strides[j]
            new_start = view.sources[i] + (start - view.starts[i]) * first
            new_end = (
                view.sources[j] + (end - view.starts[j]) * last if last else view.source_ends[j]
            )
            start, end, view = new_start, new_end, view.parent
        return start, end


def _run(match: re.Match[str]) -> tuple[str, int] | None:
    """A run of one-char escapes decoded at once, and its stride (None: not a run)."""
    if match.group("percent"):
        return bytes.fromhex(match.group().replace("%", "")).decode("ascii"), 3
    if match.group("utf16"):
        hexes = match.group().replace("\\u", "").replace("\\U", "")
        return bytes.fromhex(hexes).decode("utf-16-be"), 6
    return None


def _decoded(parent: _View) -> _View | None:
    """``parent`` with one layer of escapes decoded; None when it holds no escape."""
    text = parent.text
    view = _View("", parent)
    out: list[str] = []
    position = length = 0
    for match in ESCAPE.finditer(text):
        begin, end = match.span()
        if begin > position:
            view._piece(length, position, begin, 1)
            out.append(text[position:begin])
            length += begin - position
        run = _run(match)
        if run is None:
            token = match.group()
            chars = _decode(token)
            view._piece(length, begin, end, 1 if chars == token else 0)
        else:
            chars, stride = run
            view._piece(length, begin, end, stride)
        out.append(chars)
        length += len(chars)
        position = end
    if not out:
        return None
    if position < len(text):
        view._piece(length, position, len(text), 1)
        out.append(text[position:])
    view.text = "".join(out)
    return view


def _views(text: str) -> list[_View]:
    """The raw text and each decoded layer of it, up to :data:`MAX_LAYERS`."""
    views = [_View(text)]
    while len(views) <= MAX_LAYERS and has_escape(views[-1].text):
        layer = _decoded(views[-1])
        if layer is None:
            break
        views.append(layer)
    return views


Span = tuple[int, int, str]


def find_spans(text: str, forms: Iterable[tuple[str, str]]) -> list[Span]:
    """Raw-text spans ``(start, end, name)`` of every form in any view, merged; ``forms``
    are ``(form, name)`` pairs, longest first (a longer form names an overlap)."""
    pairs = list(forms)
    found: list[Span] = []
    for view in _views(text):
        for form, name in pairs:
            at = view.text.find(form)
            while at != -1:
                start, end = view.to_raw(at, at + len(form))
                found.append((start, end, name))
                at = view.text.find(form, at + len(form))
    return merge_spans(found)


def merge_spans(found: list[Span]) -> list[Span]:
    """Spans in text order, overlapping ones joined (the first one names the union)."""
    found = sorted(found, key=lambda span: (span[0], -span[1]))
    merged: list[Span] = []
    for start, end, name in found:
        if merged and start < merged[-1][1]:
            last = merged[-1]
            merged[-1] = (last[0], max(last[1], end), last[2])
        else:
            merged.append((start, end, name))
    return merged


def replace_spans(text: str, spans: list[Span], replacement: Callable[[str], str]) -> str:
    """``text`` with each span (from :func:`find_spans`) replaced by ``replacement(name)``."""
    out: list[str] = []
    position = 0
    for start, end, name in spans:
        out += [text[position:start], replacement(name)]
        position = end
    out.append(text[position:])
    return "".join(out)
