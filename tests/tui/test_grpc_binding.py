"""The TUI over gRPC: the connect screen offers the binding, and the exchange view shows a
gRPC call as one (method path, metadata, ProtoJSON, status and ErrorInfo, sizes)."""

from __future__ import annotations

import json
from typing import Any

from textual.widgets import Input, Select

from sia_tui.core.exchange import Exchange
from sia_tui.tui.display import PLAIN
from sia_tui.tui.render.exchange import exchange_content
from sia_tui.tui.storage import UserDirs
from tests.support.tui import SIZE, settle, snapshot_app


async def test_connect_offers_grpc_and_the_run_goes_over_it(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    agent = reference_agent(grpc_port=0)
    app = snapshot_app(dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#location", Input).value = agent.url
        # Select refuses a value it does not offer (InvalidSelectValueError).
        app.screen.query_one("#binding", Select).value = "grpc"
        await pilot.press("ctrl+j")
        await settle(pilot)
        assert app.engine is not None
        run = app.engine.run
        assert run.interface is not None and run.interface.binding == "GRPC"
        assert run.target.binding == "grpc"


def test_a_failed_grpc_call_shows_its_status_error_info_and_sizes() -> None:
    status = {
        "code": 5,
        "message": "Task not found",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org",
            }
        ],
    }
    exchange = Exchange(
        3,
        "get task",
        "GRPC",
        "grpc://127.0.0.1:5/lf.a2a.v1.A2AService/GetTask",
        (("a2a-version", "1.0"), ("authorization", "Bearer secret-token-1234")),
        b'{"id":"t-9"}',
        5,
        (("grpc-status", "5"), ("grpc-message", "Task not found")),
        json.dumps(status).encode(),
        message_sizes=(5,),
    )
    text = exchange_content(exchange, PLAIN, pretty=True, limit=None).plain
    assert "GRPC grpc://127.0.0.1:5/lf.a2a.v1.A2AService/GetTask  → gRPC NOT_FOUND (5)" in text
    assert "protobuf on the wire: request 5 bytes" in text
    assert "request metadata" in text and "request message (ProtoJSON)" in text
    assert "status (google.rpc.Status)" in text and "TASK_NOT_FOUND" in text
    assert "secret-token-1234" not in text  # the bearer is masked like an HTTP header
