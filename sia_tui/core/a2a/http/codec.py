"""The codec contract shared by both dialects, and the choice of codec for an interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from sia_tui.core import limits
from sia_tui.core.a2a.http import codec_v03, codec_v1
from sia_tui.core.a2a.http.wire import WireRequest, unwrap_jsonrpc
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import A2AProtocolError

if TYPE_CHECKING:  # the readers of tasks load with the first answer read (step 1 reads none)
    from sia_tui.core.a2a.task_views import Message, StreamEvent, Task, TaskPage


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
        push: dict[str, Any] | None = None,
    ) -> WireRequest: ...

    def build_list(
        self, iface: Interface, *, rpc_id: int, page_size: int, page_token: str | None = None
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
    from sia_tui.core.a2a.objects import parse_task_or_message

    return parse_task_or_message(_result(payload, jsonrpc), proto03=proto03)


def read_task(payload: Any, *, jsonrpc: bool, proto03: bool = False) -> Task:
    """A GetTask/CancelTask response -> Task (bare Task, tolerating a ``{"task"}`` wrapper)."""
    from sia_tui.core.a2a.objects import parse_task

    result = _result(payload, jsonrpc)
    if isinstance(result, dict) and "status" not in result and isinstance(result.get("task"), dict):
        result = result["task"]
    return parse_task(result, proto03=proto03)


def read_event(payload: Any, *, jsonrpc: bool, proto03: bool = False) -> StreamEvent:
    """One SSE data payload -> StreamEvent (JSON-RPC events are whole JSON-RPC responses)."""
    from sia_tui.core.a2a.objects import parse_stream_event

    return parse_stream_event(_result(payload, jsonrpc), proto03=proto03)


def read_task_page(payload: Any, *, jsonrpc: bool) -> TaskPage:
    """A ListTasks response -> TaskPage: at most ``MAX_LISTED`` tasks, an unreadable task
    counted (one bad task does not hide the others)."""
    from sia_tui.core.a2a.objects import parse_task
    from sia_tui.core.a2a.task_views import TaskPage

    result = _result(payload, jsonrpc)
    if not isinstance(result, dict):
        raise A2AProtocolError("ListTasks answer is not a JSON object")
    raw_tasks = result.get("tasks")
    raw_tasks = raw_tasks if isinstance(raw_tasks, list) else []
    tasks: list[Task] = []
    unreadable, problem = 0, None
    for raw in raw_tasks[: limits.MAX_LISTED]:
        try:
            tasks.append(parse_task(raw))
        except A2AProtocolError as exc:
            unreadable += 1
            problem = problem or str(exc)
    token = result.get("nextPageToken")
    total = result.get("totalSize")
    return TaskPage(
        tasks=tuple(tasks),
        next_page_token=token if isinstance(token, str) else "",
        total_size=total if isinstance(total, int) and not isinstance(total, bool) else None,
        unreadable=unreadable + max(len(raw_tasks) - limits.MAX_LISTED, 0),
        problem=problem,
    )
