"""The A2A task states by their 1.0 wire names, and which of them end a task."""

from __future__ import annotations

from enum import StrEnum


class TaskState(StrEnum):
    """A task's state, valued as the 1.0 wire writes it (``TASK_STATE_COMPLETED``).

    0.3's spellings (``completed``, ``input-required``) and ProtoJSON numbers are read as
    these (``a2a/objects.normalize_state``). Declared in a2a.proto's order, so that
    ``list(TaskState)[n]`` is the state ProtoJSON numbers ``n``.
    """

    UNSPECIFIED = "TASK_STATE_UNSPECIFIED"
    SUBMITTED = "TASK_STATE_SUBMITTED"
    WORKING = "TASK_STATE_WORKING"
    COMPLETED = "TASK_STATE_COMPLETED"
    FAILED = "TASK_STATE_FAILED"
    CANCELED = "TASK_STATE_CANCELED"
    INPUT_REQUIRED = "TASK_STATE_INPUT_REQUIRED"
    REJECTED = "TASK_STATE_REJECTED"
    AUTH_REQUIRED = "TASK_STATE_AUTH_REQUIRED"


#: The task will not change any more.
TERMINAL_STATES = frozenset(
    {TaskState.COMPLETED, TaskState.FAILED, TaskState.CANCELED, TaskState.REJECTED}
)
#: The task waits for the user: a stream or a poll loop ends here too.
INTERRUPTED_STATES = frozenset({TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED})
#: Terminal or interrupted: nothing more happens without the user.
FINISHED_STATES = TERMINAL_STATES | INTERRUPTED_STATES
