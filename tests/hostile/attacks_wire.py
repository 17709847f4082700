"""Attacks on the wire: compression bombs, unknown encodings, slow and endless bytes, SSE."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable

from tests.hostile.honest import Honest, sse, status_update, task
from tests.hostile.registry import Attack, Responder, attack, register
from tests.hostile.server import Reply, Request
from tests.support import bombs

#: Decoded size of every compression bomb (1 GiB: far past any limit, cheap to build).
BOMB_MIB = 1024
#: Pause between the bytes of a slow attack (far below any read timeout a test sets).
DRIP = 0.1


# -- content encodings -------------------------------------------------------------------


def _encoded_card(codings: str, body: Callable[[], bytes]) -> Responder:
    async def respond(request: Request, reply: Reply, honest: Honest) -> None:
        await reply.body(body(), headers=[("Content-Encoding", codings)])

    return respond


def _encoding_attack(name: str, summary: str, codings: str, body: Callable[[], bytes]) -> None:
    built = functools.cache(body)
    # Built before the server answers anything: a client's 1 s read timeout must not race it.
    register(Attack(name, summary, {"card": _encoded_card(codings, built)}, prepare=built))


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
    _encoding_attack(
        _name,
        f"the card as a {BOMB_MIB} MiB zero bomb under Content-Encoding: {_codings}",
        _codings,
        _body,
    )
_encoding_attack(
    "unknown-encoding",
    "the card under Content-Encoding: sia-bogus, an encoding nobody knows",
    "sia-bogus",
    lambda: b"{}",
)


# -- time --------------------------------------------------------------------------------


@attack("slow-poll", "GetTask answers WORKING after 0.5 s, forever", stage="get_task")
async def _slow_poll(request: Request, reply: Reply, honest: Honest) -> None:
    await asyncio.sleep(0.5)
    await reply.rpc(request, task("TASK_STATE_WORKING"))


async def _describe_working(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.rpc(request, {"task": task("TASK_STATE_WORKING")})


register(
    Attack(
        "describe-working-forever",
        "describe_skill answers a WORKING task, and GetTask says WORKING forever",
        {"describe": _describe_working, "get_task": _slow_poll},
    )
)


async def _keep_alive(reply: Reply) -> None:
    while True:
        await reply.write(b": keep-alive\r\n\r\n")
        await asyncio.sleep(DRIP)


@attack("sse-keepalive", "the stream sends only keep-alive comments, forever", stage="stream")
async def _sse_keepalive(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await _keep_alive(reply)


async def _working_forever(request: Request, reply: Reply, per_write: int, pause: float) -> None:
    await reply.head(200, [("Content-Type", "text/event-stream")])
    await reply.write(sse(request, {"task": task("TASK_STATE_WORKING")}))
    batch = sse(request, status_update("TASK_STATE_WORKING")) * per_write
    while True:
        await reply.write(batch)
        await asyncio.sleep(pause)


@attack("sse-working-forever", "the stream sends WORKING updates, forever", stage="stream")
async def _sse_working(request: Request, reply: Reply, honest: Honest) -> None:
    await _working_forever(request, reply, 1, DRIP)


@attack(
    "sse-working-flood",
    "the stream sends WORKING updates as fast as it can, 100 per write",
    stage="stream",
)
async def _sse_working_flood(request: Request, reply: Reply, honest: Honest) -> None:
    await _working_forever(request, reply, 100, 0.001)


async def _drip_forever(reply: Reply, byte: bytes) -> None:
    while True:
        await reply.write(byte)
        await asyncio.sleep(DRIP)


@attack("slow-headers", "the card's response headers arrive a byte at a time", stage="card")
async def _slow_headers(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.write(b"HTTP/1.1 200 OK\r\n")
    await _drip_forever(reply, b"X")


@attack("slow-body", "the card's body arrives a byte at a time", stage="card")
async def _slow_body(request: Request, reply: Reply, honest: Honest) -> None:
    await reply.head(200, [("Content-Type", "application/json"), ("Content-Length", "1000000")])
    await _drip_forever(reply, b" ")


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
    await _drip_forever(reply, b" ")


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
