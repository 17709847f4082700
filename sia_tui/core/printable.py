"""Making agent-sent text inert for a terminal: control characters become visible."""

from __future__ import annotations

import unicodedata

#: Control pictures for C0 controls (U+2400 block); ESC shows as ␛.
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_PICTURES[0x7F] = "␡"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control or format character replaced by a visible stand-in.

    Terminal escapes (``\\x1b[2J``), bells and bidi overrides from an agent must never
    reach the terminal as themselves.
    """
    out = []
    for char in text:
        code = ord(char)
        if keep_newlines and char in "\n\t":
            out.append(char)
        elif code in _PICTURES:
            out.append(_PICTURES[code])
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def terminal_json(value: object, *, indent: int | None = 2) -> str:
    """JSON text that is safe to print: C1 controls and format characters (bidi overrides)
    inside strings become ``\\uXXXX`` escapes, which JSON readers decode unchanged."""
    import json

    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return "".join(
        f"\\u{ord(char):04x}"
        if 0x7F <= ord(char) <= 0x9F or unicodedata.category(char) in ("Cf", "Cs", "Co")
        else char
        for char in text
    )
