"""A JSON Schema rendered for reading: titles, descriptions, types, required marks, enums."""

from __future__ import annotations

import json
from typing import Any

from textual.content import Content

from sia_tui.tui.display import DisplayPolicy

#: Deeper nesting is summarised: a hostile schema must not render forever.
MAX_DEPTH = 8
#: Properties shown per object before "… n more".
MAX_PROPERTIES = 200


def schema_content(schema: Any, policy: DisplayPolicy) -> Content:
    """Readable lines for ``schema`` (untrusted: every string shown literally)."""
    literal = policy.literal
    lines: list[Content] = []
    if isinstance(schema, dict):
        if "title" in schema:
            lines.append(literal(schema["title"], style="bold $primary"))
        if "description" in schema:
            lines.append(literal(schema["description"], multiline=True, style="italic"))
        if "$id" in schema:
            lines.append(Content.assemble(("$id ", "$text-muted"), literal(schema["$id"])))
    _walk(schema, "", 0, lines, policy, name=None, required=False)
    return Content("\n").join(lines)


def _type_of(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if kind is not None:
        return str(kind)
    for combinator in ("oneOf", "anyOf", "allOf"):
        if combinator in schema:
            return combinator
    if "const" in schema:
        return "const"
    if "enum" in schema:
        return "enum"
    return "any"


def _json(value: Any) -> str:
    """A schema value as JSON (``"gte"``, ``true``), never a Python repr."""
    return json.dumps(value, ensure_ascii=False)


def _walk(
    schema: Any,
    indent: str,
    depth: int,
    lines: list[Content],
    policy: DisplayPolicy,
    *,
    name: str | None,
    required: bool,
) -> None:
    literal = policy.literal
    if not isinstance(schema, dict):
        lines.append(
            Content.assemble(
                indent,
                literal(name or "(value)"),
                ": ",
                literal(_json(schema), style="$text-muted"),
            )
        )
        return
    parts: list[Content | tuple[str, str] | str] = [indent]
    if name is not None:
        parts.append(literal(name, style="bold"))
        parts.append(("*" if required else "", "bold $error"))
        parts.append(": ")
    parts.append((_type_of(schema), "$secondary"))
    if "enum" in schema and isinstance(schema["enum"], list):
        parts.append(("  one of ", "$text-muted"))
        parts.append(literal(", ".join(_json(v) for v in schema["enum"][:20])))
    if "const" in schema:
        parts.append(("  = ", "$text-muted"))
        parts.append(literal(_json(schema["const"])))
    for key in (
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "minLength",
        "maxLength",
        "pattern",
        "default",
    ):
        if key in schema:
            parts.append((f"  {key} ", "$text-muted"))
            value = schema[key]
            parts.append(literal(value if isinstance(value, str) else _json(value)))
    if name is not None and isinstance(schema.get("title"), str):
        parts.append(("  — ", "$text-muted"))
        parts.append(literal(schema["title"], style="italic"))
    lines.append(Content.assemble(*parts))
    if name is not None and isinstance(schema.get("description"), str):
        lines.append(
            Content.assemble(
                indent, "   ", literal(schema["description"], style="italic $text-muted")
            )
        )
    if depth >= MAX_DEPTH:
        lines.append(
            Content.styled(f"{indent}   … (nested deeper than {MAX_DEPTH})", "$text-muted")
        )
        return
    inner = indent + "   "
    properties = schema.get("properties")
    if isinstance(properties, dict):
        wanted = schema.get("required")
        required_names = set(wanted) if isinstance(wanted, list) else set()
        for index, (key, sub) in enumerate(properties.items()):
            if index >= MAX_PROPERTIES:
                lines.append(
                    Content.styled(f"{inner}… {len(properties) - index} more", "$text-muted")
                )
                break
            _walk(
                sub, inner, depth + 1, lines, policy, name=str(key), required=key in required_names
            )
    items = schema.get("items")
    if isinstance(items, dict):
        _walk(items, inner, depth + 1, lines, policy, name="[items]", required=False)
    for combinator in ("oneOf", "anyOf", "allOf"):
        options = schema.get(combinator)
        if isinstance(options, list):
            for index, sub in enumerate(options[:MAX_PROPERTIES]):
                _walk(
                    sub,
                    inner,
                    depth + 1,
                    lines,
                    policy,
                    name=f"({combinator} {index + 1})",
                    required=False,
                )
