"""The registry of attacks the hostile agent knows.

An attack is a name, one line saying what it does, optional edits to the honest agent's
card, document or result, and responders for the stages it takes over (``card``,
``describe``, ``invoke``, ``stream``, ``get_task``, ``cancel``); every other stage gets the
honest answer. To add one, write a responder and decorate it with :func:`attack`, or call
:func:`register` for an attack that only edits what the honest agent says.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.hostile import bombs
from tests.hostile.honest import (
    Honest,
    sse,
    status_update,
    task,
)
from tests.hostile.server import Reply, Request

Responder = Callable[[Request, Reply, Honest], Awaitable[None]]
Edit = Callable[[dict[str, Any]], None]

#: How many entries a flood attack sends.
FLOOD = 100_000
#: Decoded size of every compression bomb (1 GiB: far past any limit, cheap to build).
BOMB_MIB = 1024
#: Pause between the bytes of a slow attack (far below any read timeout a test sets).
DRIP = 0.1


@dataclass(frozen=True)
class Attack:
    """One way to misbehave."""

    name: str
    summary: str
    stages: dict[str, Responder] = field(default_factory=dict)
    edit_card: Edit | None = None
    edit_document: Edit | None = None
    result: Callable[[], Any] | None = None

    def agent(self, base: str) -> Honest:
        """The honest agent this attack builds on, with the attack's edits."""
        kwargs: dict[str, Any] = {}
        if self.result is not None:
            kwargs["result"] = self.result
        return Honest(base, edit_document=self.edit_document, edit_card=self.edit_card, **kwargs)

    def handler(self, base: str) -> Callable[[Request, Reply], Awaitable[None]]:
        honest = self.agent(base)

        async def handle(request: Request, reply: Reply) -> None:
            responder = self.stages.get(request.stage)
            if responder is None:
                await honest.answer(request, reply)
            else:
                await responder(request, reply, honest)

        return handle


ATTACKS: dict[str, Attack] = {}


def register(item: Attack) -> Attack:
    if item.name in ATTACKS:
        raise ValueError(f"attack {item.name!r} registered twice")
    ATTACKS[item.name] = item
    return item


def attack(
    name: str, summary: str, *, stage: str, **edits: Any
) -> Callable[[Responder], Responder]:
    """Register ``responder`` as the attack ``name`` on one stage."""

    def decorate(responder: Responder) -> Responder:
        register(Attack(name, summary, {stage: responder}, **edits))
        return responder

    return decorate


# -- content encodings -------------------------------------------------------------------


def _encoded_card(codings: str, body: Callable[[], bytes]) -> Responder:
    async def respond(request: Request, reply: Reply, honest: Honest) -> None:
        await reply.body(body(), headers=[("Content-Encoding", codings)])

    return respond


for _name, _codings, _body in (
    ("gzip-gzip", "gzip, gzip", lambda: bombs.gzip(bombs.gzip_zeros(BOMB_MIB))),
    ("deflate-deflate", "deflate, deflate", lambda: bombs.deflate(bombs.zlib_zeros(BOMB_MIB))),
    ("gzip-deflate", "gzip, deflate", lambda: bombs.deflate(bombs.gzip_zeros(BOMB_MIB))),
    (
        "gzip-x3",
        "gzip, gzip, gzip",
        lambda: bombs.gzip(bombs.gzip(bombs.gzip_zeros(BOMB_MIB))),
    ),
):
    register(
        Attack(
            _name,
            f"the card as a {BOMB_MIB} MiB zero bomb under Content-Encoding: {_codings}",
            {"card": _encoded_card(_codings, _body)},
        )
    )

register(
    Attack(
        "unknown-encoding",
        "the card under Content-Encoding: sia-bogus, an encoding nobody knows",
        {"card": _encoded_card("sia-bogus", lambda: b"{}")},
    )
)


# -- time --------------------------------------------------------------------------------


@attack("slow-poll", "GetTask answers WORKING after 0.8 s, forever", stage="get_task")
async def _slow_poll(request: Request, reply: Reply, honest: Honest) -> None:
    await asyncio.sleep(0.8)
    await reply.rpc(request, task("TASK_STATE_WORKING"))


async def _keep_alive(reply: Reply) -> None:
    while True:
        await reply.write(b": keep-alive\r\n\r\n")
        await asyncio.sleep(DRIP)


@attack("sse-keepalive", "the stream sends only keep-alive comments, forever", stage="stream")
async def _sse_keepalive(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await _keep_alive(reply)


@attack("sse-working-forever", "the stream sends WORKING updates, forever", stage="stream")
async def _sse_working(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await reply.write(sse(request, {"task": task("TASK_STATE_WORKING")}))
    while True:
        await reply.write(sse(request, status_update("TASK_STATE_WORKING")))
        await asyncio.sleep(DRIP)


@attack(
    "sse-working-flood",
    "the stream sends WORKING updates as fast as it can, 100 per write",
    stage="stream",
)
async def _sse_working_flood(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await reply.write(sse(request, {"task": task("TASK_STATE_WORKING")}))
    batch = sse(request, status_update("TASK_STATE_WORKING")) * 100
    while True:
        await reply.write(batch)
        await asyncio.sleep(0.001)


@attack("slow-headers", "the card's response headers arrive a byte at a time", stage="card")
async def _slow_headers(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.write(b"HTTP/1.1 200 OK\r\n")
    while True:
        await reply.write(b"X")
        await asyncio.sleep(DRIP)


@attack("slow-body", "the card's body arrives a byte at a time", stage="card")
async def _slow_body(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "application/json"), ("Content-Length", "1000000")])
    while True:
        await reply.write(b" ")
        await asyncio.sleep(DRIP)


@attack(
    "slow-headers-then-body",
    "the card's headers take 1.2 s, byte by byte, then its body drips forever",
    stage="card",
)
async def _slow_headers_then_body(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.write(b"HTTP/1.1 200 OK\r\n")
    for _ in range(12):
        await reply.write(b"X-Slow: 1\r\n")
        await asyncio.sleep(DRIP)
    await reply.write(b"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
    while True:
        await reply.write(b" ")
        await asyncio.sleep(DRIP)


@attack("chunked-forever", "the card is an endless chunked body", stage="card")
async def _chunked_forever(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
    await reply.chunk(b"[")
    piece = b"0," * 32_768
    while True:
        await reply.chunk(piece)


@attack("sse-long-line", "one SSE data line that never ends", stage="stream")
async def _sse_long_line(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await reply.write(b"data: ")
    piece = b"x" * 65_536
    while True:
        await reply.write(piece)


# -- values ------------------------------------------------------------------------------


def _bounded_value(document: dict[str, Any]) -> None:
    from tests.support.documents import OUTPUT_SCHEMA, reference

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
    from tests.support.documents import reference

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
    from tests.support.documents import reference

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
    from tests.support.documents import reference

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
