"""The codec contract shared by both dialects, and the choice of codec for an interface."""

from __future__ import annotations

from typing import Any, Protocol

from sia_tui.core.a2a import codec_v03, codec_v1
from sia_tui.core.a2a.model import Interface, Message, StreamEvent, Task
from sia_tui.core.a2a.objects import parse_stream_event, parse_task, parse_task_or_message
from sia_tui.core.a2a.wire import WireRequest, unwrap_jsonrpc


class Codec(Protocol):
    """Builds requests and reads responses for one dialect; never mixed within a request."""

    #: The ``A2A-Version`` header value this codec sends.
    version: str

    def make_user_message(self, data: Any) -> dict[str, Any]: ...

    def make_text_message(self, text: str) -> dict[str, Any]: ...

    def extension_headers(self, uri: str) -> list[tuple[str, str]]: ...

    def build(
        self,
        iface: Interface,
        operation: str,
        *,
        rpc_id: int,
        message: dict[str, Any] | None = None,
        task_id: str | None = None,
        return_immediately: bool = False,
    ) -> WireRequest: ...


def codec_for(dialect: str) -> Codec:
    """The codec of a dialect ("1.0" or "0.3"; any 0.x is 0.3)."""
    return codec_v03.CODEC if dialect.startswith("0.") else codec_v1.CODEC


def make_user_message(data: dict[str, Any], *, dialect: str) -> dict[str, Any]:
    """A user Message whose only part is one data part, in the dialect's JSON-RPC form."""
    return codec_for(dialect).make_user_message(data)


def _result(payload: Any, jsonrpc: bool) -> Any:
    return unwrap_jsonrpc(payload) if jsonrpc else payload


def read_send(payload: Any, *, jsonrpc: bool, proto03: bool = False) -> Task | Message:
    """A send response (JSON-RPC envelope or REST body) -> Task or Message."""
    return parse_task_or_message(_result(payload, jsonrpc), proto03=proto03)


def read_task(payload: Any, *, jsonrpc: bool, proto03: bool = False) -> Task:
    """A GetTask/CancelTask response -> Task (bare Task, tolerating a ``{"task"}`` wrapper)."""
    result = _result(payload, jsonrpc)
    if isinstance(result, dict) and "status" not in result and isinstance(result.get("task"), dict):
        result = result["task"]
    return parse_task(result, proto03=proto03)


def read_event(payload: Any, *, jsonrpc: bool, proto03: bool = False) -> StreamEvent:
    """One SSE data payload -> StreamEvent (JSON-RPC events are whole JSON-RPC responses)."""
    return parse_stream_event(_result(payload, jsonrpc), proto03=proto03)
