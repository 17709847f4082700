"""RULES SR2: interface 1.0 fixes the dialect at JSON Schema 2020-12, whatever ``$schema`` says.

sia-tui validates every embedded schema as 2020-12. An embedded schema (or one of its
subschemas) whose own ``$schema`` names another draft is therefore read differently from
how its author wrote it. That is always a warning naming both drafts, and an error where
the two drafts validate the schema differently, which is precisely when a subschema under
that ``$schema`` uses one of these (docs/CORE.md, "Dialects"):

- ``$ref`` beside other validation keywords, under draft-03 to draft-07: those drafts ignore
  the siblings of ``$ref``, 2020-12 applies them;
- ``items`` as an array (draft-03 to 2019-09's tuple form, with ``additionalItems`` for the
  rest): 2020-12 spells it ``prefixItems`` and ``items`` must be one schema;
- ``dependencies`` (draft-03 to draft-07): 2020-12 split it into ``dependentRequired`` and
  ``dependentSchemas``; a 2020-12 validator need not apply it at all;
- ``$recursiveRef`` / ``$recursiveAnchor`` (2019-09): 2020-12 replaced them with
  ``$dynamicRef`` / ``$dynamicAnchor`` and ignores them;
- ``exclusiveMinimum`` / ``exclusiveMaximum`` as booleans (draft-03, draft-04): 2020-12
  wants the bound itself, a number;
- ``extends``, ``disallow``, ``divisibleBy`` (draft-03): unknown to 2020-12, ignored;
- a keyword 2020-12 applies that the named draft does not know (its author's validator
  ignores it): ``const``, ``contains``, ``propertyNames`` (from draft-06); ``if``, ``then``,
  ``else`` (draft-07); ``dependentRequired``, ``dependentSchemas``,
  ``unevaluatedProperties``, ``unevaluatedItems``, ``minContains``, ``maxContains``
  (2019-09); ``prefixItems``, ``$dynamicRef``, ``$dynamicAnchor`` (2020-12).

Annotations (``title``, ``examples``...), ``$defs``/``definitions`` and ``format`` (asserted
for ``date-time`` in every dialect here, RULES FMT1) validate the same way and are not counted.
A ``$schema`` naming no draft sia-tui knows is a warning: what it changes cannot be told.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sia_tui.core import limits
from sia_tui.core.bounded import cap_findings
from sia_tui.core.codes import ErrorCode
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.jsonkit.pointer import join

DIALECT = "2020-12"
#: Drafts in the order they were published; the index compares them.
_ORDER = ("draft-03", "draft-04", "draft-06", "draft-07", "2019-09", "2020-12")
_URIS = {
    "json-schema.org/draft-03/schema": "draft-03",
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft/2020-12/schema": "2020-12",
}
#: Keywords each draft introduced that 2020-12 applies: the earlier drafts ignore them.
_INTRODUCED = {
    "draft-06": ("const", "contains", "propertyNames"),
    "draft-07": ("if", "then", "else"),
    "2019-09": (
        "dependentRequired",
        "dependentSchemas",
        "unevaluatedProperties",
        "unevaluatedItems",
        "minContains",
        "maxContains",
    ),
    "2020-12": ("prefixItems", "$dynamicRef", "$dynamicAnchor"),
}
#: Keywords of older drafts that 2020-12 ignores, with the last draft that had them.
_RETIRED = {
    "dependencies": (
        "draft-07",
        "2020-12 splits it into dependentRequired and dependentSchemas and need not apply it",
    ),
    "$recursiveRef": ("2019-09", "2020-12 replaced it with $dynamicRef and ignores it"),
    "$recursiveAnchor": ("2019-09", "2020-12 replaced it with $dynamicAnchor and ignores it"),
    "extends": ("draft-03", "2020-12 does not know it and ignores it (use allOf)"),
    "disallow": ("draft-03", "2020-12 does not know it and ignores it (use not)"),
    "divisibleBy": ("draft-03", "2020-12 does not know it and ignores it (use multipleOf)"),
}
#: Siblings of $ref that change nothing when a draft ignores them.
_NEUTRAL_SIBLINGS = frozenset(
    {
        "$schema",
        "$id",
        "id",
        "$comment",
        "$defs",
        "definitions",
        "title",
        "description",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
_ONE_SCHEMA = (
    "additionalProperties",
    "additionalItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
    "items",
    "extends",
)
_SCHEMA_MAPS = (
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
)
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items", "extends")


def named_draft(uri: Any) -> str | None:
    """The draft a ``$schema`` URI names ("draft-07"), or None when it names none known."""
    if not isinstance(uri, str):
        return None
    rest = uri.removesuffix("#")
    for scheme in ("https://", "http://"):
        if rest.startswith(scheme):
            return _URIS.get(rest[len(scheme) :])
    return None


def _subschemas(node: dict[str, Any], pointer: str) -> Iterator[tuple[str, Any]]:
    """Every schema directly under ``node``, with its pointer (never an instance value)."""
    for keyword in _ONE_SCHEMA:
        if isinstance(node.get(keyword), dict):
            yield pointer + join([keyword]), node[keyword]
    for keyword in _SCHEMA_MAPS:
        members = node.get(keyword)
        if isinstance(members, dict):
            for name, value in members.items():
                if isinstance(value, dict):
                    yield pointer + join([keyword, name]), value
    for keyword in _SCHEMA_LISTS:
        items = node.get(keyword)
        if isinstance(items, list):
            for index, value in enumerate(items):
                if isinstance(value, dict):
                    yield f"{pointer}{join([keyword])}/{index}", value


def _differences(node: dict[str, Any], draft: str) -> Iterator[tuple[str, str]]:
    """(keyword, why) for each keyword of ``node`` that ``draft`` and 2020-12 validate
    differently."""
    rank = _ORDER.index(draft)
    if "$ref" in node and rank <= _ORDER.index("draft-07"):
        siblings = sorted(k for k in node if k != "$ref" and k not in _NEUTRAL_SIBLINGS)
        if siblings:
            yield (
                "$ref",
                f"{draft} ignores the keywords beside $ref ({', '.join(siblings)}); "
                "2020-12 applies them",
            )
    if isinstance(node.get("items"), list):
        rest = " and additionalItems for the rest" if "additionalItems" in node else ""
        yield (
            "items",
            f"an array of items is {draft}'s tuple form{rest}; 2020-12 spells it "
            "prefixItems and items must be one schema",
        )
    for keyword in ("exclusiveMinimum", "exclusiveMaximum"):
        if isinstance(node.get(keyword), bool) and rank <= _ORDER.index("draft-04"):
            yield (
                keyword,
                f"{draft}'s boolean {keyword} modifies the plain bound; 2020-12 wants the "
                "bound itself, a number",
            )
    for keyword, (last, why) in _RETIRED.items():
        if keyword in node and rank <= _ORDER.index(last):
            yield keyword, f"{draft} applies {keyword}; {why}"
    for introduced, keywords in _INTRODUCED.items():
        if rank < _ORDER.index(introduced):
            for keyword in keywords:
                if keyword in node:
                    yield (
                        keyword,
                        f"{draft} does not know {keyword} and ignores it; 2020-12 applies it",
                    )


def dialect_findings(schema: Any, pointer: str) -> list[Finding]:
    """RULES SR2 for one embedded schema at ``pointer``: each ``$schema`` that names another
    dialect than 2020-12 (a warning naming both), and each keyword under it that the two
    drafts validate differently (an error, ``interface_invalid``)."""
    findings: list[Finding] = []
    stack: list[tuple[str, Any, str, int]] = [(pointer, schema, DIALECT, 0)]
    while stack:
        where, node, draft, depth = stack.pop()
        if not isinstance(node, dict) or depth > limits.MAX_JSON_DEPTH:
            continue
        if "$schema" in node:
            named = named_draft(node["$schema"])
            if named != DIALECT:
                findings.append(_warning(node["$schema"], named, f"{where}/$schema"))
            draft = named or DIALECT  # an unknown dialect: nothing can be said to differ
        if draft != DIALECT:
            for keyword, why in _differences(node, draft):
                findings.append(
                    Finding(
                        f"the embedded schema says it is JSON Schema {draft}, but interface "
                        f"1.0 validates it as {DIALECT}, and the two validate {keyword} "
                        f"differently: {why}",
                        pointer=f"{where}{join([keyword])}",
                        rule="SR2",
                        code=ErrorCode.INTERFACE_INVALID,
                        keyword="$schema",
                        expected=DIALECT,
                        actual=draft,
                    )
                )
        stack.extend(
            (at, child, draft, depth + 1) for at, child in reversed(list(_subschemas(node, where)))
        )
    return cap_findings(findings)


def _warning(uri: Any, named: str | None, pointer: str) -> Finding:
    unknown = f"{str(uri)[:120]!r}, a dialect sia-tui does not know"
    said = f"JSON Schema {named}" if named else unknown
    return Finding(
        f"the embedded schema's $schema names {said}, but the Schema Reference's dialect "
        f"is {DIALECT} and interface 1.0 fixes it: sia-tui validates it as {DIALECT}",
        severity=Severity.WARNING,
        pointer=pointer,
        rule="SR2",
        keyword="$schema",
        expected=DIALECT,
        actual=named or str(uri)[:120],
    )
