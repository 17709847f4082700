"""The reference agent's side of W3C Trace Context: it reads an incoming ``traceparent``,
logs it, and echoes its trace id in the metadata of the task the call starts, so a demo
shows the client's run and the agent's log joined by one id.

Each binding calls :func:`receive` once per call, before the call does anything; the trace
id is kept in a context variable that the call's task creation reads
(``TaskStore.create``). A header that is not a valid ``traceparent`` is logged (bounded,
printable) and echoes nothing.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

from sia_tui.core.trace_context import TRACEPARENT, parse_traceparent

#: The agent's log of incoming trace ids (``serve-demo`` writes it on stderr).
LOG = logging.getLogger("sia_tui.agent.trace")
#: Where the trace id goes in a task's ``metadata``.
METADATA_KEY = "traceId"
#: The trace id of the call being handled (None: it carried no valid traceparent).
_INCOMING: ContextVar[str | None] = ContextVar("incoming_trace_id", default=None)
#: The most of an invalid header the log shows.
_SHOWN = 80


def receive(value: str | None, call: str) -> str | None:
    """Read the call's ``traceparent`` (None: it had none), log it, and remember its trace
    id for the task the call starts; returns the trace id."""
    if value is None:
        _INCOMING.set(None)
        return None
    parsed = parse_traceparent(value)
    if parsed is None:
        # ascii(): escapes every control and non-ASCII character a client may send.
        LOG.info("%s: invalid %s %s ignored", call, TRACEPARENT, ascii(value[:_SHOWN]))
        _INCOMING.set(None)
        return None
    LOG.info("%s: trace_id=%s parent_span_id=%s", call, parsed.trace_id, parsed.span_id)
    _INCOMING.set(parsed.trace_id)
    return parsed.trace_id


def incoming_trace_id() -> str | None:
    """The trace id of the call being handled, for the task it starts."""
    return _INCOMING.get()
