"""grpc's C core writes log lines straight to stderr (a server that goes away sends a
GOAWAY): inside the TUI they would tear the screen. sia-tui imports grpc quiet."""

from __future__ import annotations

import os
import subprocess
import sys

# A server stops under a connected channel: grpc logs "Got goaway" at INFO unless quiet.
GOAWAY = """
import asyncio
from sia_tui.core.a2a.grpc.runtime import grpc

async def main():
    server = grpc.aio.server()
    async def echo(request, context):
        return request
    handler = grpc.unary_unary_rpc_method_handler(echo)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("s.S", {"M": handler}),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    await channel.unary_unary("/s.S/M")(b"x")
    await server.stop(grace=None)
    await asyncio.sleep(0.5)
    await channel.close()

asyncio.run(main())
"""


def _stderr(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", GOAWAY], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_grpc_writes_nothing_to_stderr() -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRPC_VERBOSITY"}
    assert _stderr(env) == ""


def test_a_verbosity_the_user_sets_still_wins() -> None:
    assert _stderr({**os.environ, "GRPC_VERBOSITY": "debug"}) != ""
