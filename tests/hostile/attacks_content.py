"""Attacks in what the agent says: huge numbers, backtracking patterns, floods."""

from __future__ import annotations

from typing import Any

from tests.hostile.registry import Attack, register
from tests.support.documents import OUTPUT_SCHEMA, reference

#: How many entries a flood attack sends (read when an agent is built: benchmarks vary it).
FLOOD = 100_000


# -- values ------------------------------------------------------------------------------


def _bounded_value(document: dict[str, Any]) -> None:
    schema = {**OUTPUT_SCHEMA, "properties": {**OUTPUT_SCHEMA["properties"]}}
    schema["properties"]["observed_value"] = {"type": "number", "maximum": 100}
    document["output_schema"] = reference(schema, "https://example.net/schemas/bounded-out")


register(
    Attack(
        "number-10e400",
        "the result carries the integer 10^400 where the schema says maximum 100",
        edit_document=_bounded_value,
        result=lambda: {"result": "condition_met", "observed_value": 10**400},
    )
)


#: A backreference pattern whose every mismatch backtracks exponentially (issue 18, item 5).
BACKTRACKING_PATTERN = r"^(a|a)*\1b$"
#: How many strings the backtracking attack returns (the issue's 313 KB).
BACKTRACKING_STRINGS = 8000


def _backtracking_document(document: dict[str, Any]) -> None:
    strings = {"type": "array", "items": {"type": "string", "pattern": BACKTRACKING_PATTERN}}
    schema = {"type": "object", "properties": {"result": strings}}
    document["output_schema"] = reference(schema, "https://example.net/schemas/backtracking")


register(
    Attack(
        "backtracking-pattern",
        f"{BACKTRACKING_STRINGS} strings against a backreference pattern that backtracks",
        edit_document=_backtracking_document,
        result=lambda: {"result": ["a" * 30 + str(i) for i in range(BACKTRACKING_STRINGS)]},
    )
)


# -- floods ------------------------------------------------------------------------------


def _warning_flood(card: dict[str, Any]) -> None:
    # Each interface without a url is one card warning (and is ignored).
    card["supportedInterfaces"] += [{"protocolBinding": "JSONRPC"} for _ in range(FLOOD)]


def _extension_flood(card: dict[str, Any]) -> None:
    # The skill bound FLOOD more times: each repeat is an ADV3 finding.
    params = card["capabilities"]["extensions"][0]["params"]
    params["skills"] = params["skills"] * (FLOOD + 1)


def _findings_document(document: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"result": {"type": "array", "items": {"type": "string"}}},
    }
    document["output_schema"] = reference(schema, "https://example.net/schemas/flood-out")


register(
    Attack(
        "card-warnings-flood",
        f"{FLOOD} card entries that each cause a warning",
        edit_card=_warning_flood,
    )
)
register(
    Attack(
        "extension-flood",
        f"the skill bound {FLOOD} more times in the extension",
        edit_card=_extension_flood,
    )
)
register(
    Attack(
        "findings-flood",
        f"a result with {FLOOD} validation errors",
        edit_document=_findings_document,
        result=lambda: {"result": list(range(FLOOD))},
    )
)
#: A flood small enough to be listed (and counted) within MAX_LISTING_WORK.
LISTED_FLOOD = 10_000
register(
    Attack(
        "findings-flood-listed",
        f"a result with {LISTED_FLOOD} validation errors",
        edit_document=_findings_document,
        result=lambda: {"result": list(range(LISTED_FLOOD))},
    )
)


def _required_document(document: dict[str, Any]) -> None:
    schema = {"allOf": [{"required": [f"missing_{i}"]} for i in range(COPIES)]}
    document["output_schema"] = reference(schema, "https://example.net/schemas/copies")


#: Errors at the root of the result; each used to carry a copy of the whole result.
COPIES = 100
register(
    Attack(
        "error-copies",
        f"{COPIES} errors at the root of a result of a million values",
        edit_document=_required_document,
        result=lambda: {"values": [0] * 1_000_000},
    )
)
