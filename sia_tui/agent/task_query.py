"""The arguments of GetTask and ListTasks, read alike from every binding and checked.

JSON-RPC and gRPC hand over ProtoJSON values (numbers, booleans, enum names); HTTP+JSON
hands over query-string text. Both are read here, once, so the three bindings agree: an
argument the proto does not allow is InvalidParams (-32602, HTTP 400, gRPC
INVALID_ARGUMENT), never silently read as "unset" (A2A 1.0 section 3.1.4, ``a2a.proto``
``ListTasksRequest``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sia_tui.agent.errors import invalid_params
from sia_tui.agent.tasks import TaskRecord
from sia_tui.core.task_state import TaskState

#: ListTasks' page size when none is asked for, and the most one page holds.
DEFAULT_PAGE, MAX_PAGE = 50, 100
#: The states a task can be in (``TASK_STATE_UNSPECIFIED`` is "no filter").
TASK_STATES = frozenset(state.value for state in TaskState if state is not TaskState.UNSPECIFIED)
_INT32_MAX = 2**31 - 1


def _integer(params: dict[str, Any], name: str) -> int | None:
    """An int32 member (a JSON number, or the digits of a query parameter), or None."""
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        digits = text.removeprefix("-")
        if not digits.isdigit() or len(digits) > 10:
            raise invalid_params(f"{name} must be an integer")
        value = int(text)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > _INT32_MAX:
        raise invalid_params(f"{name} must be an integer")
    return value


def _boolean(params: dict[str, Any], name: str) -> bool:
    value = params.get(name, False)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if not isinstance(value, bool):
        raise invalid_params(f"{name} must be true or false")
    return value


def history_length(params: dict[str, Any]) -> int | None:
    """``historyLength``: None (no limit) or a count of most recent messages, >= 0."""
    length = _integer(params, "historyLength")
    if length is not None and length < 0:
        raise invalid_params("historyLength must not be negative")
    return length


def timestamp(text: Any, name: str) -> datetime:
    """An ISO 8601 / RFC 3339 timestamp with its offset (``Z`` or ``+hh:mm``)."""
    if not isinstance(text, str) or not 10 <= len(text) <= 40:
        raise invalid_params(f"{name} must be an ISO 8601 timestamp")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise invalid_params(f"{name} must be an ISO 8601 timestamp") from None
    # A timestamp without an offset names no instant; read it as UTC, as ProtoJSON does.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class ListQuery:
    """One ListTasks request, checked."""

    context_id: str | None
    status: str | None
    page_size: int
    offset: int
    history_length: int | None
    after: datetime | None
    include_artifacts: bool

    def matches(self, task: TaskRecord) -> bool:
        """True when ``task`` passes every filter of the request."""
        if self.context_id is not None and task.context_id != self.context_id:
            return False
        if self.status is not None and task.state != self.status:
            return False
        return self.after is None or timestamp(task.timestamp, "timestamp") > self.after


def list_query(params: Any) -> ListQuery:
    """The checked arguments of ListTasks (``params`` a JSON object, or query parameters)."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise invalid_params("params must be an object")
    context = params.get("contextId") or None
    if context is not None and not isinstance(context, str):
        raise invalid_params("contextId must be a string")
    status = params.get("status") or None
    if status == "TASK_STATE_UNSPECIFIED":
        status = None
    if status is not None and status not in TASK_STATES:
        raise invalid_params(f"status {str(status)[:40]!r} is not a task state")
    size = _integer(params, "pageSize")
    size = DEFAULT_PAGE if size is None else size
    if not 1 <= size <= MAX_PAGE:  # 0 is refused too: the proto's minimum is 1
        raise invalid_params(f"pageSize must be an integer from 1 to {MAX_PAGE}")
    token = params.get("pageToken") or "0"
    if not isinstance(token, str) or not token.isdigit() or len(token) > 9:
        raise invalid_params("pageToken is not a token this agent gave")
    after = params.get("statusTimestampAfter")
    return ListQuery(
        context_id=context,
        status=status,
        page_size=size,
        offset=int(token),
        history_length=history_length(params),
        after=None if after in (None, "") else timestamp(after, "statusTimestampAfter"),
        include_artifacts=_boolean(params, "includeArtifacts"),
    )


def list_page(query: ListQuery, tasks: list[TaskRecord]) -> dict[str, Any]:
    """The ListTasksResponse for ``query`` over ``tasks`` (already in ListTasks' order):
    ``totalSize`` counts every task that matches, ``pageSize`` is the size asked for."""
    matching = [task for task in tasks if query.matches(task)]
    end = query.offset + query.page_size
    return {
        "tasks": [
            task.snapshot(query.history_length, artifacts=query.include_artifacts)
            for task in matching[query.offset : end]
        ],
        "nextPageToken": str(end) if end < len(matching) else "",
        "pageSize": query.page_size,
        "totalSize": len(matching),
    }
