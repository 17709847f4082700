"""How step 7 sends the invocation and waits for its answer (draft 5.3.2's response modes)."""

from __future__ import annotations

from enum import StrEnum


class InvocationMode(StrEnum):
    """A response mode, valued as the document, the session file and ``--json`` spell it."""

    #: One request, one answer (``SendMessage`` that blocks).
    SYNC = "sync"
    #: One request, answered as a stream of events.
    STREAM = "stream"
    #: One request that returns at once, then ``GetTask`` until the task ends.
    POLL = "poll"
