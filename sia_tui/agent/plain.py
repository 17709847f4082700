"""Plain-A2A tasks: what the reference agent does with a message that names no skill.

A message with no data part at all invokes no schema-interface skill (RULES INV1 is about
the one data part that does), so the agent answers it as a plain A2A 1.0 agent would,
which lets a vendor run A2A's own conformance kit against it without an adapter:

- the task is a conversation: the agent echoes the text and waits for the next message in
  ``TASK_STATE_INPUT_REQUIRED`` (an interrupted state, so a blocking send returns at once,
  as A2A 1.0 section 3.2.2 requires); a message naming the task's ``taskId`` continues it,
  ``CancelTask`` ends it;
- sent with ``returnImmediately: true`` it is a long-running task: WORKING for
  ``AgentConfig.plain_work_seconds`` before it echoes (poll, subscribe or cancel it).

With ``AgentConfig.plain_reply`` "message" (``serve-demo --plain-reply message``) a new
plain message is answered with a bare Message instead (no task: A2A 1.0 section 3.1.1 lets
an agent answer so), the other shape a plain A2A client must read.

A message with a data part keeps the draft's rules, however wrong that part is.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from sia_tui.agent.tasks import TaskRecord
from sia_tui.core.task_state import TaskState

#: The longest text an echo repeats.
ECHO_CHARS = 1000


def is_plain(message: dict[str, Any]) -> bool:
    """True when the message carries no data part: it names no schema-interface skill."""
    parts = message.get("parts")
    return isinstance(parts, list) and not any(
        isinstance(part, dict) and "data" in part for part in parts
    )


def _text(message: dict[str, Any]) -> str:
    parts = message.get("parts")
    texts = [
        p["text"] for p in parts or () if isinstance(p, dict) and isinstance(p.get("text"), str)
    ]
    text = " ".join(texts)
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "..."


def message_reply(message: dict[str, Any]) -> dict[str, Any]:
    """The bare Message that answers a plain message (``plain_reply`` "message"): the echo,
    in the sender's context (a new one when it named none)."""
    context = message.get("contextId")
    return {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_AGENT",
        "parts": [{"text": f"echo: {_text(message)}"}],
        "contextId": context if isinstance(context, str) and context else str(uuid.uuid4()),
    }


async def converse(task: TaskRecord, message: dict[str, Any], work_seconds: float) -> None:
    """Run one plain-A2A task until it is cancelled: WORKING (for ``work_seconds`` on a
    first message sent with returnImmediately), then the echo in INPUT_REQUIRED."""
    task.set_status(TaskState.WORKING)
    if work_seconds > 0:
        await asyncio.sleep(work_seconds)
    while True:
        reply = task.agent_message([{"text": f"echo: {_text(message)}"}])
        task.history.append(reply)
        task.waiter = asyncio.get_running_loop().create_future()
        task.set_status(TaskState.INPUT_REQUIRED, reply)
        message = await task.waiter
