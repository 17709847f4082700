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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sia_tui.agent import a2a_wire as wire
from sia_tui.agent.errors import invalid_params, push_not_supported
from sia_tui.agent.service import is_final
from sia_tui.agent.tasks import TaskRecord

PUSH_MODES = ("off", "on", "refuse-loopback")
#: The header the token travels in (a2a-sdk's ``BasePushNotificationSender``).
TOKEN_HEADER = "X-A2A-Notification-Token"
#: Seconds one delivery may take before the agent gives up on it.
POST_TIMEOUT = 5.0


@dataclass(frozen=True)
class Webhook:
    """Where to push a task's events, the token to send with each, and the
    ``Authorization`` value (``scheme credentials``) when the config names one."""

    url: str
    token: str | None
    authorization: str | None = None

    def headers(self) -> dict[str, str]:
        """The headers each delivery carries (as a2a-sdk 1.3.0's sender sets them)."""
        headers = {TOKEN_HEADER: self.token} if self.token else {}
        if self.authorization:
            headers["Authorization"] = self.authorization
        return headers


def _authorization(config: dict[str, Any]) -> str | None:
    auth = config.get("authentication")
    if not isinstance(auth, dict):
        return None
    scheme, credentials = auth.get("scheme"), auth.get("credentials")
    if not isinstance(scheme, str) or not isinstance(credentials, str):
        return None
    value = f"{scheme} {credentials}"
    # Header text only: no line breaks or controls from the client reach the request.
    return value if len(value) <= 2000 and value.isprintable() else None


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
    return checked_webhook(config, mode, member)


def checked_webhook(config: Any, mode: str, member: str) -> Webhook:
    """The webhook of one push notification config (``url``, ``token``), checked as the
    push mode says; InvalidParams when its URL may not be used."""
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
    if not (isinstance(token, str) and len(token) <= 1000 and token.isprintable()):
        token = None
    return Webhook(url, token, _authorization(config))


class PushSender:
    """POSTs each event of a task to its webhook, in order, one task per webhook."""

    def __init__(
        self, *, legacy: bool, spell: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    ) -> None:
        self._legacy = legacy
        #: How the agent spells what it sends (``AgentApp._spelt``: a fault may change it).
        self._spell = spell or (lambda body: body)
        self._running: set[asyncio.Task[None]] = set()

    def follow(
        self, task: TaskRecord, webhook: Webhook, registered: Callable[[], bool] | None = None
    ) -> None:
        """Push every later event of ``task`` (subscribed now, so none is missed), while
        ``registered()`` says its config was not deleted."""
        queue = task.subscribe()
        runner = asyncio.create_task(self._push(task, queue, webhook, registered))
        self._running.add(runner)
        runner.add_done_callback(self._running.discard)

    async def _push(
        self,
        task: TaskRecord,
        queue: asyncio.Queue[dict[str, Any]],
        webhook: Webhook,
        registered: Callable[[], bool] | None,
    ) -> None:
        import httpx  # the agent's client side loads only when something is pushed

        headers = webhook.headers()
        try:
            async with httpx.AsyncClient(timeout=POST_TIMEOUT, trust_env=False) as client:
                while True:
                    event = await queue.get()
                    if registered is not None and not registered():
                        return  # the config was deleted: nothing more goes to it
                    # 1.0 posts one StreamResponse; 0.3 peers posted the Task itself.
                    body = wire.v03_task(task.snapshot()) if self._legacy else event
                    # Best effort, as a2a-sdk's sender: a failed delivery never stops the task.
                    with contextlib.suppress(httpx.HTTPError):
                        await client.post(webhook.url, json=self._spell(body), headers=headers)
                    update = event.get("statusUpdate")
                    if update is not None and is_final(update["status"]["state"]):
                        return
        finally:
            task.subscribers.remove(queue)
