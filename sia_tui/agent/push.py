"""The reference agent's push notifications: read the webhook a send registers, and POST
each event of the task to it with the token, as a2a-sdk 1.3.0's push sender does.

``AgentConfig.push``: "off" (the card says no; a webhook gets PushNotificationNotSupported),
"on", or "refuse-loopback" (the card says yes, but loopback and private URLs are refused
with invalid params, as agents SHOULD per A2A 1.0 section 13.2 and as a2a-sdk's
``validate_push_notification_url`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sia_tui.agent import a2a_wire as wire
from sia_tui.agent.service import OperationError, invalid_params, is_final
from sia_tui.agent.tasks import TaskRecord

PUSH_MODES = ("off", "on", "refuse-loopback")
#: The header the token travels in (a2a-sdk's ``BasePushNotificationSender``).
TOKEN_HEADER = "X-A2A-Notification-Token"
#: Seconds one delivery may take before the agent gives up on it.
POST_TIMEOUT = 5.0


@dataclass(frozen=True)
class Webhook:
    """Where to push a task's events, and the token to send with each."""

    url: str
    token: str | None


def push_not_supported() -> OperationError:
    """A2A PushNotificationNotSupported (-32003 / 400)."""
    return OperationError(
        -32003,
        400,
        "FAILED_PRECONDITION",
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        "Push Notification is not supported",
    )


def _private(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def webhook_of(params: Any, mode: str, *, legacy: bool) -> Webhook | None:
    """The webhook a SendMessage registers (1.0 ``taskPushNotificationConfig``, 0.3
    ``pushNotificationConfig``), checked; None when it registers none."""
    configuration = params.get("configuration") if isinstance(params, dict) else None
    member = "pushNotificationConfig" if legacy else "taskPushNotificationConfig"
    config = configuration.get(member) if isinstance(configuration, dict) else None
    if config is None:
        return None
    if mode == "off":
        raise push_not_supported()
    url = config.get("url") if isinstance(config, dict) else None
    if not isinstance(url, str) or len(url) > 2000:
        raise invalid_params(f"{member}.url must be a URL")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise invalid_params("Invalid push notification URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise invalid_params("Invalid push notification URL")
    if mode == "refuse-loopback" and _private(parts.hostname):
        raise invalid_params("Invalid push notification URL")  # a2a-sdk's words
    token = config.get("token")
    return Webhook(url, token if isinstance(token, str) and len(token) <= 1000 else None)


class PushSender:
    """POSTs each event of a task to its webhook, in order, one task per webhook."""

    def __init__(self, *, legacy: bool) -> None:
        self._legacy = legacy
        self._running: set[asyncio.Task[None]] = set()

    def follow(self, task: TaskRecord, webhook: Webhook) -> None:
        """Push every later event of ``task`` (subscribed now, so none is missed)."""
        queue = task.subscribe()
        runner = asyncio.create_task(self._push(task, queue, webhook))
        self._running.add(runner)
        runner.add_done_callback(self._running.discard)

    async def _push(
        self, task: TaskRecord, queue: asyncio.Queue[dict[str, Any]], webhook: Webhook
    ) -> None:
        import httpx  # the agent's client side loads only when something is pushed

        headers = {TOKEN_HEADER: webhook.token} if webhook.token else {}
        try:
            async with httpx.AsyncClient(timeout=POST_TIMEOUT, trust_env=False) as client:
                while True:
                    event = await queue.get()
                    # 1.0 posts one StreamResponse; 0.3 peers posted the Task itself.
                    body = wire.v03_task(task.snapshot()) if self._legacy else event
                    # Best effort, as a2a-sdk's sender: a failed delivery never stops the task.
                    with contextlib.suppress(httpx.HTTPError):
                        await client.post(webhook.url, json=body, headers=headers)
                    update = event.get("statusUpdate")
                    if update is not None and is_final(update["status"]["state"]):
                        return
        finally:
            task.subscribers.remove(queue)
