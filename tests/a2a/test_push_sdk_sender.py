"""a2a-sdk 1.3.0's own push sender delivers to sia-tui's receiver: the token header and
the StreamResponse body it posts are what the receiver reads."""

from __future__ import annotations

import httpx
import pytest

from sia_tui.core.a2a.push.receiver import PushReceiver

pytest.importorskip("a2a")

from a2a.server.context import ServerCallContext  # noqa: E402
from a2a.server.tasks import (  # noqa: E402
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
)
from a2a.types.a2a_pb2 import (  # noqa: E402
    Task,
    TaskPushNotificationConfig,
    TaskState,
    TaskStatus,
    TaskStatusUpdateEvent,
)


async def test_the_sdk_sender_delivers_what_the_receiver_checks() -> None:
    receiver = PushReceiver(token="sdk-token", max_body_bytes=65536)
    url = await receiver.start()
    receiver.expect("task-7")
    store = InMemoryPushNotificationConfigStore()
    await store.set_info(
        "task-7",
        TaskPushNotificationConfig(task_id="task-7", url=url, token="sdk-token"),
        ServerCallContext(),
    )
    try:
        async with httpx.AsyncClient(trust_env=False) as client:
            sender = BasePushNotificationSender(client, store)
            working = TaskStatusUpdateEvent(
                task_id="task-7",
                context_id="ctx",
                status=TaskStatus(state=TaskState.TASK_STATE_WORKING),
            )
            done = Task(
                id="task-7",
                context_id="ctx",
                status=TaskStatus(state=TaskState.TASK_STATE_COMPLETED),
            )
            await sender.send_notification("task-7", working)
            await sender.send_notification("task-7", done)
    finally:
        await receiver.stop()
    first, second = receiver.deliveries
    assert (first.kind, first.task_state) == ("status", "TASK_STATE_WORKING")
    assert (second.kind, second.task_state) == ("task", "TASK_STATE_COMPLETED")
    assert all(d.token_ok and d.task_id_ok and d.problem is None for d in receiver.deliveries)
