"""The forms a secret is echoed in, and a search for all of them (written apart from
``sia_tui.core.redaction.secret_forms``: the tests must not find leaks with the code under test)."""

from __future__ import annotations

import base64
import json


def _alternate(secret: str, escape: str) -> str:
    """Every other character escaped with ``escape`` (a format of the code point)."""
    return "".join(escape.format(ord(c)) if i % 2 == 0 else c for i, c in enumerate(secret))


def disguises(secret: str) -> dict[str, str]:
    """Name -> the text of ``secret`` in that form, as an agent writes it into JSON text:
    ``json-u`` forms are JSON escapes (the decoded value is the secret itself)."""
    raw = secret.encode("utf-8")
    mixed_case = "".join(
        f"\\u{ord(c):04x}" if i % 2 else f"\\u{ord(c):04X}" for i, c in enumerate(secret)
    )
    return {
        "literal": secret,
        "json-u-lower": "".join(f"\\u{ord(c):04x}" for c in secret),
        "json-u-upper": "".join(f"\\u{ord(c):04X}" for c in secret),
        "json-u-mixed-case": mixed_case,
        "json-u-some": _alternate(secret, "\\u{:04x}"),
        "percent-upper": "".join(f"%{b:02X}" for b in raw),
        "percent-lower": "".join(f"%{b:02x}" for b in raw),
        "percent-some": _alternate(secret, "%{:02x}"),
        "base64": base64.b64encode(raw).decode(),
        "base64url": base64.urlsafe_b64encode(raw).decode().rstrip("="),
        "base64-inside": base64.b64encode(b"user:" + raw + b"!").decode(),
        "hex": raw.hex(),
        "html-entities": "".join(f"&#{ord(c)};" for c in secret),
        "userinfo": f"https://someone:{secret}@example.net/",
        "url-in-json-u": "".join(f"\\u{ord(c):04x}" for c in f"https://u:{secret}@x.example/"),
        "percent-in-json-u": "".join(f"\\u{ord(c):04x}" for c in "".join(f"%{b:02X}" for b in raw)),
    }


def findable(secret: str) -> set[str]:
    """Every text whose presence in an output means ``secret`` leaked: each disguise (the
    userinfo one by its secret part), also as JSON-escaped once more (a body quoted in a
    JSON report or a session file), and the encodings of the decoded value."""
    forms = {secret}
    for name, form in disguises(secret).items():
        if name in ("userinfo", "url-in-json-u"):
            continue  # the secret part of them is one of the other forms
        forms |= {form, json.dumps(form)[1:-1]}
    return forms


def leaked(text: str, secrets: dict[str, str]) -> dict[str, list[str]]:
    """Name -> the forms of that secret found in ``text`` (empty when nothing leaked)."""
    found = {
        name: sorted(form for form in findable(secret) if form in text)
        for name, secret in secrets.items()
    }
    return {name: forms for name, forms in found.items() if forms}
