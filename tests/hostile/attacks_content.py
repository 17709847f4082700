"""Attacks in what the agent says: huge numbers, backtracking patterns, floods."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.hostile.honest import Honest
from tests.hostile.registry import Attack, Edit, attack, register
from tests.hostile.server import Reply, Request
from tests.support.documents import OUTPUT_SCHEMA, reference

#: How many entries a flood attack sends (read when an agent is built: benchmarks vary it).
#: Past every bound it tests (40 x MAX_WARNINGS and MAX_FINDINGS, 4 x MAX_COUNTED_ERRORS,
#: 2 x MAX_LISTING_WORK: a result listed part by part); 100,000 proved no more, at 2.5 x
#: the CPU.
FLOOD = 40_000
#: A flood small enough to be listed (and counted) within MAX_LISTING_WORK.
LISTED_FLOOD = 10_000
#: A backreference pattern whose every mismatch backtracks exponentially.
BACKTRACKING_PATTERN = r"^(a|a)*\1b$"
#: How many strings the backtracking attack returns (313 KB).
BACKTRACKING_STRINGS = 8000
#: Errors at the root of the result; each used to carry a copy of the whole result.
COPIES = 100


def output_schema(name: str, schema: dict[str, Any]) -> Edit:
    """A document edit: the output schema becomes ``schema`` (digests stay right)."""

    def edit(document: dict[str, Any]) -> None:
        document["output_schema"] = reference(schema, f"https://example.net/schemas/{name}")

    return edit


def _result(attack: str, summary: str, schema: dict[str, Any], value: Callable[[], Any]) -> None:
    register(Attack(attack, summary, edit_document=output_schema(attack, schema), result=value))


# -- values ------------------------------------------------------------------------------

_BOUNDED = {**OUTPUT_SCHEMA, "properties": {**OUTPUT_SCHEMA["properties"]}}
_BOUNDED["properties"]["observed_value"] = {"type": "number", "maximum": 100}
_result(
    "number-10e400",
    "the result carries the integer 10^400 where the schema says maximum 100",
    _BOUNDED,
    lambda: {"result": "condition_met", "observed_value": 10**400},
)
_result(
    "backtracking-pattern",
    f"{BACKTRACKING_STRINGS} strings against a backreference pattern that backtracks",
    {
        "type": "object",
        "properties": {
            "result": {
                "type": "array",
                "items": {"type": "string", "pattern": BACKTRACKING_PATTERN},
            }
        },
    },
    lambda: {"result": ["a" * 30 + str(i) for i in range(BACKTRACKING_STRINGS)]},
)


# -- floods ------------------------------------------------------------------------------


def _warning_flood(card: dict[str, Any]) -> None:
    # Each interface without a url is one card warning (and is ignored).
    card["supportedInterfaces"] += [{"protocolBinding": "JSONRPC"} for _ in range(FLOOD)]


def _extension_flood(card: dict[str, Any]) -> None:
    # The skill bound FLOOD more times: each repeat is an ADV3 finding.
    params = card["capabilities"]["extensions"][0]["params"]
    params["skills"] = params["skills"] * (FLOOD + 1)


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
_STRINGS = {
    "type": "object",
    "properties": {"result": {"type": "array", "items": {"type": "string"}}},
}
_result(
    "findings-flood",
    f"a result with {FLOOD} validation errors",
    _STRINGS,
    lambda: {"result": list(range(FLOOD))},
)
_result(
    "findings-flood-listed",
    f"a result with {LISTED_FLOOD} validation errors",
    _STRINGS,
    lambda: {"result": list(range(LISTED_FLOOD))},
)
_result(
    "error-copies",
    f"{COPIES} errors at the root of a result of a million values",
    {"allOf": [{"required": [f"missing_{i}"]} for i in range(COPIES)]},
    lambda: {"values": [0] * 1_000_000},
)


#: How many tiny artifacts the artifact flood adds to the result (about 4 MB on the wire).
ARTIFACTS = 50_000


@attack(
    "artifact-flood",
    f"the result comes with {ARTIFACTS} tiny supporting records, each invalid",
    stage="invoke",
)
async def _artifact_flood(request: Request, reply: Reply, honest: Honest) -> None:
    answer = honest.completed()
    answer["artifacts"] += [
        {"artifactId": f"extra-{i:05}", "name": "resource-observation", "parts": [{"data": {}}]}
        for i in range(ARTIFACTS)
    ]
    await reply.rpc(request, {"task": answer})
