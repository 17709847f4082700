"""An argument skeleton prefilled from an input schema, for the TUI's argument editor."""

from __future__ import annotations

from typing import Any

from sia_tui.core import limits
from sia_tui.core.jsonkit.pointer import resolve

_PLACEHOLDERS: dict[str, Any] = {
    "string": "",
    "integer": 0,
    "number": 0,
    "boolean": False,
    "null": None,
    "array": [],
    "object": {},
}
_FORMAT_EXAMPLES = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "00:00:00Z",
    "uri": "https://example.net/",
    "email": "user@example.net",
}


def skeleton_for(schema: Any) -> Any:
    """A JSON value that fills the required members of ``schema`` with plausible values.

    Preference: ``const``, ``default``, first of ``examples``, first ``enum`` value, then a
    placeholder of the declared type. Only local ``$ref`` (``#...``) is followed (RULES
    SR7), and the descent stops at ``limits.MAX_SKELETON_DEPTH``.
    """
    return _value(schema, schema, 0)


def _follow(root: Any, schema: Any) -> Any:
    hops = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and hops < 16:
        ref = schema["$ref"]
        if not ref.startswith("#"):
            return {}
        try:
            target = resolve(root, ref[1:]) if ref.startswith("#/") or ref == "#" else None
        except (KeyError, ValueError):
            return {}
        if target is None:
            return {}
        # Siblings of $ref apply too (2020-12); local ones win for the skeleton.
        schema = (
            {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            if isinstance(target, dict)
            else target
        )
        hops += 1
    return schema


def _fit_length(text: str, schema: dict[str, Any]) -> str:
    """Pad or cut a placeholder to minLength/maxLength, so the skeleton starts valid."""
    low, high = schema.get("minLength"), schema.get("maxLength")
    if isinstance(low, int) and 0 < low <= 1024 and len(text) < low:
        text += "x" * (low - len(text))
    if isinstance(high, int) and 0 <= high < len(text):
        text = text[:high]
    return text


def _value(root: Any, schema: Any, depth: int) -> Any:
    schema = _follow(root, schema)
    if not isinstance(schema, dict):
        return None
    for keyword in ("const", "default"):
        if keyword in schema:
            return schema[keyword]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    if depth >= limits.MAX_SKELETON_DEPTH:
        kind = schema.get("type")
        return _PLACEHOLDERS.get(kind) if isinstance(kind, str) else None
    for combinator in ("allOf", "anyOf", "oneOf"):
        branches = schema.get(combinator)
        if isinstance(branches, list) and branches and "type" not in schema:
            merged = _follow(root, branches[0])
            if isinstance(merged, dict):
                return _value(
                    root,
                    {**merged, **{k: v for k, v in schema.items() if k != combinator}},
                    depth + 1,
                )
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((t for t in kind if t != "null"), kind[0] if kind else None)
    if kind is None and ("properties" in schema or "required" in schema):
        kind = "object"
    if kind == "object":
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        required = schema.get("required")
        required = required if isinstance(required, list) else []
        return {
            name: _value(root, properties.get(name, {}), depth + 1)
            for name in required
            if isinstance(name, str)
        }
    if kind == "array":
        count = schema.get("minItems", 0)
        items = schema.get("items", {})
        count = count if isinstance(count, int) and 0 <= count <= 16 else 0
        return [_value(root, items, depth + 1) for _ in range(count)]
    if kind == "string":
        fmt = schema.get("format")
        return _fit_length(_FORMAT_EXAMPLES.get(fmt, "") if isinstance(fmt, str) else "", schema)
    if kind in ("integer", "number"):
        for bound in ("minimum", "exclusiveMinimum"):
            if isinstance(schema.get(bound), int | float) and not isinstance(schema[bound], bool):
                value = schema[bound] + (1 if bound == "exclusiveMinimum" else 0)
                return int(value) if kind == "integer" else value
        return 0
    return _PLACEHOLDERS.get(str(kind))
